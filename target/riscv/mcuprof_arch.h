/*
 * mcuprof_arch.h - RISC-V pieces of the porting contract (see
 * common/mcuprof_port.h). RV32 and RV64, machine mode.
 */
#ifndef MCUPROF_ARCH_H
#define MCUPROF_ARCH_H

#include "mcuprof/image.h"
#include "mcuprof_semihost.h" /* mcuprof_port_semihost */

#define MCUPROF_ARCH_MACHINE MCUPROF_MACHINE_RISCV

/* Return addresses are call sites in the callers. With compressed
 * instructions two calls can be 2 bytes apart (`c.jal`, `c.jalr` back to
 * back), so only bit 0, always 0, carries nothing for the hash: dropping
 * bit 1 as well would put such neighbours in one bucket, where each call
 * would move its arc to the front on the slow path. Without them calls
 * are 4-byte instructions and bit 1 is always 0 too. */
#if defined(__riscv_compressed)
#define MCUPROF_PORT_HASH_SHIFT 1
#else
#define MCUPROF_PORT_HASH_SHIFT 2
#endif

/* A 32 x 32 -> 64-bit multiply in one instruction: MULHU on RV32, MUL on
 * RV64, with the M extension. */
#if defined(__riscv_mul)
#define MCUPROF_PORT_WIDE_MUL 1
#else
#define MCUPROF_PORT_WIDE_MUL 0
#endif

#define MCUPROF_MSTATUS_MIE 0x8u

#if !defined(__ASSEMBLER__)
#include <stdint.h>

typedef uintptr_t mcuprof_irq_state_t;

__attribute__((no_instrument_function, always_inline)) static inline mcuprof_irq_state_t
mcuprof_port_irq_save(void)
{
    uintptr_t mstatus;
    __asm__ volatile("csrrci %0, mstatus, %1" : "=r"(mstatus) : "i"(MCUPROF_MSTATUS_MIE) : "memory");
    return mstatus & MCUPROF_MSTATUS_MIE;
}

__attribute__((no_instrument_function, always_inline)) static inline void
mcuprof_port_irq_restore(mcuprof_irq_state_t mie)
{
    __asm__ volatile("csrs mstatus, %0" ::"r"(mie) : "memory");
}

__attribute__((no_instrument_function, always_inline)) static inline void mcuprof_port_barrier(void)
{
    __asm__ volatile("fence rw, rw" ::: "memory");
}

/* Saturating increment that an interrupt in the middle cannot undo: with
 * the A extension an LR/SC loop (the interrupt's own SC, or its change of
 * the value, makes ours fail and we retry); without it, MIE is cleared for
 * the three instructions. */
__attribute__((no_instrument_function, always_inline)) static inline void
mcuprof_port_count_inc(volatile uint32_t *count)
{
#if defined(__riscv_atomic)
    uint32_t old, next, fail;
    __asm__ volatile("1: lr.w %0, (%3)\n\t"
                     "addi %1, %0, 1\n\t"
                     "beqz %1, 2f\n\t" /* was 0xFFFFFFFF: stays saturated */
                     "sc.w %2, %1, (%3)\n\t"
                     "bnez %2, 1b\n"
                     "2:"
                     : "=&r"(old), "=&r"(next), "=&r"(fail)
                     : "r"(count)
                     : "memory");
#else
    mcuprof_irq_state_t s = mcuprof_port_irq_save();
    if (*count != UINT32_MAX)
        (*count)++;
    mcuprof_port_irq_restore(s);
#endif
}

/* Non-zero when the instruction before PC (mepc of an interrupt, where
 * the hart resumes) is WFI (0x10500073): the hart was waiting for the
 * interrupt, idle. Read as two halfwords: with the C extension PC may be
 * only 2-byte aligned. The caller makes sure PC - 4 is code. */
__attribute__((no_instrument_function, always_inline)) static inline int
mcuprof_port_waited_before(uintptr_t pc)
{
    const volatile uint16_t *p = (const volatile uint16_t *)(pc - 4u);
    return p[0] == 0x0073u && p[1] == 0x1050u;
}
/* Bytes before PC that mcuprof_port_waited_before() reads. */
#define MCUPROF_PORT_WAIT_INSN_BYTES 4u

/* Non-zero when a CSR instruction that can set mstatus.MIE (csrrw, csrrs,
 * csrrwi, csrrsi on mstatus, 0x300) ends at PC (mepc of an interrupt), or
 * one instruction before it: a timer interrupt held off by masking is
 * taken right there. Reads the two halfwords before END: PC may be only
 * 2-byte aligned. */
__attribute__((no_instrument_function, always_inline)) static inline int mcuprof_port_unmask_at(const volatile uint16_t *end)
{
    uint32_t w = (uint32_t)end[-2] | (uint32_t)end[-1] << 16;
    uint32_t funct3 = (w >> 12) & 7u;
    return (w & 0x7fu) == 0x73u && (w >> 20) == 0x300u && (funct3 & 3u) != 0u && (funct3 & 3u) != 3u;
}

/* Call paths (common/shadow_stack.h). _mcount is an ordinary call made
 * after the prologue, so every profiled function saves ra in a frame of
 * its own: a callee's stack pointer is always below its caller's. */
#define MCUPROF_PORT_FRAMELESS 0
/* One stack pointer. */
#define MCUPROF_PORT_STACKS 1

__attribute__((no_instrument_function, always_inline)) static inline uint32_t mcuprof_port_stack_id(void)
{
    return 0u;
}

/* Call paths: bit 0 of a return address, 0 as every instruction is at
 * least halfword aligned. */
#define MCUPROF_PORT_RETURN_BIT0 0u

/* Call paths: non-zero when the instruction that ends at PC is a call
 * that links ra, JAL or JALR (4 bytes), or C.JALR (C.JAL on RV32, 2
 * bytes), so that PC can be its return address. Halfword reads: PC may
 * be only 2-byte aligned. The caller makes sure the
 * MCUPROF_PORT_CALL_INSN_BYTES before PC are code. */
__attribute__((no_instrument_function, always_inline)) static inline int mcuprof_port_called_before(uintptr_t pc)
{
    const volatile uint16_t *h = (const volatile uint16_t *)pc;
    uint32_t insn = (uint32_t)h[-2] | (uint32_t)h[-1] << 16;
    uint32_t c = h[-1];
    return ((insn & 0xFFFu) == 0x0EFu || (insn & 0x7FFFu) == 0x00E7u) ||
           ((c & 0xF07Fu) == 0x9002u && (c & 0x0F80u) != 0u) || (__riscv_xlen == 32 && (c & 0xE003u) == 0x2001u);
}
#define MCUPROF_PORT_CALL_INSN_BYTES 4u

#endif /* !__ASSEMBLER__ */

#endif /* MCUPROF_ARCH_H */

/*
 * mcuprof_arch.h - Cortex-M pieces of the porting contract (see
 * common/mcuprof_port.h). Works on ARMv6-M, ARMv7-M and ARMv8-M.
 */
#ifndef MCUPROF_ARCH_H
#define MCUPROF_ARCH_H

#include "mcuprof/image.h"
#include "mcuprof_semihost.h" /* mcuprof_port_semihost */

#define MCUPROF_ARCH_MACHINE MCUPROF_MACHINE_ARM

/* A call site's return address is halfword aligned and carries the Thumb
 * bit, so bit 0 carries nothing for the hash; bit 1 does: `blx rN` is 2
 * bytes, and two of them back to back are call sites 2 bytes apart, which
 * must not share a bucket (each call would move its arc to the front on
 * the slow path). */
#define MCUPROF_PORT_HASH_SHIFT 1

/* A 32 x 32 -> 64-bit multiply in one instruction: UMULL on ARMv7-M and
 * ARMv8-M Mainline; not on ARMv6-M and ARMv8-M Baseline. */
#if defined(__ARM_ARCH_7M__) || defined(__ARM_ARCH_7EM__) || defined(__ARM_ARCH_8M_MAIN__) || \
    defined(__ARM_ARCH_8_1M_MAIN__)
#define MCUPROF_PORT_WIDE_MUL 1
#else
#define MCUPROF_PORT_WIDE_MUL 0
#endif

#if !defined(__ASSEMBLER__)
#include <stdint.h>

typedef uint32_t mcuprof_irq_state_t;

__attribute__((no_instrument_function, always_inline)) static inline mcuprof_irq_state_t
mcuprof_port_irq_save(void)
{
    uint32_t primask;
    __asm__ volatile("mrs %0, primask\n\tcpsid i" : "=r"(primask)::"memory");
    return primask;
}

__attribute__((no_instrument_function, always_inline)) static inline void
mcuprof_port_irq_restore(mcuprof_irq_state_t primask)
{
    __asm__ volatile("msr primask, %0" ::"r"(primask) : "memory");
}

__attribute__((no_instrument_function, always_inline)) static inline void mcuprof_port_barrier(void)
{
    __asm__ volatile("dmb" ::: "memory");
}

/* Called from the slow path, which runs with PRIMASK set; a fast path it
 * interrupted between LDREX and STREX fails its STREX (exception entry and
 * return clear the exclusive monitor) and retries. */
__attribute__((no_instrument_function, always_inline)) static inline void
mcuprof_port_count_inc(volatile uint32_t *count)
{
    uint32_t v = *count;
    if (v != UINT32_MAX)
        *count = v + 1u;
}

/* Non-zero when the instruction before PC (a return address of an
 * exception, so PC is where the core resumes) is WFI (0xbf30) or WFE
 * (0xbf20): the core was waiting for the interrupt, idle. The caller
 * makes sure PC - 2 is code. */
__attribute__((no_instrument_function, always_inline)) static inline int
mcuprof_port_waited_before(uintptr_t pc)
{
    return (*(const volatile uint16_t *)(pc - 2u) & 0xffefu) == 0xbf20u;
}
/* Bytes before PC that mcuprof_port_waited_before() reads. */
#define MCUPROF_PORT_WAIT_INSN_BYTES 2u

/* Non-zero when an instruction that unmasks interrupts ends at PC (a
 * return address of an exception), or one instruction before it (an ISB
 * after it, as CMSIS code often has): CPSIE i, f or if (0xb661..0xb663),
 * or MSR PRIMASK / FAULTMASK, Rn (0xf38n, 0x8810 / 0x8813). A tick held
 * off by masking is taken right there. Reads the two halfwords before
 * END. */
__attribute__((no_instrument_function, always_inline)) static inline int mcuprof_port_unmask_at(const volatile uint16_t *end)
{
    uint16_t last = end[-1], first = end[-2];
    if (last >= 0xb661u && last <= 0xb663u)
        return 1;
    return (first & 0xfff0u) == 0xf380u && (last == 0x8810u || last == 0x8813u);
}

/* Call paths (common/shadow_stack.h). GCC calls the hook after the
 * function's prologue, and a leaf that saves nothing keeps no frame at
 * all: its stack pointer is then its caller's. */
#define MCUPROF_PORT_FRAMELESS 1
/* Two stack pointers: every handler runs on the main stack, thread code
 * on the main or the process stack (an RTOS's tasks). */
#define MCUPROF_PORT_STACKS 2

/* 1 on the process stack (thread mode with CONTROL.SPSEL set), 0 on the
 * main stack. */
__attribute__((no_instrument_function, always_inline)) static inline uint32_t mcuprof_port_stack_id(void)
{
    uint32_t ipsr, control;
    __asm__ volatile("mrs %0, ipsr" : "=r"(ipsr));
    __asm__ volatile("mrs %0, control" : "=r"(control));
    return ipsr == 0u && (control & 2u) != 0u ? 1u : 0u;
}

/* Call paths: which handler activation the running code belongs to, so
 * that a handler's frames, which no hook sees return, can be told dead
 * (common/shadow_stack.h): IPSR (0 in thread mode) in bits 8:0 and, on
 * cores that show which exceptions are active (ARMv7-M, v8-M Mainline:
 * SHCSR for system handlers, NVIC_IABR for interrupts), how many are in
 * bits 15:9: one activation of a handler runs with the same count, a
 * later one nested in another handler with a higher. ARMv6-M and v8-M
 * Baseline show neither: IPSR alone. */
#define MCUPROF_PORT_ACT_UNKNOWN 0xFFFFFFFFu
/* (ARMv8-M Mainline, the Cortex-M33, is left to priorities as ARMv6-M:
 * with active bits, e2e paths_isr on mps2-an505 gave the handler 1.5
 * points more than its time, not yet explained; docs/paths.md.) */
#if defined(__ARM_ARCH_7M__) || defined(__ARM_ARCH_7EM__) || defined(__ARM_ARCH_8_1M_MAIN__)
#define MCUPROF_PORT_ACTIVE_BITS 1
#define MCUPROF_SHCSR (*(volatile uint32_t *)0xE000ED24u)
#define MCUPROF_NVIC_IABR(w) (*(volatile uint32_t *)(0xE000E300u + 4u * (w)))
#define MCUPROF_ICTR (*(volatile uint32_t *)0xE000E004u)
/* SHCSR's active bits, by exception number 4..15 (MemManage, BusFault,
 * UsageFault, SecureFault, SVCall, DebugMonitor, PendSV, SysTick); -1:
 * none (reserved numbers). NMI and HardFault have none either. */
#define MCUPROF_SHCSR_ACT_Msk 0x0D9Bu
__attribute__((no_instrument_function, always_inline)) static inline int mcuprof_port_exception_active(uint32_t exc)
{
    static const int8_t bit[12] = {0, 1, 3, 4, -1, -1, -1, 7, 8, -1, 10, 11};
    if (exc >= 16u)
        return (int)(MCUPROF_NVIC_IABR((exc - 16u) >> 5) >> ((exc - 16u) & 31u) & 1u);
    if (exc < 4u || bit[exc - 4u] < 0)
        return 1; /* not shown: taken as active */
    return (int)(MCUPROF_SHCSR >> bit[exc - 4u] & 1u);
}

__attribute__((no_instrument_function, always_inline)) static inline uint32_t mcuprof_port_active_count(void)
{
    uint32_t n = 0, words = (MCUPROF_ICTR & 0xFu) + 1u, bits = MCUPROF_SHCSR & MCUPROF_SHCSR_ACT_Msk;
    for (uint32_t w = 0;; bits = MCUPROF_NVIC_IABR(w++)) {
        for (; bits; bits &= bits - 1u)
            n++;
        if (w == words)
            break;
    }
    return n;
}
#else
#define MCUPROF_PORT_ACTIVE_BITS 0
/* The priority of exception EXC as the core compares them (lower
 * preempts): NMI -2, HardFault -1, the others from SHPR2, SHPR3 and
 * NVIC_IPR (word reads: ARMv6-M allows no other). 256: no such number. */
__attribute__((no_instrument_function, always_inline)) static inline int32_t mcuprof_port_exception_priority(uint32_t exc)
{
    if (exc == 2u || exc == 3u)
        return (int32_t)exc - 4;
    if (exc >= 16u)
        return (int32_t)(*(volatile uint32_t *)(0xE000E400u + ((exc - 16u) & ~3u)) >> (8u * (exc & 3u)) & 0xFFu);
    if (exc == 11u)
        return (int32_t)(*(volatile uint32_t *)0xE000ED1Cu >> 24);
    if (exc == 14u || exc == 15u)
        return (int32_t)(*(volatile uint32_t *)0xE000ED20u >> (8u * (exc - 12u)) & 0xFFu);
    return 256;
}
#endif

__attribute__((no_instrument_function, always_inline)) static inline uint32_t mcuprof_port_activation(void)
{
    uint32_t ipsr;
    __asm__ volatile("mrs %0, ipsr" : "=r"(ipsr));
    ipsr &= 0x1FFu;
#if MCUPROF_PORT_ACTIVE_BITS
    if (ipsr)
        ipsr |= mcuprof_port_active_count() << 9;
#endif
    return ipsr;
}

/* The activation of the code the sampler interrupted, whose stacked xPSR
 * has IPSR: as mcuprof_port_activation() in that code, where the count
 * now includes the sampler's own exception. */
__attribute__((no_instrument_function, always_inline)) static inline uint32_t mcuprof_port_interrupted_activation(uint32_t ipsr)
{
    ipsr &= 0x1FFu;
#if MCUPROF_PORT_ACTIVE_BITS
    if (ipsr)
        ipsr |= (mcuprof_port_active_count() - 1u) << 9;
#endif
    return ipsr;
}

/* A frame of handler activation ACT (not 0) is still live, seen from code
 * in activation NOW (or MCUPROF_PORT_ACT_UNKNOWN). Thread code runs only
 * once every handler has returned. Where the core shows active
 * exceptions, the handler must be active, and when it is the one NOW runs
 * in, with the count it had: the same handler run again, nested in
 * another, has a higher. Where it does not (ARMv6-M), another handler
 * runs over it only with a more urgent priority; a later run of the same
 * handler cannot be told from the earlier one (docs/paths.md). */
__attribute__((no_instrument_function, always_inline)) static inline int mcuprof_port_activation_live(uint32_t act,
                                                                                                      uint32_t now)
{
    if (now == MCUPROF_PORT_ACT_UNKNOWN) {
#if MCUPROF_PORT_ACTIVE_BITS
        return mcuprof_port_exception_active(act & 0x1FFu);
#else
        (void)act;
        return 1;
#endif
    }
    if ((now & 0x1FFu) == 0u)
        return 0;
#if MCUPROF_PORT_ACTIVE_BITS
    if (!mcuprof_port_exception_active(act & 0x1FFu))
        return 0;
    if ((act & 0x1FFu) == (now & 0x1FFu) && (act >> 9) != (now >> 9))
        return 0;
#else
    /* Under the handler that runs only if that one preempted it, which
     * takes a more urgent priority */
    if ((act & 0x1FFu) != (now & 0x1FFu) &&
        mcuprof_port_exception_priority(act & 0x1FFu) <= mcuprof_port_exception_priority(now & 0x1FFu))
        return 0;
#endif
    return 1;
}

/* Call paths: bit 0 of a return address. A Thumb return address has it
 * set, the Thumb bit, which is not part of the code address. */
#define MCUPROF_PORT_RETURN_BIT0 1u

/* Call paths: non-zero when the instruction that ends at PC is a call
 * that links lr, BLX Rm (one halfword) or BL (two), so that PC can be its
 * return address. The caller makes sure the MCUPROF_PORT_CALL_INSN_BYTES
 * before PC are code. */
__attribute__((no_instrument_function, always_inline)) static inline int mcuprof_port_called_before(uintptr_t pc)
{
    const volatile uint16_t *h = (const volatile uint16_t *)pc;
    return (h[-1] & 0xFF87u) == 0x4780u || ((h[-2] & 0xF800u) == 0xF000u && (h[-1] & 0xD000u) == 0xD000u);
}
#define MCUPROF_PORT_CALL_INSN_BYTES 4u

/* The spill table's slow path from the sampler (common/sample_body.h),
 * through mcuprof_spill_saved (spill_call.S), which keeps every register:
 * an ordinary call would make GCC keep the sample's live values in
 * callee-saved registers, on ARMv6-M at a cost on every sample. */
#define MCUPROF_PORT_SPILL_CALL(bin, pc) ((void)(bin), mcuprof_port_spill_call(pc))
__attribute__((no_instrument_function, always_inline)) static inline void mcuprof_port_spill_call(uintptr_t pc)
{
    register uintptr_t r0 __asm__("r0") = pc;
    __asm__ volatile("bl mcuprof_spill_saved" ::"r"(r0) : "lr", "cc", "memory");
}

#endif /* !__ASSEMBLER__ */

#endif /* MCUPROF_ARCH_H */

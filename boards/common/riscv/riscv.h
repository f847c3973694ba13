/*
 * riscv.h - the few RISC-V machine-mode registers the board code and its
 * tests touch: CSR access, the CLINT (msip, mtimecmp, mtime at
 * BOARD_CLINT_BASE from board_config.h) and the semihosting trap.
 * Freestanding: <stdint.h> and the runtime's mcuprof_semihost.h only.
 * RV32 and RV64.
 */
#ifndef MCUPROF_RISCV_H
#define MCUPROF_RISCV_H

#include <stdint.h>

#include "board_config.h" /* BOARD_CLINT_BASE */

#define RV_REG32(addr) (*(volatile uint32_t *)(uintptr_t)(addr))

/* CSR access; name is the bare CSR name, e.g. rv_csr_read(mstatus). */
#define RV_STR(x) #x
#define rv_csr_read(csr)                                             \
    __extension__({                                                  \
        uintptr_t rv_v_;                                             \
        __asm__ volatile("csrr %0, " RV_STR(csr) : "=r"(rv_v_));     \
        rv_v_;                                                       \
    })
#define rv_csr_write(csr, v) \
    __asm__ volatile("csrw " RV_STR(csr) ", %0" ::"r"((uintptr_t)(v)) : "memory")
#define rv_csr_set(csr, v) \
    __asm__ volatile("csrs " RV_STR(csr) ", %0" ::"r"((uintptr_t)(v)) : "memory")
#define rv_csr_clear(csr, v) \
    __asm__ volatile("csrc " RV_STR(csr) ", %0" ::"r"((uintptr_t)(v)) : "memory")

/* mstatus, mie/mip bits */
#define MSTATUS_MIE (1u << 3)
#define MIP_MSIP (1u << 3) /* machine software interrupt (mie.MSIE) */
#define MIP_MTIP (1u << 7) /* machine timer interrupt (mie.MTIE) */

/* mcause: the top bit marks an interrupt; the rest is the code. */
#define MCAUSE_INTERRUPT ((uintptr_t)1 << (__riscv_xlen - 1))
#define MCAUSE_MSI (MCAUSE_INTERRUPT | 3u) /* machine software interrupt */
#define MCAUSE_MTI (MCAUSE_INTERRUPT | 7u) /* machine timer interrupt */
#define MCAUSE_BREAKPOINT 3u               /* ebreak; mepc is the ebreak */

/* CLINT (SiFive layout, QEMU's ACLINT), hart 0 */
#define CLINT_MSIP RV_REG32(BOARD_CLINT_BASE + 0x0000u)
#define CLINT_MTIMECMP_LO RV_REG32(BOARD_CLINT_BASE + 0x4000u)
#define CLINT_MTIMECMP_HI RV_REG32(BOARD_CLINT_BASE + 0x4004u)
#define CLINT_MTIME_LO RV_REG32(BOARD_CLINT_BASE + 0xBFF8u)
#define CLINT_MTIME_HI RV_REG32(BOARD_CLINT_BASE + 0xBFFCu)

/* mtime, 64 bits, also on RV32 (high word read twice around the low). */
__attribute__((no_instrument_function, always_inline)) static inline uint64_t
rv_mtime(void)
{
    uint32_t hi, lo;

    do {
        hi = CLINT_MTIME_HI;
        lo = CLINT_MTIME_LO;
    } while (hi != CLINT_MTIME_HI);
    return ((uint64_t)hi << 32) | lo;
}

/* mtimecmp, written so that it never passes through a value below the
 * target on RV32 (high word parked at all-ones first). */
__attribute__((no_instrument_function, always_inline)) static inline void
rv_set_mtimecmp(uint64_t t)
{
    CLINT_MTIMECMP_HI = 0xFFFFFFFFu;
    CLINT_MTIMECMP_LO = (uint32_t)t;
    CLINT_MTIMECMP_HI = (uint32_t)(t >> 32);
}

/* The semihosting trap and its operations: the runtime's
 * (target/riscv/mcuprof_semihost.h), so that the sequence its trap handler
 * recognises is the one the boards execute. */
#include "mcuprof_semihost.h"

/* What a board does when board_exit()'s semihosting call came back:
 * "exit <code>" is already printed; end the run if the machine can. */
void rv_board_halt(int code) __attribute__((noreturn));

#endif

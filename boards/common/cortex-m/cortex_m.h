/*
 * cortex_m.h - the few Cortex-M core registers the board code and its tests
 * touch, CMSIS style (_Pos/_Msk), and the semihosting trap. Freestanding:
 * <stdint.h> only.
 */
#ifndef MCUPROF_CORTEX_M_H
#define MCUPROF_CORTEX_M_H

#include <stdint.h>

#define CM_REG(addr) (*(volatile uint32_t *)(addr))

/* SysTick (ARMv6-M, v7-M, v8-M) */
#define SYST_CSR CM_REG(0xE000E010u)
#define SYST_RVR CM_REG(0xE000E014u)
#define SYST_CVR CM_REG(0xE000E018u)
#define SYST_CSR_ENABLE_Msk (1u << 0)
#define SYST_CSR_TICKINT_Msk (1u << 1)
#define SYST_CSR_CLKSOURCE_Msk (1u << 2) /* 1: the processor clock */
#define SYST_CSR_COUNTFLAG_Msk (1u << 16)
#define SYST_RVR_MAX 0x00FFFFFFu

/* NVIC: external interrupt n lives in word n / 32, bit n % 32 */
#define NVIC_ISER(n) CM_REG(0xE000E100u + 4u * ((n) >> 5))
#define NVIC_ICER(n) CM_REG(0xE000E180u + 4u * ((n) >> 5))
#define NVIC_ISPR(n) CM_REG(0xE000E200u + 4u * ((n) >> 5))
#define NVIC_ICPR(n) CM_REG(0xE000E280u + 4u * ((n) >> 5))
#define NVIC_BIT(n) (1u << ((n) & 31u))

/* System control block */
#define SCB_VTOR CM_REG(0xE000ED08u)
#define SCB_CPACR CM_REG(0xE000ED88u) /* v7-M / v8-M with an FPU */
#define SCB_CPACR_CP10_CP11_Msk (0xFu << 20) /* full access to the FPU */

/* SEMIHOST_SYS_* (boards/common) */
#include "../semihost.h"

/* The semihosting trap: BKPT 0xAB on every M profile. A debugger (or QEMU
 * with -semihosting) performs the call and resumes after the BKPT. Without
 * one the BKPT raises a HardFault (DebugMonitor is off), and the fault
 * handler decides: mcuprof's skips the BKPT and returns -1 in r0. */
__attribute__((no_instrument_function, always_inline)) static inline int
cm_semihost(int op, const void *arg)
{
    register int r0 __asm__("r0") = op;
    register const void *r1 __asm__("r1") = arg;

    __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

/* Register board_clock_now() with the runtime, if linked, to measure the
 * sampler's missed periods (board_common.c); startup.c calls it after
 * board_init(). */
void board_register_clock(void);

#endif

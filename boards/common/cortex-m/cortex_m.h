/*
 * cortex_m.h - the few Cortex-M core registers the board code and its tests
 * touch, CMSIS style (_Pos/_Msk), and the semihosting trap. Freestanding:
 * <stdint.h> and the runtime's mcuprof_semihost.h only.
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

/* The semihosting trap and its operations: the runtime's
 * (target/cortex-m/mcuprof_semihost.h), so that the trap its HardFault
 * handler recognises is the one the boards execute. */
#include "mcuprof_semihost.h"

/* Register board_clock_now() with the runtime, if linked, to measure the
 * sampler's missed periods (board_common.c); startup.c calls it after
 * board_init(). */
void board_register_clock(void);

#endif

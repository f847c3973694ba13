/*
 * port.c - Cortex-M: the SysTick sampler timer.
 */
#include "mcuprof.h"
#include "mcuprof_port.h"

/* SysTick, CMSIS-style: only the registers we touch. */
#define SYST_CSR (*(volatile uint32_t *)0xE000E010u)
#define SYST_RVR (*(volatile uint32_t *)0xE000E014u)
#define SYST_CVR (*(volatile uint32_t *)0xE000E018u)
#define SYST_CSR_ENABLE_Msk (1u << 0)
#define SYST_CSR_TICKINT_Msk (1u << 1)
#define SYST_CSR_CLKSOURCE_Msk (1u << 2) /* 1: processor clock */
#define SYST_RVR_RELOAD_Msk 0x00FFFFFFu
/* SHPR3 bits 31:24 hold SysTick's priority; 0 is the highest, so the
 * sampler also sees time spent in other interrupt handlers. On ARMv6-M
 * SHPR3 is word-access only, hence the read-modify-write of the word. */
#define SCB_SHPR3 (*(volatile uint32_t *)0xE000ED20u)
#define SCB_SHPR3_PRI15_Msk 0xFF000000u

MCUPROF_NOINSTR int mcuprof_sampler_start(uint32_t cpu_hz, uint32_t rate_hz)
{
    if (rate_hz == 0u || cpu_hz / rate_hz == 0u)
        return -1;
    uint32_t reload = cpu_hz / rate_hz - 1u;
    if (reload == 0u || reload > SYST_RVR_RELOAD_Msk)
        return -1;
    SYST_CSR = 0;
    SCB_SHPR3 &= ~SCB_SHPR3_PRI15_Msk;
    SYST_RVR = reload;
    SYST_CVR = 0;
    /* The rate actually programmed, rounded to the nearest hertz. */
    mcuprof_set_sample_rate((cpu_hz + (reload + 1u) / 2u) / (reload + 1u));
    SYST_CSR = SYST_CSR_CLKSOURCE_Msk | SYST_CSR_TICKINT_Msk | SYST_CSR_ENABLE_Msk;
    return 0;
}

MCUPROF_NOINSTR void mcuprof_sampler_stop(void)
{
    SYST_CSR = 0;
}

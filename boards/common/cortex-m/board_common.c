/*
 * board_common.c - the part of board.h that is the same on every Cortex-M
 * board: the NVIC, the software interrupt and the exit through
 * semihosting. Never profiled (see startup.c).
 */
#include <stdint.h>

#include "board.h"
#include "cortex_m.h"

#define NOPROF __attribute__((no_instrument_function))

NOPROF void board_put_exit(int code); /* boards/common/console.c */

/* The runtime's, when the firmware links it: weak, so firmware without
 * mcuprof links too. */
extern int mcuprof_sampler_set_clock(uint32_t (*now)(void)) __attribute__((weak));

/* The board's free-running timer measures the sampler periods that pass
 * without a sample (interrupts masked, a handler the sampler cannot
 * preempt): QEMU's Cortex-M models have no DWT cycle counter, and SysTick
 * alone sees only deferrals. Firmware may register another clock, or none
 * (mcuprof_sampler_set_clock(0)), before it starts the sampler. */
NOPROF void board_register_clock(void)
{
    if (mcuprof_sampler_set_clock)
        (void)mcuprof_sampler_set_clock(board_clock_now);
}

NOPROF void board_pend_irq(unsigned n)
{
    NVIC_ISPR(n) = NVIC_BIT(n);
    __asm__ volatile("dsb\n\tisb" ::: "memory");
}

/* Firmware that triggers the software interrupt defines board_swi_handler;
 * without one, a software interrupt ends the run. */
NOPROF __attribute__((weak)) void board_swi_handler(void)
{
    board_puts("board_swi_handler: not defined by the firmware\n");
    board_exit(99);
}

NOPROF void board_swi_enable(void)
{
    NVIC_ISER(BOARD_SWI_IRQ) = NVIC_BIT(BOARD_SWI_IRQ);
}

/* Pending and enabled, it is taken before the ISB completes, so before
 * this returns (unless PRIMASK or BASEPRI masks it). */
NOPROF void board_swi_trigger(void)
{
    board_pend_irq(BOARD_SWI_IRQ);
}

#if defined(BOARD_SWI_HANDLER_IN_BOARD)
#define BOARD_PASTE2(a, b, c) a##b##c
#define BOARD_PASTE(a, b, c) BOARD_PASTE2(a, b, c)
#define BOARD_SWI_IRQ_HANDLER BOARD_PASTE(IRQ, BOARD_SWI_IRQ, _Handler)

/* Overrides startup.c's weak alias: the vector of BOARD_SWI_IRQ. */
NOPROF void BOARD_SWI_IRQ_HANDLER(void);
NOPROF void BOARD_SWI_IRQ_HANDLER(void)
{
    board_swi_handler();
}
#endif

/* SYS_EXIT_EXTENDED carries the exit code on every profile (QEMU honours it
 * for A32/T32 too); plain SYS_EXIT could only say "success". The call
 * returns only when nobody performed it: the HardFault handler stepped over
 * the BKPT. */
NOPROF void board_exit(int code)
{
    const uintptr_t block[2] = {MCUPROF_SEMIHOST_ADP_STOPPED_APPLICATION_EXIT,
                                (uintptr_t)(intptr_t)code};

    (void)mcuprof_port_semihost(MCUPROF_SEMIHOST_SYS_EXIT_EXTENDED, block);
    board_put_exit(code);
    for (;;) {
        __asm__ volatile("wfi");
    }
}

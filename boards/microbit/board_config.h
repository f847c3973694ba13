/* board_config.h - the constants of board.h for microbit under QEMU 7.2. */
#ifndef MCUPROF_BOARD_CONFIG_H
#define MCUPROF_BOARD_CONFIG_H

#define BOARD_NAME "microbit"

/* SysTick counts the nRF51 HCLK, 16 MHz (measured: 16000 counts per 10^6
 * instructions at -icount shift=0). QEMU wires no reference clock here, so
 * CLKSOURCE=0 counts the same clock (SYST_CALIB reads NOREF). The real
 * nRF51 has no SysTick at all; QEMU always provides one. */
#define BOARD_SYSTICK_HZ 16000000u
/* The timer clock under its architecture-neutral name. */
#define BOARD_TIMER_HZ BOARD_SYSTICK_HZ

/* Free interrupt line for software use, IRQ25_Handler: SWI5 of the nRF51,
 * which no QEMU device drives. A plain decimal literal, so that
 * IRQ ## n ## _Handler can be pasted. */
#define BOARD_SWI_IRQ 25
/* nRF51 TIMER0, the clock behind board_clock_now() (boards/microbit/board.c) */
#define BOARD_CLOCK_NRF_TIMER_BASE 0x40008000u
/* board_clock_now() without the call, once it has run: capture the count
 * into CC[0], read CC[0] (for code that must not leave the function it
 * times). */
#define BOARD_CLOCK_READ()                                                  \
    ((*(volatile uint32_t *)(BOARD_CLOCK_NRF_TIMER_BASE + 0x040u) = 1u), \
     *(volatile uint32_t *)(BOARD_CLOCK_NRF_TIMER_BASE + 0x540u))

#endif

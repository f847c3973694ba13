/*
 * mps2_config.h - the constants of board.h shared by the MPS2 boards whose
 * devices QEMU 7.2 wires alike (mps2-an385, mps2-an386, mps2-an500); each
 * board_config.h adds BOARD_NAME and includes this.
 */
#ifndef MCUPROF_MPS2_CONFIG_H
#define MCUPROF_MPS2_CONFIG_H

/* SysTick with CLKSOURCE=1 counts the MPS2 SYSCLK, 25 MHz (measured: 25000
 * counts per 10^6 instructions at -icount shift=0). CLKSOURCE=0 counts a
 * 1 MHz reference clock instead (on the AN500 SYST_CALIB reads 0x270F). */
#define BOARD_SYSTICK_HZ 25000000u
/* The timer clock under its architecture-neutral name. */
#define BOARD_TIMER_HZ BOARD_SYSTICK_HZ

/* Free interrupt line for software use, IRQ31_Handler: QEMU wires nothing
 * to it (UARTs use 0-5, 12 and 18-21, timers 8-10, SPI 11, 22 and 24,
 * Ethernet 13; the AN500 has 32 lines, ICTR 0, wired as the AN385's). A
 * plain decimal literal, so that IRQ ## n ## _Handler can be pasted. */
#define BOARD_SWI_IRQ 31
/* Console: CMSDK APB UART0 (boards/common/cortex-m/cmsdk_uart.c). */
#define BOARD_UART_BASE 0x40004000u
/* CMSDK APB timer 0, the clock behind board_clock_now(): sysclk, as SysTick
 * (measured: equal counts over a spin) */
#define BOARD_CLOCK_TIMER_BASE 0x40000000u
/* board_clock_now() without the call, once it has run: VALUE counts down
 * (for code that must not leave the function it times). */
#define BOARD_CLOCK_READ() (~*(volatile uint32_t *)(BOARD_CLOCK_TIMER_BASE + 0x04u))

#endif

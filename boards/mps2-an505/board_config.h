/* board_config.h - the constants of board.h for mps2-an505 under QEMU 7.2. */
#ifndef MCUPROF_BOARD_CONFIG_H
#define MCUPROF_BOARD_CONFIG_H

#define BOARD_NAME "mps2-an505"

/* SysTick counts the AN505 SYSCLK, 20 MHz (measured: 20000 counts per 10^6
 * instructions at -icount shift=0). QEMU wires no reference clock to the
 * IoTKit's SysTick, so CLKSOURCE=0 counts the same clock (SYST_CALIB reads
 * NOREF). */
#define BOARD_SYSTICK_HZ 20000000u
/* The timer clock under its architecture-neutral name. */
#define BOARD_TIMER_HZ BOARD_SYSTICK_HZ

/* Free interrupt line for software use, IRQ31_Handler: an IoTKit-internal
 * line that is reserved (the FPGA's own devices start at 32, e.g. UART0 at
 * 32, 33 and 42). A plain decimal literal, so that IRQ ## n ## _Handler can
 * be pasted. */
#define BOARD_SWI_IRQ 31
/* Console: CMSDK APB UART0 (boards/common/cortex-m/cmsdk_uart.c). */
#define BOARD_UART_BASE 0x50200000u
/* CMSDK APB timer 0 of the IoTKit (Secure alias), the clock behind
 * board_clock_now(): MAINCLK, as SysTick */
#define BOARD_CLOCK_TIMER_BASE 0x50000000u
/* board_clock_now() without the call, once it has run: VALUE counts down
 * (for code that must not leave the function it times). */
#define BOARD_CLOCK_READ() (~*(volatile uint32_t *)(BOARD_CLOCK_TIMER_BASE + 0x04u))

#endif

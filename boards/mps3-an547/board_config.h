/* board_config.h - the constants of board.h for mps3-an547 under QEMU 7.2. */
#ifndef MCUPROF_BOARD_CONFIG_H
#define MCUPROF_BOARD_CONFIG_H

#define BOARD_NAME "mps3-an547"

/* SysTick counts the AN547 SYSCLK (the SSE-300's MAINCLK), 32 MHz
 * (measured: 32000 counts per 10^6 instructions at -icount shift=0). No
 * reference clock is wired (SYST_CALIB reads NOREF): CLKSOURCE=0 counts the
 * same clock. */
#define BOARD_SYSTICK_HZ 32000000u
/* The timer clock under its architecture-neutral name. */
#define BOARD_TIMER_HZ BOARD_SYSTICK_HZ

/* Free interrupt line for software use, IRQ31_Handler: lines 0-31 are the
 * SSE-300's own (S32K timer 2, timers 3-5 and 27, ...), 31 is not wired;
 * the FPGA's devices start at 32, beyond startup.c's 32
 * external vectors. A plain decimal literal, so that IRQ ## n ## _Handler
 * can be pasted. */
#define BOARD_SWI_IRQ 31
/* Console: CMSDK APB UART0 (boards/common/cortex-m/cmsdk_uart.c), Secure
 * alias of 0x49303000. */
#define BOARD_UART_BASE 0x59303000u
/* The SSE-300 system counter's control frame (Secure), the clock behind
 * board_clock_now() (board.c): MAINCLK, as SysTick */
#define BOARD_CLOCK_COUNTER_BASE 0x58100000u
/* board_clock_now() without the call, once it has run: CNTCV's low word
 * (for code that must not leave the function it times). */
#define BOARD_CLOCK_READ() (*(volatile uint32_t *)(BOARD_CLOCK_COUNTER_BASE + 0x08u))

#endif

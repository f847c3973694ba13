/* board_config.h - the constants of board.h for sifive-e under QEMU 7.2. */
#ifndef MCUPROF_BOARD_CONFIG_H
#define MCUPROF_BOARD_CONFIG_H

#define BOARD_NAME "sifive-e"

/* mtime counts at 10 MHz in QEMU 7.2 (measured: 10000 counts per 10^6
 * instructions at -icount shift=0), not at the 32768 Hz of the FE310's
 * real low-frequency clock. */
#define BOARD_TIMER_HZ 10000000u
/* CLINT: msip at +0, mtimecmp at +0x4000, mtime at +0xBFF8. */
#define BOARD_CLINT_BASE 0x02000000u
/* board_clock_now() without the call: mtime's low word (for code that
 * must not leave the function it times). */
#define BOARD_CLOCK_READ() (*(volatile uint32_t *)(BOARD_CLINT_BASE + 0xBFF8u))
/* Console: SiFive UART0 (boards/sifive-e/board.c). */
#define BOARD_UART_BASE 0x10013000u

#endif

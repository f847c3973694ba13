/*
 * board.h - what firmware (demos, tests) may ask of a board. One
 * implementation per boards/<board>/; board_config.h beside it supplies the
 * two constants below.
 */
#ifndef MCUPROF_BOARD_H
#define MCUPROF_BOARD_H

#include <stdint.h>

#include "board_config.h" /* BOARD_SYSTICK_HZ, BOARD_SWI_IRQ */

/* Bring up what the firmware needs before main(): the console UART. */
void board_init(void);
/* Write one character to the console UART (blocking, no CR/LF translation). */
void board_putc(char c);
/* Write a NUL-terminated string to the console UART. */
void board_puts(const char *s);
/* Write v in decimal to the console UART. */
void board_put_u32(uint32_t v);
/* Pend external interrupt n through the NVIC (enabling it is the caller's). */
void board_pend_irq(unsigned n);
/* Ask the debugger or QEMU to end the run with this exit code (semihosting);
 * without one, print "exit <code>" and sleep forever. */
void board_exit(int code) __attribute__((noreturn));

#endif

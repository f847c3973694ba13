/*
 * board.h - what firmware (demos, tests) may ask of a board. One
 * implementation per boards/<board>/, the same names on Cortex-M and
 * RISC-V; board_config.h beside it supplies the constants (BOARD_NAME,
 * BOARD_TIMER_HZ; Cortex-M: BOARD_SYSTICK_HZ, BOARD_SWI_IRQ; RISC-V:
 * BOARD_CLINT_BASE).
 */
#ifndef MCUPROF_BOARD_H
#define MCUPROF_BOARD_H

#include <stdint.h>

#include "board_config.h"

/* Bring up what the firmware needs before main(): the console UART. */
void board_init(void);
/* Write one character to the console UART (blocking, no CR/LF translation). */
void board_putc(char c);
/* Write a NUL-terminated string to the console UART. */
void board_puts(const char *s);
/* Write v in decimal to the console UART. */
void board_put_u32(uint32_t v);
/* Cortex-M: pend external interrupt n through the NVIC (enabling it is the
 * caller's). */
void board_pend_irq(unsigned n);
/* Enable the software interrupt: Cortex-M, BOARD_SWI_IRQ in the NVIC;
 * RISC-V, the machine software interrupt (mie.MSIE) and mstatus.MIE. */
void board_swi_enable(void);
/* Make the software interrupt pending. Enabled and unmasked, its handler
 * has run when this returns (Cortex-M: DSB, ISB; RISC-V: CLINT msip, then
 * waits while mip.MSIP is set). */
void board_swi_trigger(void);
/* Defined by the firmware: called by the board from the software interrupt
 * (RISC-V: msip already cleared). The board's weak default ends the run
 * with board_exit(99). */
void board_swi_handler(void);
/* A free-running 32-bit up-count at BOARD_TIMER_HZ that wraps at 2^32 (for
 * mcuprof_sampler_set_clock()); the first call starts it. */
uint32_t board_clock_now(void);
/* Ask the debugger or QEMU to end the run with this exit code (semihosting);
 * without one, print "exit <code>", then end QEMU where the machine can
 * (RISC-V virt: its test device) or sleep forever. */
void board_exit(int code) __attribute__((noreturn));

#endif

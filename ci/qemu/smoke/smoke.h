/*
 * smoke.h - what smoke.c (the checks every board shares) asks of the
 * architecture's part, smoke_cortex-m.c or smoke_riscv.c.
 */
#ifndef MCUPROF_SMOKE_H
#define MCUPROF_SMOKE_H

#include <stdint.h>

/* Print "ok   what" or "FAIL what"; a failure makes the run exit 1. */
void smoke_check(int ok, const char *what);

/* Run exactly 2 * loops instructions; return the timer counts they took. */
uint32_t smoke_timer_counts(uint32_t loops);
/* Take timer interrupts at tick_hz until `wanted` arrived; check them. */
void smoke_timer_interrupts(uint32_t tick_hz, uint32_t wanted);
/* Is the software interrupt pending (before anyone pended it)? */
int smoke_swi_pending(void);
/* Further software interrupt checks of the architecture, after one
 * board_swi_trigger(); `count` counts board_swi_handler() calls. */
void smoke_swi_more(volatile uint32_t *count);
/* If a semihosting call trapped (no debugger), print how and return 1. */
int smoke_semihost_trapped(void);

#endif

/*
 * app.h - what the profiled application (main.c) asks of the code built
 * without -pg: the board (cortex-m3/board.c, riscv32/board.c) and the
 * kernel's hooks (kernel_hooks.c).
 */
#ifndef APP_H
#define APP_H

#include <stdint.h>

#include "FreeRTOS.h"
#include "task.h"

/* mcuprof_init(), the sampler at SAMPLE_HZ, the task table on the kernel's
 * running task with handles in [low, high). Then the caller starts
 * recording with mcuprof_start(), so that its paths start at it. */
#define SAMPLE_HZ 10000u
void app_profile_setup(uintptr_t low, uintptr_t high);

/* The peripheral interrupt: from now on it wakes TASK (a notification,
 * from the interrupt) about every INTERRUPT_TICKS ticks; stop: no more. */
#define INTERRUPT_TICKS 1u
void board_interrupt_start(TaskHandle_t task);
void board_interrupt_stop(void);

/* Cortex-M3: a free-running count at the SysTick rate, for the sampler
 * to count the periods it missed (QEMU's M3 has no cycle counter). */
uint32_t board_clock(void);

/* The end of the run: QEMU exits with CODE (semihosting). */
void board_exit(int code) __attribute__((noreturn));

/* Where the idle task lives (vApplicationGetIdleTaskMemory). */
extern StaticTask_t *app_idle_tcb;
extern StackType_t *app_idle_stack;
#define APP_STACK_WORDS 512u

#endif

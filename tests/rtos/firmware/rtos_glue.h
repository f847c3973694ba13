/*
 * rtos_glue.h - what the FreeRTOS test firmware shares (rtos_glue.c and
 * the port_*.c files, none of them profiled): the wiring of mcuprof's task
 * table to FreeRTOS, the sampler, and the firmware's own truth (each
 * task's and each context's run time by the board's clock), printed as
 * the EXPECT-TASK and EXPECT-CONTEXT lines tests/rtos/check_rtos.sh
 * compares `mcuprof info` with.
 */
#ifndef RTOS_GLUE_H
#define RTOS_GLUE_H

#include <stdint.h>

#include "FreeRTOS.h"
#include "task.h"

/* The sampler's mean rate: the runtime's default, as a user starts. */
#define RTOS_SAMPLE_HZ 10000u

/* Where the idle task lives (vApplicationGetIdleTaskMemory): set by the
 * firmware before vTaskStartScheduler(), so that it can place the idle
 * TCB inside or outside the handle range it declares to mcuprof. */
struct rtos_idle_memory {
    StaticTask_t *tcb;
    StackType_t *stack;
    uint32_t words;
};
extern struct rtos_idle_memory rtos_idle;

/* mcuprof_init(), the sampler at RTOS_SAMPLE_HZ (Cortex-M: SysTick, with
 * the board's clock to count missed periods; RISC-V: the machine timer),
 * the task table on FreeRTOS's pxCurrentTCB with handles in [low, high),
 * then mcuprof_start() and the truth's clock, together. */
void rtos_profile_start(uintptr_t low, uintptr_t high);
/* mcuprof_stop() and the truth's clock together, the sampler off, the
 * image written through semihosting. */
void rtos_profile_finish(void);

/* The tick and the sampler share nothing but the core: the port files say
 * how (port_cortex_m.c, port_riscv.c). Time spent in the tick's interrupt
 * handler and in PendSV (Cortex-M), by the board's clock, since reset. */
extern volatile uint32_t rtos_tick_isr_time, rtos_pendsv_time;
/* Cortex-M: time spent in the firmware's own interrupt handler (IRQ 10),
 * by the board's clock, since reset; 0 when it has none. */
extern volatile uint32_t rtos_app_isr_time;
/* Set when that handler is built with -pg: its hook runs before the
 * handler can read the clock, so the truth gives the thread and IRQ 10
 * together ("thread + IRQ 10"). */
extern uint32_t rtos_app_isr_untimed;
/* RISC-V: when rtos_swi_on is set, the tick raises the machine software
 * interrupt every RTOS_SWI_TICKS ticks, and the port's interrupt handler
 * calls rtos_swi() (msip cleared) as it would a peripheral's handler, on
 * its ISR stack. The firmware that sets it defines rtos_swi(); the glue's
 * default is weak. */
#define RTOS_SWI_TICKS 3u
extern volatile uint32_t rtos_swi_on;
void rtos_swi(void);

/* One entry of the truth: a task as the kernel created it (uxTCBNumber),
 * or, number 0, the time before any task existed. */
struct rtos_truth_task {
    uint32_t number;
    uint32_t deleted;
    const void *tcb;
    uint64_t time; /* board clock ticks it was pxCurrentTCB */
    char name[configMAX_TASK_NAME_LEN + 1]; /* NUL terminated */
};
uint32_t rtos_truth_tasks(const struct rtos_truth_task **tasks);
/* The whole window, and the part spent waiting in the idle hook's WFI
 * (interrupt handlers that ran meanwhile excluded), in board clock ticks. */
uint64_t rtos_truth_total(void);
uint64_t rtos_truth_idle(void);
uint64_t rtos_truth_tick_isr(void);
uint64_t rtos_truth_pendsv(void);
uint64_t rtos_truth_app_isr(void);
/* The entry of the task named NAME, or 0. */
const struct rtos_truth_task *rtos_truth_find(const char *name);

/* xTaskCreateStatic() with WORDS of stack, or the run ends with FAIL. */
TaskHandle_t rtos_create(TaskFunction_t fn, const char *name, UBaseType_t prio, StackType_t *stack,
                         uint32_t words, StaticTask_t *tcb, void *arg);

/* "EXPECT-TASK <hundredths> <handle> <deleted> <label>": the share of
 * the window that LABEL (a task name, or (no-task), (lost), (invalid)) ran,
 * in hundredths of a percent; handle in hex, or - for the others. */
void rtos_expect_task(const char *label, uint64_t time, const void *handle, uint32_t deleted);
/* The EXPECT-TASK line of the task named NAME, which must have run. */
void rtos_expect_named_task(const char *name);
/* "EXPECT-CONTEXT <hundredths> <label>", LABEL as `mcuprof info` names it. */
void rtos_expect_context(const char *label, uint64_t time);
/* The EXPECT-CONTEXT lines of every context the truth times: thread,
 * idle, and on Cortex-M the tick's interrupt (IRQ 9), PendSV and the
 * firmware's own interrupt (IRQ 10) if it ran. */
void rtos_expect_contexts(void);
/* "EXPECT arc CALLER CALLEE COUNT" and "EXPECT calls FUNC COUNT". */
void rtos_expect_arc(const char *caller, const char *callee, uint32_t count);
void rtos_expect_calls(const char *func, uint32_t count);
/* "FAIL <what>" and the end of the run with exit code 1. */
void rtos_fail(const char *what) __attribute__((noreturn));

#endif

/*
 * rtos_limits.c - the task table's bad input under the real FreeRTOS
 * kernel, with a runtime built for 4 task entries:
 *   - samples before the first task exists (pxCurrentTCB NULL) are "no
 *     task", an entry like any other;
 *   - the idle task's TCB lies outside the handle range this firmware
 *     declares (deliberately narrow: the workers' TCBs only), so its
 *     samples are counted invalid, and its name is never read;
 *   - W1, W2 and W3 fill the table with "no task"; W4's samples find it
 *     full and are counted lost.
 * Each, and each worker, against the truth by the board's clock.
 */
#include "rtos_glue.h"

#include "board.h"
#include "mcuprof.h"
#include "spin.h"

#define STEP_LOOPS 25000u /* 50,000 instructions, 1.6 ms at 31.25 MIPS */
#define PRE_STEPS 50u
#define W1_STEPS 200u
#define W2_STEPS 160u
#define W3_STEPS 120u
#define W4_STEPS 160u
#define IDLE_TICKS 150u /* W4 sleeps: 150 ms of idle, ~12,800 samples in all */
#define STACK_WORDS 512u

enum { TCB_W1, TCB_W2, TCB_W3, TCB_W4, TCB_IDLE, TCB_COUNT };
static StaticTask_t tcbs[TCB_COUNT];
static StackType_t stacks[TCB_COUNT][STACK_WORDS] __attribute__((aligned(16)));

__attribute__((noinline)) void w_step(void)
{
    uint32_t n = STEP_LOOPS;
    SPIN_LOOP(n);
}

__attribute__((noinline)) void pre_step(void)
{
    uint32_t n = STEP_LOOPS;
    SPIN_LOOP(n);
}

/* W1..W3 run to the end of their steps, highest priority first, then
 * leave the core to the next. */
void worker(void *steps)
{
    for (uint32_t i = 0; i < (uint32_t)(uintptr_t)steps; i++)
        w_step();
    vTaskSuspend(NULL);
}

static void expect_task(const char *name)
{
    const struct rtos_truth_task *t = rtos_truth_find(name);
    if (!t)
        rtos_fail("a task never ran");
    rtos_expect_task(name, t->time, t->tcb, t->deleted);
}

/* W4, the last to run: its samples are the lost ones; it sleeps so that
 * the idle task runs (invalid), then reports. */
void last_worker(void *arg)
{
    (void)arg;
    for (uint32_t i = 0; i < W4_STEPS; i++)
        w_step();
    vTaskDelay(IDLE_TICKS);
    rtos_profile_finish();

    const struct rtos_truth_task *t;
    (void)rtos_truth_tasks(&t);
    rtos_expect_task("(no-task)", t[0].time, 0, 0);
    expect_task("W1");
    expect_task("W2");
    expect_task("W3");
    const struct rtos_truth_task *w4 = rtos_truth_find("W4"), *idle = rtos_truth_find("IDLE");
    if (!w4 || !idle)
        rtos_fail("W4 or IDLE never ran");
    rtos_expect_task("(lost)", w4->time, 0, 0);
    rtos_expect_task("(invalid)", idle->time, 0, 0);
    rtos_expect_contexts();
    rtos_expect_arc("main", "pre_step", PRE_STEPS);
    rtos_expect_arc("worker", "w_step", W1_STEPS + W2_STEPS + W3_STEPS);
    rtos_expect_arc("last_worker", "w_step", W4_STEPS);
    board_exit(0);
}

/* mcuprof_tasks_watch() refuses what it cannot watch, and starts nothing. */
static void check_watch_errors(void)
{
    static void *volatile current;
    if (mcuprof_tasks_watch(0, 0, 0, 0) != MCUPROF_ERR_ARGUMENT)
        rtos_fail("mcuprof_tasks_watch accepted a NULL pointer");
    if (mcuprof_tasks_watch((void *const volatile *)((uintptr_t)&current + 1u), 0, 0, 0) != MCUPROF_ERR_ARGUMENT)
        rtos_fail("mcuprof_tasks_watch accepted a misaligned pointer");
    if (mcuprof_tasks_watch(&current, 0, 0x2000u, 0x1000u) != MCUPROF_ERR_ARGUMENT)
        rtos_fail("mcuprof_tasks_watch accepted an empty range");
}

int main(void)
{
    check_watch_errors();
    /* Handles in W1..W4's TCBs only: the idle task's is outside. */
    rtos_profile_start((uintptr_t)&tcbs[TCB_W1], (uintptr_t)&tcbs[TCB_W4 + 1]);
    for (uint32_t i = 0; i < PRE_STEPS; i++)
        pre_step();

    rtos_idle.tcb = &tcbs[TCB_IDLE];
    rtos_idle.stack = stacks[TCB_IDLE];
    rtos_idle.words = STACK_WORDS;
    static const struct {
        const char *name;
        uint32_t steps;
    } w[3] = {{"W1", W1_STEPS}, {"W2", W2_STEPS}, {"W3", W3_STEPS}};
    for (unsigned i = 0; i < 3u; i++)
        if (!xTaskCreateStatic(worker, w[i].name, STACK_WORDS, (void *)(uintptr_t)w[i].steps, 4u - i, stacks[i],
                               &tcbs[i]))
            rtos_fail("xTaskCreateStatic");
    if (!xTaskCreateStatic(last_worker, "W4", STACK_WORDS, 0, 1, stacks[TCB_W4], &tcbs[TCB_W4]))
        rtos_fail("xTaskCreateStatic");
    vTaskStartScheduler();
    rtos_fail("vTaskStartScheduler returned");
}

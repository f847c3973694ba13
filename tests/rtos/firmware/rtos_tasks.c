/*
 * rtos_tasks.c - per-task attribution under the real FreeRTOS kernel.
 *
 *   main (no task yet)  pre_step x PRE_STEPS
 *   ctrl  (priority 4)  creates T1, waits for it, deletes it; creates T2 in
 *                       the same TCB and stack (the same handle), waits,
 *                       deletes it; creates A, B, C and waits for all three
 *   T1, T2 (3)          t_step x T1_STEPS, T2_STEPS
 *   A, B  (1)           a_step x A_STEPS, b_step x B_STEPS: equal priority,
 *                       busy, so the tick slices between them
 *   C     (2)           c_step x C_STEPS, each followed by vTaskDelay(): it
 *                       preempts A and B from the tick and blocks (a yield)
 *   IDLE  (0)           waits for an interrupt in the idle hook (on the
 *                       Cortex-M board it polls: see rtos_glue.c)
 *
 * Every step calls shared_leaf, so the arcs into it are counted from every
 * task across thousands of switches; the counts are printed as EXPECT
 * lines and must come out exact. Each task's share of the time, by the
 * board's clock (the kernel's switch hooks, rtos_glue.c), is printed as
 * EXPECT-TASK lines, each context's as EXPECT-CONTEXT lines, for
 * tests/rtos/check_rtos.sh to compare with `mcuprof info`. 8 tasks are
 * seen (no task, ctrl, T1, T2, A, B, C, IDLE): the runtime is built with
 * exactly 8 entries, and nothing may be lost.
 */
#include "rtos_glue.h"

#include "board.h"
#include "mcuprof.h"
#include "spin.h"

/* 25,000 iterations = 50,000 instructions = 1.6 ms at 31.25 MIPS (both
 * boards run -icount shift=5). About 2.1 s in all: 21,000 samples. */
#define STEP_LOOPS 25000u
#define LEAF_LOOPS 1000u
#define C_LOOPS 10000u
#define PRE_STEPS 40u
#define T1_STEPS 40u
#define T2_STEPS 60u
#define A_STEPS 500u
#define B_STEPS 300u
#define C_STEPS 500u
#define C_DELAY_TICKS 4u
#define STACK_WORDS 512u

/* Every TCB in one array: the range of valid handles mcuprof is given. */
enum { TCB_CTRL, TCB_T, TCB_A, TCB_B, TCB_C, TCB_IDLE, TCB_COUNT };
static StaticTask_t tcbs[TCB_COUNT];
static StackType_t stacks[TCB_COUNT][STACK_WORDS] __attribute__((aligned(16)));
static TaskHandle_t ctrl;

__attribute__((noinline)) void shared_leaf(void)
{
    uint32_t n = LEAF_LOOPS;
    SPIN_LOOP(n);
}

__attribute__((noinline)) void pre_step(void)
{
    uint32_t n = STEP_LOOPS;
    SPIN_LOOP(n);
    shared_leaf();
}

__attribute__((noinline)) void t_step(void)
{
    uint32_t n = STEP_LOOPS;
    SPIN_LOOP(n);
    shared_leaf();
}

__attribute__((noinline)) void a_step(void)
{
    uint32_t n = STEP_LOOPS;
    SPIN_LOOP(n);
    shared_leaf();
}

__attribute__((noinline)) void b_step(void)
{
    uint32_t n = STEP_LOOPS;
    SPIN_LOOP(n);
    shared_leaf();
    shared_leaf();
}

__attribute__((noinline)) void c_step(void)
{
    uint32_t n = C_LOOPS;
    SPIN_LOOP(n);
    shared_leaf();
}

/* Tell ctrl, then never run again (ctrl deletes T1 and T2). */
__attribute__((noinline)) static void finished(void)
{
    xTaskNotifyGive(ctrl);
    vTaskSuspend(NULL);
}

void task_t(void *steps)
{
    for (uint32_t i = 0; i < (uint32_t)(uintptr_t)steps; i++)
        t_step();
    finished();
}

void task_a(void *arg)
{
    (void)arg;
    for (uint32_t i = 0; i < A_STEPS; i++)
        a_step();
    finished();
}

void task_b(void *arg)
{
    (void)arg;
    for (uint32_t i = 0; i < B_STEPS; i++)
        b_step();
    finished();
}

void task_c(void *arg)
{
    (void)arg;
    for (uint32_t i = 0; i < C_STEPS; i++) {
        c_step();
        vTaskDelay(C_DELAY_TICKS);
    }
    finished();
}

static TaskHandle_t create(TaskFunction_t fn, const char *name, UBaseType_t prio, unsigned slot, void *arg)
{
    TaskHandle_t h = xTaskCreateStatic(fn, name, STACK_WORDS, arg, prio, stacks[slot], &tcbs[slot]);
    if (!h)
        rtos_fail("xTaskCreateStatic");
    return h;
}

static void expect_task(const char *name)
{
    const struct rtos_truth_task *t = rtos_truth_find(name);
    if (!t)
        rtos_fail("a task never ran");
    rtos_expect_task(name, t->time, t->tcb, t->deleted);
}

static void report(void)
{
    const struct rtos_truth_task *t;
    uint32_t n = rtos_truth_tasks(&t);

    /* "no task" is entry 0 of the truth, before ctrl was created */
    rtos_expect_task("(no-task)", t[0].time, 0, 0);
    static const char *const names[] = {"ctrl", "T1", "T2", "A", "B", "C", "IDLE"};
    for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        expect_task(names[i]);
    if (n != 1u + sizeof(names) / sizeof(names[0]))
        rtos_fail("an unexpected task ran");
    rtos_expect_task("(lost)", 0, 0, 0);
    rtos_expect_task("(invalid)", 0, 0, 0);

    rtos_expect_contexts();

    rtos_expect_arc("main", "pre_step", PRE_STEPS);
    rtos_expect_arc("task_t", "t_step", T1_STEPS + T2_STEPS);
    rtos_expect_arc("task_a", "a_step", A_STEPS);
    rtos_expect_arc("task_b", "b_step", B_STEPS);
    rtos_expect_arc("task_c", "c_step", C_STEPS);
    rtos_expect_arc("pre_step", "shared_leaf", PRE_STEPS);
    rtos_expect_arc("t_step", "shared_leaf", T1_STEPS + T2_STEPS);
    rtos_expect_arc("a_step", "shared_leaf", A_STEPS);
    rtos_expect_arc("b_step", "shared_leaf", 2u * B_STEPS);
    rtos_expect_arc("c_step", "shared_leaf", C_STEPS);
    rtos_expect_calls("shared_leaf", PRE_STEPS + T1_STEPS + T2_STEPS + A_STEPS + 2u * B_STEPS + C_STEPS);
    rtos_expect_calls("finished", 5u);
    board_puts("EXPECT-INFO lost_calls_reentrant 0\n");
    board_puts("EXPECT-INFO lost_arcs_table_full 0\n");
}

void control(void *arg)
{
    (void)arg;
    /* A task that runs and is deleted, then another one in the same TCB
     * and stack: the same handle, a new entry of its own. */
    TaskHandle_t t1 = create(task_t, "T1", 3, TCB_T, (void *)(uintptr_t)T1_STEPS);
    (void)ulTaskNotifyTake(pdTRUE, portMAX_DELAY);
    vTaskDelete(t1);
    TaskHandle_t t2 = create(task_t, "T2", 3, TCB_T, (void *)(uintptr_t)T2_STEPS);
    if (t2 != t1)
        rtos_fail("T2 does not reuse T1's TCB");
    (void)ulTaskNotifyTake(pdTRUE, portMAX_DELAY);
    vTaskDelete(t2);

    (void)create(task_a, "A", 1, TCB_A, 0);
    (void)create(task_b, "B", 1, TCB_B, 0);
    (void)create(task_c, "C", 2, TCB_C, 0);
    for (unsigned i = 0; i < 3u; i++)
        (void)ulTaskNotifyTake(pdFALSE, portMAX_DELAY);

    rtos_profile_finish();
    report();
    board_exit(0);
}

int main(void)
{
    rtos_profile_start((uintptr_t)&tcbs[0], (uintptr_t)&tcbs[TCB_COUNT]);
    for (uint32_t i = 0; i < PRE_STEPS; i++)
        pre_step();

    rtos_idle.tcb = &tcbs[TCB_IDLE];
    rtos_idle.stack = stacks[TCB_IDLE];
    rtos_idle.words = STACK_WORDS;
    ctrl = create(control, "ctrl", 4, TCB_CTRL, 0);
    vTaskStartScheduler();
    rtos_fail("vTaskStartScheduler returned");
}

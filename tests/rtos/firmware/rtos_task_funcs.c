/*
 * rtos_task_funcs.c - each task's time by function under the real
 * FreeRTOS kernel, for the per-task profile (`mcuprof report --task`,
 * the pprof labels, folded stacks rooted at the task), with call paths
 * keyed by task and each task's shadow stack kept across switches
 * (PATHS, PATH_TASKS).
 *
 *   ctrl (priority 4)  creates P, Q and R, waits for all three
 *   P, Q (1)           both run worker() -> worker_steps(): the same
 *                      functions, the same call paths, told apart only
 *                      by the task. Equal priority and busy, so the tick
 *                      slices between them in the middle of any
 *                      function. Each step calls heavy() and
 *                      shared_work(), leaves without a frame, in opposite
 *                      proportions (P: mostly heavy, Q: mostly
 *                      shared_work)
 *   R (2)              task_r() -> r_steps(): r_work() then
 *                      vTaskDelay(), preempting P and Q
 *   IDLE (0)           at the end
 *
 * The truth by function is measured with the running task's own clock
 * (rtos_truth_task_clock(): the time the task was current, by the
 * board's clock, its interrupts included, as the per-task truth counts
 * it), read around each call; what a task ran outside its measured calls
 * is the self time of the function that loops over them. Printed as
 *   EXPECT-TASKFN <hundredths> <task> <function>
 * the function's share of the task's own time, which
 * tests/rtos/check_task_funcs.sh compares with the self column of
 * `mcuprof report --task <task>`; the task and context tables are checked
 * as for rtos_tasks.c (EXPECT-TASK, EXPECT-CONTEXT).
 */
#include "rtos_glue.h"

#include "board.h"
#include "mcuprof.h"
#include "spin.h"

/* About 2 s in all at 31.25 MIPS (-icount shift=5): 20,000 samples, P
 * and Q each about 8,000. */
#define P_HEAVY 12000u
#define P_SHARED 3000u
#define Q_HEAVY 3000u
#define Q_SHARED 12000u
#define WORKER_STEPS 600u
#define R_LOOPS 20000u
#define R_STEPS 120u
#define R_DELAY_TICKS 5u
#define IDLE_TICKS 3u
#define STACK_WORDS 512u

enum { TCB_CTRL, TCB_P, TCB_Q, TCB_R, TCB_IDLE, TCB_COUNT };
static StaticTask_t tcbs[TCB_COUNT];
static StackType_t stacks[TCB_COUNT][STACK_WORDS] __attribute__((aligned(16)));
static TaskHandle_t ctrl;

/* The truth by task and function, in board clock ticks of the task's own
 * clock. */
enum { FN_HEAVY, FN_SHARED, FN_R_WORK, FN_COUNT };
struct worker_arg {
    const char *name;
    uint32_t heavy, shared;
    uint64_t time[FN_COUNT];
};
static struct worker_arg p_arg = {"P", P_HEAVY, P_SHARED, {0}};
static struct worker_arg q_arg = {"Q", Q_HEAVY, Q_SHARED, {0}};
static struct worker_arg r_arg = {"R", 0, 0, {0}};

/* A leaf without a frame of its own, called by P and Q from the same
 * call site in worker(): only the task tells their samples apart. */
__attribute__((noinline)) void shared_work(uint32_t n)
{
    SPIN_LOOP(n);
}

__attribute__((noinline)) void heavy(uint32_t n)
{
    SPIN_LOOP(n);
}

__attribute__((noinline)) void r_work(void)
{
    uint32_t n = R_LOOPS;
    SPIN_LOOP(n);
}

/* Tell ctrl, then never run again. */
__attribute__((noinline)) static void finished(void)
{
    xTaskNotifyGive(ctrl);
    vTaskSuspend(NULL);
}

/* The steps, in a function of their own under the task function, so that
 * P's and Q's paths are the same three frames deep: worker, worker_steps,
 * then heavy or shared_work. */
__attribute__((noinline)) void worker_steps(struct worker_arg *w)
{
    for (uint32_t i = 0; i < WORKER_STEPS; i++) {
        uint64_t t0 = rtos_truth_task_clock();
        heavy(w->heavy);
        uint64_t t1 = rtos_truth_task_clock();
        shared_work(w->shared);
        uint64_t t2 = rtos_truth_task_clock();
        w->time[FN_HEAVY] += t1 - t0;
        w->time[FN_SHARED] += t2 - t1;
    }
}

void worker(void *arg)
{
    worker_steps(arg);
    finished();
}

__attribute__((noinline)) void r_steps(struct worker_arg *w)
{
    for (uint32_t i = 0; i < R_STEPS; i++) {
        uint64_t t0 = rtos_truth_task_clock();
        r_work();
        w->time[FN_R_WORK] += rtos_truth_task_clock() - t0;
        vTaskDelay(R_DELAY_TICKS);
    }
}

void task_r(void *arg)
{
    r_steps(arg);
    finished();
}

static void create(TaskFunction_t fn, const char *name, UBaseType_t prio, unsigned slot, void *arg)
{
    if (!xTaskCreateStatic(fn, name, STACK_WORDS, arg, prio, stacks[slot], &tcbs[slot]))
        rtos_fail("xTaskCreateStatic");
}

/* "EXPECT-TASKFN <hundredths> <task> <function>": TIME's share of the
 * task's own time. */
static void expect_fn(const char *task, const char *fn, uint64_t time, uint64_t whole)
{
    uint32_t h = whole ? (uint32_t)((time * 10000u + whole / 2u) / whole) : 0u;
    board_puts("EXPECT-TASKFN ");
    board_put_u32(h);
    board_putc(' ');
    board_puts(task);
    board_putc(' ');
    board_puts(fn);
    board_putc('\n');
}

static uint64_t expect_task(const char *name)
{
    const struct rtos_truth_task *t = rtos_truth_find(name);
    if (!t)
        rtos_fail("a task never ran");
    rtos_expect_task(name, t->time, t->tcb, t->deleted);
    return t->time;
}

static void report(void)
{
    const struct rtos_truth_task *t;
    uint32_t n = rtos_truth_tasks(&t);

    rtos_expect_task("(no-task)", t[0].time, 0, 0);
    (void)expect_task("ctrl");
    (void)expect_task("IDLE");
    uint64_t p = expect_task("P"), q = expect_task("Q"), r = expect_task("R");
    if (n != 6u)
        rtos_fail("an unexpected task ran");
    rtos_expect_task("(lost)", 0, 0, 0);
    rtos_expect_task("(invalid)", 0, 0, 0);
    rtos_expect_contexts();

    const struct worker_arg *w[2] = {&p_arg, &q_arg};
    const uint64_t whole[2] = {p, q};
    for (unsigned i = 0; i < 2u; i++) {
        expect_fn(w[i]->name, "heavy", w[i]->time[FN_HEAVY], whole[i]);
        expect_fn(w[i]->name, "shared_work", w[i]->time[FN_SHARED], whole[i]);
        expect_fn(w[i]->name, "worker_steps", whole[i] - w[i]->time[FN_HEAVY] - w[i]->time[FN_SHARED], whole[i]);
        expect_fn(w[i]->name, "r_work", 0, whole[i]);
    }
    expect_fn("R", "r_work", r_arg.time[FN_R_WORK], r);
    expect_fn("R", "r_steps", r - r_arg.time[FN_R_WORK], r);
    expect_fn("R", "shared_work", 0, r);

    rtos_expect_arc("worker", "worker_steps", 2u);
    rtos_expect_arc("worker_steps", "heavy", 2u * WORKER_STEPS);
    rtos_expect_arc("worker_steps", "shared_work", 2u * WORKER_STEPS);
    rtos_expect_arc("task_r", "r_steps", 1u);
    rtos_expect_arc("r_steps", "r_work", R_STEPS);
    rtos_expect_calls("finished", 3u);
    board_puts("EXPECT-INFO lost_calls_reentrant 0\n");
    board_puts("EXPECT-INFO lost_arcs_table_full 0\n");
}

void control(void *arg)
{
    (void)arg;
    create(worker, "P", 1, TCB_P, &p_arg);
    create(worker, "Q", 1, TCB_Q, &q_arg);
    create(task_r, "R", 2, TCB_R, &r_arg);
    for (unsigned i = 0; i < 3u; i++)
        (void)ulTaskNotifyTake(pdFALSE, portMAX_DELAY);
    vTaskDelay(IDLE_TICKS);

    rtos_profile_finish();
    report();
    board_exit(0);
}

int main(void)
{
    rtos_profile_start((uintptr_t)&tcbs[0], (uintptr_t)&tcbs[TCB_COUNT]);
    rtos_idle.tcb = &tcbs[TCB_IDLE];
    rtos_idle.stack = stacks[TCB_IDLE];
    rtos_idle.words = STACK_WORDS;
    ctrl = xTaskCreateStatic(control, "ctrl", STACK_WORDS, 0, 4, stacks[TCB_CTRL], &tcbs[TCB_CTRL]);
    if (!ctrl)
        rtos_fail("xTaskCreateStatic");
    vTaskStartScheduler();
    rtos_fail("vTaskStartScheduler returned");
}

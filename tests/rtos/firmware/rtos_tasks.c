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
 *                       Cortex-M board it polls: see rtos_glue.c); ctrl
 *                       also sleeps IDLE_TICKS at the end
 *
 * Every step calls shared_leaf, so the arcs into it are counted from every
 * task across thousands of switches; the counts are printed as EXPECT
 * lines and must come out exact. Each task's share of the time, by the
 * board's clock (the kernel's switch hooks, rtos_glue.c), is printed as
 * EXPECT-TASK lines, each context's as EXPECT-CONTEXT lines, for
 * tests/rtos/check_rtos.sh to compare with `mcuprof info`. 8 tasks are
 * seen (no task, ctrl, T1, T2, A, B, C, IDLE): the runtime is built with
 * exactly 8 entries, and nothing may be lost.
 *
 * Built again with call paths (rtos_paths.elf, RTOS_CHECK_PATHS), the
 * firmware also checks its own path table (check_paths()): every path is
 * a piece of one real call chain (but for the known limit of a returned
 * leaf without a frame, at most 0.1 %), never frames of two tasks, and starts
 * at its thread's start unless flagged cut; paths of the tasks are
 * flagged cut at a task switch, main's from before the scheduler are
 * not; each task's share of the path samples is never above its share of
 * the time by the board's clock. rtos_paths_kept.elf (RTOS_PATHS_KEPT)
 * keeps each task's stack across switches (PATH_TASKS): the paths of the
 * tasks ctrl creates are whole, and every share matches.
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
#define IDLE_TICKS 3u
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
    return rtos_create(fn, name, prio, stacks[slot], STACK_WORDS, &tcbs[slot], arg);
}

#ifdef RTOS_CHECK_PATHS
/* The profiled functions a frame may lie in, and the real calls between
 * them (outer, inner): everything else in a path is wrong. */
enum fn { F_NONE, F_ROOT, F_PRE, F_LEAF, F_TASK_T, F_T, F_TASK_A, F_A, F_TASK_B, F_B, F_TASK_C, F_C,
          F_FINISHED, F_CONTROL, F_CREATE, F_COUNT };
static TaskHandle_t create(TaskFunction_t fn, const char *name, UBaseType_t prio, unsigned slot, void *arg);
void control(void *arg);
int main(void);
#define PC_FUNCTIONS (const void *)pre_step, (const void *)shared_leaf, (const void *)task_t, (const void *)t_step, \
    (const void *)task_a, (const void *)a_step, (const void *)task_b, (const void *)b_step, (const void *)task_c, \
    (const void *)c_step, (const void *)finished, (const void *)control, (const void *)create, (const void *)main
#include "paths_common.h"

static enum fn fn_of(uintptr_t a)
{
    static const struct {
        const void *addr;
        enum fn fn;
    } fns[] = {
        {(const void *)pre_step, F_PRE},     {(const void *)shared_leaf, F_LEAF},
        {(const void *)task_t, F_TASK_T},    {(const void *)t_step, F_T},
        {(const void *)task_a, F_TASK_A},    {(const void *)a_step, F_A},
        {(const void *)task_b, F_TASK_B},    {(const void *)b_step, F_B},
        {(const void *)task_c, F_TASK_C},    {(const void *)c_step, F_C},
        {(const void *)finished, F_FINISHED}, {(const void *)control, F_CONTROL},
        {(const void *)create, F_CREATE},
    };
    for (unsigned i = 0; i < sizeof fns / sizeof fns[0]; i++)
        if (pc_is(a, fns[i].addr))
            return fns[i].fn;
    /* the root: mcuprof_start()'s return address, in rtos_profile_start()
     * (called from main), or main itself once that frame is dropped */
    if (pc_is_main(a, (const void *)main) || pc_is_main(a, (const void *)rtos_profile_start))
        return F_ROOT;
    return F_NONE;
}

static int call_is_real(enum fn outer, enum fn inner)
{
    static const unsigned char calls[][2] = {
        {F_ROOT, F_PRE},     {F_ROOT, F_CREATE},     {F_PRE, F_LEAF},      {F_CONTROL, F_CREATE},
        {F_TASK_T, F_T},     {F_T, F_LEAF},          {F_TASK_T, F_FINISHED},
        {F_TASK_A, F_A},     {F_A, F_LEAF},          {F_TASK_A, F_FINISHED},
        {F_TASK_B, F_B},     {F_B, F_LEAF},          {F_TASK_B, F_FINISHED},
        {F_TASK_C, F_C},     {F_C, F_LEAF},          {F_TASK_C, F_FINISHED},
    };
    for (unsigned i = 0; i < sizeof calls / sizeof calls[0]; i++)
        if (calls[i][0] == outer && calls[i][1] == inner)
            return 1;
    return 0;
}

/* The task a function runs in, for the time shares: 0 for main, shared
 * functions and ctrl. */
enum group { G_NONE, G_T, G_A, G_B, G_C, G_COUNT };
static enum group group_of(enum fn f)
{
    switch (f) {
    case F_TASK_T: case F_T: return G_T;
    case F_TASK_A: case F_A: return G_A;
    case F_TASK_B: case F_B: return G_B;
    case F_TASK_C: case F_C: return G_C;
    default: return G_NONE;
    }
}

static void check_paths(void)
{
    const struct mcuprof_ext *e = pc_table();
    /* every sample in a path or counted lost */
    uint64_t total = pc_check_accounted(e), in_group[G_COUNT] = {0};
    uint32_t cut = 0, whole = 0, stale_leaf = 0;
    for (uint32_t i = 0; i < e->used; i++) {
        const struct mcuprof_path *p = pc_path(e, i);
        if (p->flags & MCUPROF_PATH_TRUNCATED)
            rtos_fail("a truncated path: the shadow stack is deep enough for every chain");
        enum group g = G_NONE;
        int in_task = 0, in_ctrl = 0, before_scheduler = 0;
        for (uint32_t k = 0; k < p->depth; k++) {
            enum fn f = fn_of(pc_frame(p, k));
            if (f == F_NONE)
                rtos_fail("a path frame lies in no profiled function");
            if (k > 0 && !call_is_real(fn_of(pc_frame(p, k - 1u)), f)) {
                /* The known limit (docs/paths.md): a leaf without a frame
                 * of its own, whose caller was not known (a cut path),
                 * that returned and stayed under a later call. Rare:
                 * counted, and bounded below. */
                if (!(p->flags & MCUPROF_PATH_CUT) || fn_of(pc_frame(p, k - 1u)) != F_LEAF)
                    rtos_fail("a path holds a call that never happens (frames of two tasks?)");
                stale_leaf += p->samples;
            }
            if (k == 0 && f == F_ROOT && (p->flags & MCUPROF_PATH_CUT))
                rtos_fail("a cut path starts at the root");
            enum group fg = group_of(f);
            if (fg != G_NONE) {
                if (g != G_NONE && g != fg)
                    rtos_fail("a path holds frames of two tasks");
                g = fg;
            }
            in_task |= fg != G_NONE || f == F_FINISHED;
            in_ctrl |= f == F_CONTROL;
            before_scheduler |= f == F_PRE;
        }
        /* A whole path starts where its thread starts: at the root, or at
         * a task function, which the kernel calls. */
        enum fn outer = p->depth ? fn_of(pc_frame(p, 0)) : F_NONE;
        if (p->depth && !(p->flags & MCUPROF_PATH_CUT) && outer != F_ROOT && outer != F_TASK_T &&
            outer != F_TASK_A && outer != F_TASK_B && outer != F_TASK_C && outer != F_CONTROL)
            rtos_fail("a path not flagged cut lacks its outer frames");
#ifdef RTOS_PATHS_KEPT
        /* Each task's stack is kept across switches; the tasks ctrl creates
         * are announced (traceTASK_CREATE) before they run: whole. ctrl,
         * current from its creation in main on, is not. */
        if (in_task && (p->flags & MCUPROF_PATH_CUT))
            rtos_fail("a path of a task created while the scheduler runs is flagged cut");
        if (in_ctrl && !(p->flags & MCUPROF_PATH_CUT))
            rtos_fail("a path of ctrl, current since main created it, is not flagged cut");
#else
        if ((in_task || in_ctrl) && !(p->flags & MCUPROF_PATH_CUT))
            rtos_fail("a path of a task is not flagged cut at task switch");
#endif
        if (before_scheduler && (p->flags & MCUPROF_PATH_CUT))
            rtos_fail("a path from before the scheduler is flagged cut");
        cut += (p->flags & MCUPROF_PATH_CUT) ? p->samples : 0u;
        whole += (p->flags & MCUPROF_PATH_CUT) ? 0u : p->samples;
        in_group[g] += p->samples;
    }
    pc_print("paths: samples in cut paths", cut);
    pc_print("paths: samples in whole paths", whole);
    pc_print("paths: samples under a returned leaf", stale_leaf);
    if ((uint64_t)stale_leaf * 1000u > total)
        rtos_fail("more than 0.1 % of the samples lie under a returned leaf");
    if (e->lost != 0u || e->invalid != 0u)
        rtos_fail("the path table lost samples or counted invalid ones");

    /* Each task's share of the path samples against its share of the
     * time: never more (no sample of another task counted in its paths),
     * and, for the tasks that no other task interrupts in the middle of a
     * step (T1, T2, C: the highest priority ready while they run), the
     * same within a point (their samples in the kernel, blocked with no
     * frame live, are in no group: a few hundredths). A and B share the
     * time slice by slice: without PATH_TASKS the stack is emptied at
     * every switch (paths are cut at a task switch, docs/paths.md), so
     * the rest of the step they were in has no frame; with it, their
     * stacks are kept and they match too. */
    static const char *const names[G_COUNT][2] = {{0, 0}, {"T1", "T2"}, {"A", 0}, {"B", 0}, {"C", 0}};
#ifdef RTOS_PATHS_KEPT
    static const int whole_steps[G_COUNT] = {0, 1, 1, 1, 1}; /* every task's stack is kept */
#else
    static const int whole_steps[G_COUNT] = {0, 1, 0, 0, 1};
#endif
    for (unsigned g = G_T; g < G_COUNT; g++) {
        uint64_t time = 0;
        for (unsigned n = 0; n < 2u && names[g][n]; n++)
            time += rtos_truth_find(names[g][n])->time;
        uint32_t truth = pc_hundredths(time, rtos_truth_total());
        uint32_t share = pc_hundredths(in_group[g], total);
        board_puts("paths: share of ");
        board_puts(names[g][0]);
        board_puts(names[g][1] ? "+T2" : "");
        board_puts(" ");
        board_put_u32(share);
        board_puts(" truth ");
        board_put_u32(truth);
        board_putc('\n');
        if (share > truth + 100u)
            rtos_fail("a task's paths hold more samples than the task ran");
        if (whole_steps[g] && share + 100u < truth)
            rtos_fail("a task's share of the path samples is off by more than 1 point");
    }
}
#endif

static void report(void)
{
    const struct rtos_truth_task *t;
    uint32_t n = rtos_truth_tasks(&t);

    /* "no task" is entry 0 of the truth, before ctrl was created */
    rtos_expect_task("(no-task)", t[0].time, 0, 0);
    static const char *const names[] = {"ctrl", "T1", "T2", "A", "B", "C", "IDLE"};
    for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        rtos_expect_named_task(names[i]);
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
    /* Whatever the order the three finished in (C may end before A and
     * B have, and then the idle task never ran): a few ticks of idle. */
    vTaskDelay(IDLE_TICKS);

    rtos_profile_finish();
#ifdef RTOS_CHECK_PATHS
    check_paths();
#endif
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

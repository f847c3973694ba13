/*
 * rtos_glue.c - mcuprof's task table on FreeRTOS, and the firmware's own
 * truth. Built without -pg, like the kernel: it runs inside the kernel's
 * context switch (the trace hooks), the sampler's interrupt (the task
 * name) and the idle task, where calls to the hook would only add arcs
 * whose counts depend on timing.
 */
#include "rtos_glue.h"

#include "board.h"
#include "expect_lines.h"
#include "mcuprof.h"

/* The kernel's running task (tasks.c). Declared here as a plain pointer,
 * as debuggers and trace tools see it: mcuprof only compares its value. */
extern void *volatile pxCurrentTCB;

struct rtos_idle_memory rtos_idle;
volatile uint32_t rtos_tick_isr_time, rtos_pendsv_time, rtos_app_isr_time;
volatile uint32_t rtos_swi_on;
uint32_t rtos_app_isr_untimed;

__attribute__((weak)) void rtos_swi(void)
{
    rtos_fail("a software interrupt without its handler");
}

void vApplicationGetIdleTaskMemory(StaticTask_t **tcb, StackType_t **stack, configSTACK_DEPTH_TYPE *words)
{
    if (!rtos_idle.tcb)
        rtos_fail("no memory for the idle task");
    *tcb = rtos_idle.tcb;
    *stack = rtos_idle.stack;
    *words = (configSTACK_DEPTH_TYPE)rtos_idle.words;
}

void rtos_assert_failed(const char *file, int line)
{
    board_puts("FAIL configASSERT ");
    board_puts(file);
    board_putc(':');
    board_put_u32((uint32_t)line);
    board_putc('\n');
    board_exit(1);
}

void rtos_fail(const char *what)
{
    board_puts("FAIL ");
    board_puts(what);
    board_putc('\n');
    board_exit(1);
}

/* ---- the truth ---------------------------------------------------- */

#define TRUTH_TASKS 12u

static struct {
    struct rtos_truth_task task[TRUTH_TASKS];
    uint32_t used;
    uint32_t owner; /* the entry charged until the next note */
    uint32_t last;  /* board clock at the last note */
    uint32_t on;
    uint32_t start; /* board clock when the window opened */
    uint64_t total;
    uint64_t idle;
    /* rtos_tick_isr_time and rtos_pendsv_time when the window opened, then
     * what they grew by */
    uint32_t tick_isr, pendsv, app_isr;
} truth;

/* The entry of task NUMBER, added at first sight; 0 is "no task". */
static uint32_t truth_entry(const void *tcb, uint32_t number, const char *name)
{
    uint32_t i;
    for (i = 0; i < truth.used && truth.task[i].number != number; i++)
        ;
    if (i < truth.used)
        return i;
    if (i == TRUTH_TASKS)
        rtos_fail("the truth has no room for another task");
    truth.task[i].number = number;
    truth.task[i].tcb = tcb;
    truth.task[i].deleted = 0;
    truth.task[i].time = 0;
    for (uint32_t k = 0, end = 0; k <= configMAX_TASK_NAME_LEN; k++) {
        end = end || !name || k == configMAX_TASK_NAME_LEN || !name[k];
        truth.task[i].name[k] = end ? 0 : name[k];
    }
    truth.used = i + 1u;
    return i;
}

/* The idle task's wait (vApplicationIdleHook): open from just before its
 * WFI until it returns, or until the idle task is switched out meanwhile
 * (an interrupt woke a task: rtos_truth_note() closes it), minus the tick
 * and PendSV handlers that ran in it, which the context table counts as
 * theirs. The sampler's own interrupt stays in: its samples of the waiting
 * core count as idle. */
static struct {
    uint32_t open;
    uint32_t t0;
    uint32_t handlers; /* the handlers' times at t0 (handler_time()) */
} wait;

static uint32_t handler_time(void)
{
    return rtos_tick_isr_time + rtos_pendsv_time + rtos_app_isr_time;
}

static void wait_close(uint32_t now)
{
    if (!wait.open)
        return;
    wait.open = 0;
    if (truth.on)
        truth.idle += (now - wait.t0) - (handler_time() - wait.handlers);
}

/* Called with the kernel's lists locked (or interrupts masked), so nothing
 * else notes meanwhile. */
void rtos_truth_note(const void *tcb, uint32_t number, const char *name)
{
    uint32_t now = BOARD_CLOCK_READ();
    wait_close(now);
    if (!truth.on)
        return;
    truth.task[truth.owner].time += now - truth.last;
    truth.last = now;
    if (truth.task[truth.owner].number != number)
        truth.owner = truth_entry(tcb, number, name);
}

void rtos_truth_deleted(uint32_t number)
{
    for (uint32_t i = 0; i < truth.used; i++)
        if (truth.task[i].number == number)
            truth.task[i].deleted = 1;
}

/* The window opens before the first task exists: nothing runs but main(),
 * which is "no task". (No kernel critical section here: before the
 * scheduler starts, leaving one does not unmask interrupts again.) */
static void truth_start(void)
{
    if (pxCurrentTCB)
        rtos_fail("the window must open before the first task is created");
    truth.used = 0;
    (void)truth_entry(0, 0, 0);
    truth.owner = 0;
    truth.idle = 0;
    truth.tick_isr = rtos_tick_isr_time;
    truth.pendsv = rtos_pendsv_time;
    truth.app_isr = rtos_app_isr_time;
    truth.start = truth.last = BOARD_CLOCK_READ();
    truth.on = 1;
}

static void truth_stop(void)
{
    taskENTER_CRITICAL();
    uint32_t now = BOARD_CLOCK_READ();
    truth.task[truth.owner].time += now - truth.last;
    truth.on = 0;
    truth.total = now - truth.start;
    truth.tick_isr = rtos_tick_isr_time - truth.tick_isr;
    truth.pendsv = rtos_pendsv_time - truth.pendsv;
    truth.app_isr = rtos_app_isr_time - truth.app_isr;
    taskEXIT_CRITICAL();
}

/* The idle task waits for an interrupt: its samples are mcuprof's "idle"
 * context (the instruction before the interrupted PC is the WFI). The
 * kernel's interrupt mask (BASEPRI on Cortex-M, which leaves the sampler's
 * SysTick free) keeps a switch from closing the wait between the two
 * steps of opening or closing it.
 *
 * Not on the Cortex-M board: QEMU 7.2's SysTick raises only every other
 * interrupt while the core sleeps in WFI (measured on mps2-an385: 500
 * samples in 100 ms of WFI at 10 kHz, with or without the dither), so idle
 * time would be half sampled there, an artefact of the emulator that
 * mcuprof reports as missed periods ("idle, periods slept through") but
 * cannot turn back into samples. There the idle task polls, thread
 * context like any task, and the truth has no idle time. */
#if defined(__riscv)
#define IDLE_WAITS 1
#else
#define IDLE_WAITS 0
#endif

void vApplicationIdleHook(void)
{
    if (!IDLE_WAITS)
        return;
    taskDISABLE_INTERRUPTS();
    wait.handlers = handler_time();
    wait.t0 = BOARD_CLOCK_READ();
    wait.open = 1;
    taskENABLE_INTERRUPTS();
    __asm__ volatile("wfi" ::: "memory");
    taskDISABLE_INTERRUPTS();
    wait_close(BOARD_CLOCK_READ());
    taskENABLE_INTERRUPTS();
}

uint32_t rtos_truth_tasks(const struct rtos_truth_task **tasks)
{
    *tasks = truth.task;
    return truth.used;
}

uint64_t rtos_truth_total(void)
{
    return truth.total;
}

uint64_t rtos_truth_idle(void)
{
    return truth.idle;
}

uint64_t rtos_truth_tick_isr(void)
{
    return truth.tick_isr;
}

uint64_t rtos_truth_pendsv(void)
{
    return truth.pendsv;
}

uint64_t rtos_truth_app_isr(void)
{
    return truth.app_isr;
}

const struct rtos_truth_task *rtos_truth_find(const char *name)
{
    for (uint32_t i = 1; i < truth.used; i++) {
        uint32_t k = 0;
        while (k < configMAX_TASK_NAME_LEN && name[k] && truth.task[i].name[k] == name[k])
            k++;
        if (truth.task[i].name[k] == name[k])
            return &truth.task[i];
    }
    return 0;
}

/* ---- mcuprof ------------------------------------------------------ */

/* Called from the sampler's interrupt, once per task, when the task is
 * first seen; only with a handle inside the declared range. */
static const char *task_name(const void *task)
{
    return pcTaskGetName((TaskHandle_t)(uintptr_t)task);
}

void rtos_profile_start(uintptr_t low, uintptr_t high)
{
    mcuprof_init();
    (void)board_clock_now(); /* starts the board's free-running clock */
    if (mcuprof_tasks_watch((void *const volatile *)&pxCurrentTCB, task_name, low, high) != MCUPROF_OK)
        rtos_fail("mcuprof_tasks_watch");
#if defined(__arm__)
    if (mcuprof_sampler_set_clock(board_clock_now) != MCUPROF_OK)
        rtos_fail("mcuprof_sampler_set_clock");
#endif
    if (mcuprof_sampler_start(BOARD_TIMER_HZ, RTOS_SAMPLE_HZ) != MCUPROF_OK)
        rtos_fail("mcuprof_sampler_start");
    truth_start();
    mcuprof_start();
}

void rtos_profile_finish(void)
{
    mcuprof_stop();
    truth_stop();
    mcuprof_sampler_stop();
    if (mcuprof_write_semihosting("mcuprof.img") != 0)
        rtos_fail("semihosting write");
}

/* ---- EXPECT lines ------------------------------------------------- */

/* Rounded, but never to 0 when PART is not: 0 means "never", and the
 * check then allows no sample at all. */
static void put_hundredths(uint64_t part, uint64_t whole)
{
    uint32_t h = whole ? (uint32_t)((part * 10000u + whole / 2u) / whole) : 0u;
    board_put_u32(h == 0u && part != 0u ? 1u : h);
}

static void put_hex(uintptr_t v)
{
    board_puts("0x");
    for (int shift = (int)sizeof(v) * 8 - 4; shift >= 0; shift -= 4)
        board_putc("0123456789abcdef"[(v >> shift) & 0xFu]);
}

void rtos_expect_task(const char *label, uint64_t time, const void *handle, uint32_t deleted)
{
    board_puts("EXPECT-TASK ");
    put_hundredths(time, truth.total);
    board_putc(' ');
    if (handle)
        put_hex((uintptr_t)handle);
    else
        board_putc('-');
    board_puts(deleted ? " 1 " : " 0 ");
    board_puts(label);
    board_putc('\n');
}

TaskHandle_t rtos_create(TaskFunction_t fn, const char *name, UBaseType_t prio, StackType_t *stack,
                         uint32_t words, StaticTask_t *tcb, void *arg)
{
    TaskHandle_t h = xTaskCreateStatic(fn, name, words, arg, prio, stack, tcb);
    if (!h)
        rtos_fail("xTaskCreateStatic");
    return h;
}

void rtos_expect_named_task(const char *name)
{
    const struct rtos_truth_task *t = rtos_truth_find(name);
    if (!t)
        rtos_fail("a task never ran");
    rtos_expect_task(name, t->time, t->tcb, t->deleted);
}

void rtos_expect_context(const char *label, uint64_t time)
{
    board_puts("EXPECT-CONTEXT ");
    put_hundredths(time, truth.total);
    board_putc(' ');
    board_puts(label);
    board_putc('\n');
}

void rtos_expect_contexts(void)
{
    uint64_t idle = truth.idle, tick = truth.tick_isr, pendsv = truth.pendsv, app = truth.app_isr;
    if (rtos_app_isr_untimed)
        rtos_expect_context("thread + IRQ 10", truth.total - idle - tick - pendsv);
    else
        rtos_expect_context("thread", truth.total - idle - tick - pendsv - app);
    rtos_expect_context("idle", idle);
#if defined(__arm__)
    rtos_expect_context("IRQ 9", tick);
    rtos_expect_context("PendSV", pendsv);
    if (app && !rtos_app_isr_untimed)
        rtos_expect_context("IRQ 10", app);
#endif
}

void rtos_expect_arc(const char *caller, const char *callee, uint32_t count)
{
    expect_arc(caller, callee, count);
}

void rtos_expect_calls(const char *func, uint32_t count)
{
    board_puts("EXPECT calls ");
    board_puts(func);
    board_putc(' ');
    board_put_u32(count);
    board_putc('\n');
}

/*
 * rtos_shared.c - call paths under FreeRTOS where a leaf without a frame
 * is shared between tasks, and an interrupt handler runs beside them
 * (PATHS 64, PATH_TASKS 8, CONTEXTS, TASKS).
 *
 *   main (no task yet)  pre_work x PRE_ROUNDS; creates spawn, then A and B
 *   spawn (priority 3)  created first, so current from its creation in
 *                       main on (its paths are flagged cut); creates C
 *                       from a task, waits for A, B and C
 *   A, B  (1)           equal priority, sliced by the tick; each round A
 *                       calls a_only() and shared_work() twice, B calls
 *                       b_only() and shared_work() once, straight from the
 *                       task function: shared_work() and a_only() are
 *                       leaves that keep no frame on Cortex-M3
 *   C     (2)           c_work(), then vTaskDelay(): preempts A and B
 *   IDLE  (0)
 *   an interrupt        Cortex-M3: CMSDK dual timer 1 (IRQ 10) at about
 *                       2.3 kHz, whose handler calls isr_work(); RISC-V:
 *                       the machine software interrupt, raised every few
 *                       ticks (it stands for a peripheral's: the port
 *                       takes both the same way, on its ISR stack)
 *
 * The handler is built with -pg when RTOS_ISR_PG is defined, without it
 * (no_instrument_function) otherwise. On RISC-V the port runs every
 * handler on a stack of its own, where a profiled function's frames would
 * be compared with the interrupted task's: there isr_work() is profiled
 * only with RTOS_ISR_PG, which `mcuprof check` must refuse.
 *
 * The firmware prints its truth: each task's and context's time by the
 * board's clock (EXPECT-TASK, EXPECT-CONTEXT), the exact call counts
 * (EXPECT), and how often each task called shared_work()
 * (SHARED-CALLS), the truth of the split of shared_work()'s time, each
 * call doing the same work. tests/rtos/check_shared.sh checks the paths
 * against them.
 */
#include "rtos_glue.h"

#include "board.h"
#include "mcuprof.h"
#include "spin.h"

#define PRE_ROUNDS 20u
#define PRE_LOOPS 20000u
#define A_ROUNDS 400u
#define B_ROUNDS 400u
#define ONLY_LOOPS 12000u
#define SHARED_LOOPS 9000u
#define C_ROUNDS 300u
#define C_LOOPS 6000u
#define C_DELAY_TICKS 4u
#define IDLE_TICKS 3u
#define ISR_LOOPS 300u
#define STACK_WORDS 512u

#ifdef RTOS_ISR_PG
#define ISR_CODE
#else
#define ISR_CODE __attribute__((no_instrument_function))
#endif

enum { TCB_SPAWN, TCB_A, TCB_B, TCB_C, TCB_IDLE, TCB_COUNT };
static StaticTask_t tcbs[TCB_COUNT];
static StackType_t stacks[TCB_COUNT][STACK_WORDS] __attribute__((aligned(16)));
static TaskHandle_t spawner;
static volatile uint32_t isr_calls;

/* Leaves: no call, nothing to save, so no frame on Cortex-M3. */
__attribute__((noinline)) void shared_work(void)
{
    uint32_t n = SHARED_LOOPS;
    SPIN_LOOP(n);
}

__attribute__((noinline)) void a_only(void)
{
    uint32_t n = ONLY_LOOPS;
    SPIN_LOOP(n);
}

__attribute__((noinline)) void b_only(void)
{
    uint32_t n = ONLY_LOOPS;
    SPIN_LOOP(n);
}

__attribute__((noinline)) void c_work(void)
{
    uint32_t n = C_LOOPS;
    SPIN_LOOP(n);
}

__attribute__((noinline)) void pre_work(void)
{
    uint32_t n = PRE_LOOPS;
    SPIN_LOOP(n);
}

#if defined(__riscv) && !defined(RTOS_ISR_PG)
/* on the port's ISR stack: never profiled (see the top) */
__attribute__((noinline, no_instrument_function)) void isr_work(void)
#else
__attribute__((noinline)) void isr_work(void)
#endif
{
    uint32_t n = ISR_LOOPS;
    SPIN_LOOP(n);
    isr_calls++;
}

__attribute__((noinline)) static void finished(void)
{
    xTaskNotifyGive(spawner);
    vTaskSuspend(NULL);
}

void task_a(void *arg)
{
    (void)arg;
    for (uint32_t i = 0; i < A_ROUNDS; i++) {
        a_only();
        shared_work();
        shared_work();
    }
    finished();
}

void task_b(void *arg)
{
    (void)arg;
    for (uint32_t i = 0; i < B_ROUNDS; i++) {
        b_only();
        shared_work();
    }
    finished();
}

void task_c(void *arg)
{
    (void)arg;
    for (uint32_t i = 0; i < C_ROUNDS; i++) {
        c_work();
        vTaskDelay(C_DELAY_TICKS);
    }
    finished();
}

/* ---- the interrupt ------------------------------------------------ */

#if defined(__arm__)
#include "cortex_m.h"
/* CMSDK dual timer, timer 1 (0x40002000, IRQ 10 on the MPS2 boards):
 * periodic, 32-bit, interrupt enabled. */
#define DUAL_BASE 0x40002000u
#define DUAL_IRQ 10u
#define DUAL_LOAD CM_REG(DUAL_BASE + 0x00u)
#define DUAL_CTRL CM_REG(DUAL_BASE + 0x08u)
#define DUAL_INTCLR CM_REG(DUAL_BASE + 0x0Cu)
#define DUAL_CTRL_ON 0xE2u /* enable, periodic, interrupt, 32-bit */
#define ISR_PERIOD (BOARD_TIMER_HZ / 2311u)
#define NVIC_IPR(n) CM_REG(0xE000E400u + 4u * ((n) / 4u))


/* Timed from its first clock read: with -pg the hook has run before it,
 * and the truth cannot tell the handler's time from the thread's it
 * interrupted (rtos_app_isr_untimed). */
ISR_CODE void IRQ10_Handler(void);
ISR_CODE void IRQ10_Handler(void)
{
    uint32_t t0 = BOARD_CLOCK_READ();
    DUAL_INTCLR = 1u;
    isr_work();
    rtos_app_isr_time += BOARD_CLOCK_READ() - t0;
}
_Static_assert(DUAL_IRQ == 10u, "IRQ10_Handler is the dual timer's vector");

/* Above the kernel (which it never calls), below the sampler (0). */
static void isr_start(void)
{
#ifdef RTOS_ISR_PG
    rtos_app_isr_untimed = 1u;
#endif
    DUAL_CTRL = 0u;
    DUAL_LOAD = ISR_PERIOD;
    DUAL_INTCLR = 1u;
    NVIC_IPR(DUAL_IRQ) = (NVIC_IPR(DUAL_IRQ) & ~(0xFFu << 16)) | (0x40u << 16);
    NVIC_ICPR(DUAL_IRQ) = NVIC_BIT(DUAL_IRQ);
    NVIC_ISER(DUAL_IRQ) = NVIC_BIT(DUAL_IRQ);
    DUAL_CTRL = DUAL_CTRL_ON;
}

static void isr_stop(void)
{
    DUAL_CTRL = 0u;
    NVIC_ICER(DUAL_IRQ) = NVIC_BIT(DUAL_IRQ);
}
#else
#include "riscv.h"
/* port_riscv.c raises the software interrupt from the tick and calls this
 * from the port's interrupt handler, msip cleared. */
ISR_CODE void rtos_swi(void)
{
    isr_work();
}

static void isr_start(void)
{
    rtos_swi_on = 1u;
    rv_csr_set(mie, MIP_MSIP);
}

static void isr_stop(void)
{
    rv_csr_clear(mie, MIP_MSIP);
    rtos_swi_on = 0u;
}
#endif

/* ---- the report ---------------------------------------------------- */

static TaskHandle_t create(TaskFunction_t fn, const char *name, UBaseType_t prio, unsigned slot)
{
    return rtos_create(fn, name, prio, stacks[slot], STACK_WORDS, &tcbs[slot], 0);
}

static void shared_calls(const char *task, uint32_t calls)
{
    board_puts("SHARED-CALLS ");
    board_puts(task);
    board_putc(' ');
    board_put_u32(calls);
    board_putc('\n');
}

static void report(void)
{
    const struct rtos_truth_task *t;
    uint32_t n = rtos_truth_tasks(&t);
    rtos_expect_task("(no-task)", t[0].time, 0, 0);
    static const char *const names[] = {"spawn", "A", "B", "C", "IDLE"};
    for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++)
        rtos_expect_named_task(names[i]);
    if (n != 1u + sizeof names / sizeof names[0])
        rtos_fail("an unexpected task ran");
    rtos_expect_task("(lost)", 0, 0, 0);
    rtos_expect_task("(invalid)", 0, 0, 0);
    rtos_expect_contexts();

    rtos_expect_arc("main", "pre_work", PRE_ROUNDS);
    rtos_expect_arc("task_a", "a_only", A_ROUNDS);
    rtos_expect_arc("task_a", "shared_work", 2u * A_ROUNDS);
    rtos_expect_arc("task_b", "b_only", B_ROUNDS);
    rtos_expect_arc("task_b", "shared_work", B_ROUNDS);
    rtos_expect_arc("task_c", "c_work", C_ROUNDS);
    rtos_expect_calls("shared_work", 2u * A_ROUNDS + B_ROUNDS);
    rtos_expect_calls("finished", 3u);
    board_puts("EXPECT-INFO lost_calls_reentrant 0\n");
    board_puts("EXPECT-INFO lost_arcs_table_full 0\n");
    shared_calls("task_a", 2u * A_ROUNDS);
    shared_calls("task_b", B_ROUNDS);
    board_puts("ISR-CALLS ");
    board_put_u32(isr_calls);
    board_putc('\n');
    if (isr_calls < 100u)
        rtos_fail("the interrupt hardly ran");
}

void task_spawn(void *arg)
{
    (void)arg;
    (void)create(task_c, "C", 2, TCB_C);
    for (unsigned i = 0; i < 3u; i++)
        (void)ulTaskNotifyTake(pdFALSE, portMAX_DELAY);
    vTaskDelay(IDLE_TICKS); /* the idle task runs, whatever the order the three ended in */
    isr_stop();
    rtos_profile_finish();
    report();
    board_exit(0);
}

int main(void)
{
    rtos_profile_start((uintptr_t)&tcbs[0], (uintptr_t)&tcbs[TCB_COUNT]);
    for (uint32_t i = 0; i < PRE_ROUNDS; i++)
        pre_work();
    isr_start();
    rtos_idle.tcb = &tcbs[TCB_IDLE];
    rtos_idle.stack = stacks[TCB_IDLE];
    rtos_idle.words = STACK_WORDS;
    /* spawn first: current from here on (FreeRTOS makes the highest
     * priority task created so far current), so A and B, created while it
     * is, are announced before they run and their paths are whole */
    spawner = create(task_spawn, "spawn", 3, TCB_SPAWN);
    (void)create(task_a, "A", 1, TCB_A);
    (void)create(task_b, "B", 1, TCB_B);
    vTaskStartScheduler();
    rtos_fail("vTaskStartScheduler returned");
}

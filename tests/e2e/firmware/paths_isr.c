/*
 * paths_isr.c - calls from an interrupt handler. The thread runs
 * round(): thread_work(), then trigger(), which raises the software
 * interrupt; the handler calls isr_outer(), which calls isr_work(). With
 * one stack, a handler's frames lie on top of the frames of the code it
 * interrupted, and so do its paths: main, round, trigger, the handler,
 * isr_outer, isr_work is the real machine stack (the board's vector code
 * between trigger and the handler has no hook). The thread's paths must
 * be exactly main, round, then thread_work or trigger, however often the
 * handler ran on top of them; isr_work's share of the samples is its
 * share of the work (30 %).
 *
 * As in time_isr.c, the handler's priority is below the sampler's on
 * Cortex-M, and on RISC-V it enables interrupts again so that the machine
 * timer can nest.
 */
#include <stdint.h>

/* The profiled functions, which name the frames (paths_common.h). */
void thread_work(uint32_t n);
void isr_work(uint32_t n);
void isr_outer(void);
void trigger(void);
void round_(void);
void board_swi_handler(void);
int main(void);
#define PC_FUNCTIONS (const void *)thread_work, (const void *)isr_work, (const void *)isr_outer, \
    (const void *)trigger, (const void *)round_, (const void *)board_swi_handler, (const void *)main
#include "paths_common.h"

#define ROUNDS 500u
#define MAIN_LOOPS 43750u /* 70 % */
#define ISR_LOOPS 18750u  /* 30 % */

__attribute__((noinline)) void thread_work(uint32_t n)
{
    SPIN_LOOP(n);
}

__attribute__((noinline)) void isr_work(uint32_t n)
{
    SPIN_LOOP(n);
}

__attribute__((noinline)) void isr_outer(void)
{
    isr_work(ISR_LOOPS);
    __asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void trigger(void)
{
    board_swi_trigger();
    __asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void round_(void)
{
    thread_work(MAIN_LOOPS);
    trigger();
}

void board_swi_handler(void)
{
    TC_PREEMPTIBLE(isr_outer());
}

int main(void)
{
    tc_swi_enable_lowest();
    PC_START();
    for (uint32_t r = 0; r < ROUNDS; r++)
        round_();
    tc_finish();

    const struct mcuprof_ext *e = pc_table();
    /* every path the program can have, outermost first (0: the root) */
    const void *const thread[] = {0, (const void *)round_, (const void *)thread_work};
    const void *const handler[] = {0,
                                   (const void *)round_,
                                   (const void *)trigger,
                                   (const void *)board_swi_handler,
                                   (const void *)isr_outer,
                                   (const void *)isr_work};
    uint32_t in_thread_work = 0, in_isr_work = 0, in_handler = 0, other = 0;
    pc_check_accounted(e);
    for (uint32_t i = 0; i < e->used; i++) {
        const struct mcuprof_task_path *p = pc_path(e, i);
        if (p->flags)
            tc_fail("a path is truncated or cut: nothing here is deep, and there are no tasks");
        if (pc_path_is(p, (const void *)main, thread, 3)) {
            in_thread_work += p->samples;
        } else if (pc_path_is(p, (const void *)main, handler, 6)) {
            in_isr_work += p->samples;
        } else if (pc_path_is(p, (const void *)main, handler, 4) || pc_path_is(p, (const void *)main, handler, 5)) {
            in_handler += p->samples;
        } else if (pc_path_is(p, (const void *)main, thread, 1) || pc_path_is(p, (const void *)main, thread, 2) ||
                   pc_path_is(p, (const void *)main, handler, 3)) {
            other += p->samples;
        } else {
            pc_fail_path(p);
        }
    }
    pc_print("samples taken", tc_header()->samples_taken);
    pc_print("paths [main, round_, thread_work]", in_thread_work);
    pc_print("paths [main, round_, trigger, board_swi_handler, isr_outer, isr_work]", in_isr_work);
    pc_print("paths [.., board_swi_handler] and [.., isr_outer]", in_handler);
    pc_print("paths [main], [main, round_], [main, round_, trigger]", other);
    if (in_isr_work == 0u)
        tc_fail("no path through the handler");

    uint32_t got = pc_hundredths(in_isr_work, (uint64_t)in_isr_work + in_thread_work);
    uint32_t truth = pc_hundredths(ISR_LOOPS, MAIN_LOOPS + ISR_LOOPS);
    board_puts("isr_work under the handler: paths ");
    pc_put_pct(got);
    board_puts(", truth ");
    pc_put_pct(truth);
    board_putc('\n');
    if (got > truth + 100u || truth > got + 100u)
        tc_fail("isr_work's share is more than 1 point from the truth");

    board_puts("EXPECT calls isr_work 500\n");
    board_puts("EXPECT arc isr_outer isr_work 500\n");
    board_puts("EXPECT arc round_ trigger 500\n");
    board_puts("EXPECT-INFO samples-accounted yes\n");
    return 0;
}

/*
 * time_critical.c - 30 % of the work done inside critical sections, as
 * drivers do: interrupts masked for 1 to 50 sampler periods at a time,
 * between stretches of unmasked work. The sampler's tick is held off
 * for each section and taken just after it unmasks; the runtime must
 * charge the periods it missed there, so the section's function shows
 * its share of the time. Truth from the board's clock (time_common.h):
 * the time each function ran, not what the sampler saw.
 */
#include "time_common.h"

#define CYCLES 3u         /* of the lengths 1..MAX_PERIODS */
#define MAX_PERIODS 50u   /* the longest section, in sampler periods */
/* Unmasked work between sections: 7/3 of the average section, so the
 * sections take 30 % of the time. */
#define FREE_TICKS ((MAX_PERIODS + 1u) * TC_PERIOD * 7u / 6u)

/* Spins for `ticks` of the clock. */
__attribute__((noinline)) void free_work(uint32_t ticks)
{
    TC_SPIN_FOR(ticks);
}

/* The same, with interrupts masked. */
__attribute__((noinline)) void critical_work(uint32_t ticks)
{
    tc_irq_mask();
    TC_SPIN_FOR(ticks);
    tc_irq_unmask();
}

int main(void)
{
    uint64_t free = 0, crit = 0;

    tc_start();
    uint32_t start = tc_clock();
    for (uint32_t c = 0; c < CYCLES; c++) {
        for (uint32_t len = 1; len <= MAX_PERIODS; len++) {
            uint32_t t = tc_clock();
            free_work(FREE_TICKS);
            uint32_t u = tc_clock();
            critical_work(len * TC_PERIOD);
            crit += tc_clock() - u;
            free += u - t;
        }
    }
    uint32_t total = tc_clock() - start;
    tc_finish();

    const struct mcuprof_header *h = tc_header();
    board_puts("periods masked ");
    board_put_u32((uint32_t)(crit / TC_PERIOD));
    board_puts(", missed_periods ");
    board_put_u32(h->missed_periods);
    board_puts(", deferred_samples ");
    board_put_u32(h->deferred_samples);
    board_putc('\n');
    /* Every section of 2 periods or more swallows a period, and the tick
     * held off by it is taken after the unmask: charged there, not held. */
    if (h->missed_source == MCUPROF_MISSED_NONE)
        tc_fail("nothing measured the missed periods");
    if (tc_held()->samples != 0)
        tc_fail("a sample after an unmask was taken as held off by a handler");
    /* a section of L periods holds at most 2 samples' worth of it that
     * are not missed periods (the late sample, a slot cut in two) */
    if (h->missed_periods + 2u * CYCLES * MAX_PERIODS < crit / TC_PERIOD)
        tc_fail("missed_periods is short of the masked time");
    tc_expect_share("critical_work", crit, total);
    tc_expect_share("free_work", free, total);
    return 0;
}

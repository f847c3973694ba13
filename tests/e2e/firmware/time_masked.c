/*
 * time_masked.c - interrupts masked for a stretch of known length. The
 * sampler's tick is held off for the whole stretch and taken once at its
 * end: the periods in between have no sample, and the runtime must count
 * them (missed_periods) from a clock that kept running: mtime on RISC-V,
 * the clock the firmware registered on Cortex-M. The stretch is measured
 * here with the same kind of clock; the count must be within one period
 * of its length in periods, minus the one sample taken late.
 */
#include "time_common.h"

#define STRETCH_PERIODS 500u /* 50 ms of masked interrupts at 10 kHz */

__attribute__((noinline)) void free_spin(uint32_t n) { SPIN_LOOP(n); }

/* Spins with interrupts masked until STRETCH_PERIODS have passed on the
 * clock; returns the ticks it kept them masked. */
__attribute__((noinline)) uint32_t masked_stretch(void)
{
    tc_irq_mask();
    uint32_t t0 = tc_clock();
    while (tc_clock() - t0 < STRETCH_PERIODS * TC_PERIOD)
        SPIN_LOOP_16();
    uint32_t t1 = tc_clock();
    tc_irq_unmask();
    return t1 - t0;
}

int main(void)
{
    tc_start();
    free_spin(1000000u);
    uint32_t masked = masked_stretch();
    free_spin(1000000u);
    tc_finish();

    const struct mcuprof_header *h = tc_header();
    /* k periods late: k - 1 without a sample; the stretch spans
     * masked / TC_PERIOD of them, give or take the one it starts in. */
    uint32_t want = masked / TC_PERIOD - 1u;
    uint32_t got = h->missed_periods;
    board_puts("masked ticks ");
    board_put_u32(masked);
    board_puts(", periods ");
    board_put_u32(masked / TC_PERIOD);
    board_puts(", missed_periods ");
    board_put_u32(got);
    board_putc('\n');
    if (h->missed_source == MCUPROF_MISSED_NONE)
        tc_fail("missed_source is none: nothing counted the missed periods");
    if (got + 1u < want || got > want + 1u)
        tc_fail("missed_periods is not within one period of the masked stretch");
    tc_expect_info("missed_periods", got);
    return 0;
}

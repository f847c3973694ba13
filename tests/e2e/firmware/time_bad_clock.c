/*
 * time_bad_clock.c - a clock registered to measure the sampler's missed
 * periods that cannot do it (built twice):
 *   BAD_CLOCK_STALLED   one that never advances (a timer not started, a
 *                       register that reads as zero);
 *   BAD_CLOCK_WRAPPING  one that wraps at 16 bits (a 16-bit timer), so it
 *                       goes back every 65,536 ticks.
 * Cortex-M: the runtime must say so in timing_flags (stalled: found when
 * the sampler starts; wrapping: found at its first wrap, and dropped),
 * never count missed periods from it, and keep the time profile right:
 * 70 : 30 between two functions, the truth from the board's own clock,
 * with critical sections of half a period that the runtime still sees as
 * deferrals (from SysTick's own count). RISC-V measures lateness with mtime and ignores a
 * registered clock: the same truth, no flag.
 */
#include "time_common.h"

#define ROUNDS 60u
#define A_TICKS (70u * TC_PERIOD)
#define B_TICKS (30u * TC_PERIOD)

#if defined(BAD_CLOCK_STALLED)
static uint32_t bad_clock(void)
{
    return 12345u;
}
#define WANT_FLAG MCUPROF_TIMING_CLOCK_STALLED
#else
static uint32_t bad_clock(void)
{
    return board_clock_now() & 0xFFFFu;
}
#define WANT_FLAG MCUPROF_TIMING_CLOCK_JUMPED
#endif

__attribute__((noinline)) void work_a(void) { TC_SPIN_FOR(A_TICKS); }

/* work_b's 30 periods, half a period at a time with interrupts masked:
 * no period is missed, so no clock is needed for the truth */
__attribute__((noinline)) void work_b(void)
{
    for (uint32_t i = 0; i < 60u; i++) {
        tc_irq_mask();
        TC_SPIN_FOR(TC_PERIOD / 2u);
        tc_irq_unmask();
    }
}

int main(void)
{
    uint64_t a = 0, b = 0;

    mcuprof_init();
    (void)board_clock_now(); /* the truth's clock */
    if (mcuprof_sampler_set_clock(bad_clock) != 0)
        tc_fail("mcuprof_sampler_set_clock");
    if (mcuprof_sampler_start(BOARD_TIMER_HZ, TC_RATE_HZ) != 0)
        tc_fail("mcuprof_sampler_start");
    mcuprof_start();
    for (uint32_t r = 0; r < ROUNDS; r++) {
        uint32_t t = tc_clock();
        work_a();
        uint32_t u = tc_clock();
        work_b();
        a += u - t;
        b += tc_clock() - u;
    }
    tc_finish();

    const struct mcuprof_header *h = tc_header();
    board_puts("timing_flags ");
    board_put_u32(h->timing_flags);
    board_puts(", missed_source ");
    board_put_u32(h->missed_source);
    board_puts(", missed_periods ");
    board_put_u32(h->missed_periods);
    board_puts(", deferred_samples ");
    board_put_u32(h->deferred_samples);
    board_putc('\n');
#if defined(__arm__)
    if (!(h->timing_flags & WANT_FLAG))
        tc_fail("timing_flags does not say the clock was unusable");
#if defined(BAD_CLOCK_STALLED)
    /* never used: QEMU's Cortex-M models have no cycle counter either */
    if (h->missed_source == MCUPROF_MISSED_CLOCK || h->missed_periods != 0u)
        tc_fail("a clock that does not count was used");
#endif
    /* masked stretches that a sample fell due in end in a deferred one */
    if (h->deferred_samples == 0u)
        tc_fail("the deferred samples after the masked stretches were not seen");
#else
    if (h->timing_flags & (MCUPROF_TIMING_CLOCK_STALLED | MCUPROF_TIMING_CLOCK_JUMPED))
        tc_fail("mtime was taken for a bad clock");
#endif
    if (tc_held()->samples != 0u)
        tc_fail("a sample after an unmask was taken as held off");
    tc_expect_share("work_a", a, a + b);
    tc_expect_share("work_b", b, a + b);
    return 0;
}

/*
 * time_locked.c - two halves of one loop whose period is exactly the
 * sampler's mean period, the case where a fixed sampling period samples
 * the same instruction every time (0/100 for two halves that each take
 * half the time). The loop polls a free-running clock for its deadlines,
 * so it is locked to the timer the sampler runs on, as code driven by a
 * timer tick is on a board.
 *
 * half_a runs the loop and spends the first half of each period polling;
 * it then calls half_b, which polls until the period's end. The truth is
 * measured with the same clock: the ticks from just before each call of
 * half_b to just after it are half_b's (its call and return are a couple
 * of instructions), the rest of half_a's time is half_a's. half_b is not
 * instrumented, so no call hook runs in the gap between the halves.
 */
#include "time_common.h"

#define PERIODS 40000u /* about 40,000 samples */

/* Poll every 16 iterations: a clock read is slow to emulate. */
#define POLL_UNTIL(until)                                  \
    do {                                                   \
        while ((int32_t)(tc_clock() - (until)) < 0)        \
            SPIN_LOOP_16();                                \
    } while (0)

__attribute__((noinline, no_instrument_function)) void half_b(uint32_t until)
{
    POLL_UNTIL(until);
}

/* Returns the ticks spent in half_b. */
__attribute__((noinline)) uint64_t half_a(uint32_t start)
{
    uint64_t ticks_b = 0;
    uint32_t t = start;
    for (uint32_t i = 0; i < PERIODS; i++) {
        POLL_UNTIL(t + TC_PERIOD / 2u);
        uint32_t t1 = tc_clock();
        half_b(t + TC_PERIOD);
        ticks_b += tc_clock() - t1;
        t += TC_PERIOD;
    }
    return ticks_b;
}

int main(void)
{
    tc_start();
    uint32_t start = tc_clock();
    uint64_t ticks_b = half_a(start);
    uint32_t end = tc_clock();
    tc_finish();

    tc_expect_share("half_a", end - start - ticks_b, end - start);
    tc_expect_share("half_b", ticks_b, end - start);
    return 0;
}

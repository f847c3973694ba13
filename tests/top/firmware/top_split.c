/*
 * top_split.c - an endless workload whose split of the time and whose
 * calls are known, for `mcuprof top` (tests/top). Every round, in
 * periods of the sampler (TC_PERIOD ticks of the board's clock, 10 kHz):
 *   top_hot        50, calling top_leaf LEAF_CALLS times (calls to
 *                  count, too short to take time)
 *   top_outer      10 of its own, then calls
 *   top_inner      30 (so top_outer is on 40 % of the call paths)
 *   top_irq_work   10, called from the software interrupt's handler at
 *                  the lowest priority, which the sampler preempts (an
 *                  interrupt context of its own in the context split)
 * A round is 100 periods: 100 rounds a second of the target's time, so
 * each of those functions is called 100 times a second and top_leaf
 * 100 * LEAF_CALLS. With TOP_RESET_ROUNDS defined, the firmware drains
 * its own tables (mcuprof_reset(), a new generation) every that many
 * rounds, as a host that pulls with --reset would. The firmware prints
 * "ready" once profiling runs, and never ends.
 */
#include "time_common.h"

#define LEAF_CALLS 10u

volatile uint32_t top_rounds, top_sink;

__attribute__((noinline)) void top_leaf(void)
{
    top_sink++;
}

__attribute__((noinline)) void top_hot(void)
{
    for (uint32_t i = 0; i < LEAF_CALLS; i++)
        top_leaf();
    TC_SPIN_FOR(50u * TC_PERIOD);
}

__attribute__((noinline)) void top_inner(void)
{
    TC_SPIN_FOR(30u * TC_PERIOD);
}

__attribute__((noinline)) void top_outer(void)
{
    TC_SPIN_FOR(10u * TC_PERIOD);
    top_inner();
}

__attribute__((noinline)) void top_irq_work(void)
{
    TC_SPIN_FOR(10u * TC_PERIOD);
}

void board_swi_handler(void)
{
    TC_PREEMPTIBLE(top_irq_work());
}

int main(void)
{
    tc_swi_enable_lowest();
    tc_start();
    board_puts("top_split: ready\n");
    for (;;) {
        top_hot();
        top_outer();
        board_swi_trigger();
        top_rounds++;
#ifdef TOP_RESET_ROUNDS
        if (top_rounds % TOP_RESET_ROUNDS == 0u)
            mcuprof_reset();
#endif
    }
}

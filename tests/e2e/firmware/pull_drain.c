/*
 * pull_drain.c - profiled work in an endless stream of small rounds through
 * a small arc table (ARCS 8), drained by a host many times. The firmware
 * counts its own profiled calls; once the host has drained the tables
 * DRAIN_ROUNDS times it stops calling and prints the count, which must
 * equal the sum of every drained snapshot (arcs, plus the calls made while
 * frozen, which the target counts in lost_calls_frozen).
 *
 * A call is not started while a freeze is requested or still in force
 * (until the tick that serves the release), so nearly every call lands in
 * an arc; one begun just before the request can still meet the frozen
 * state, at most one per freeze.
 */
#include <stdint.h>

#include <mcuprof/image.h>

#include "board.h"
#include "mcuprof.h"

#define DRAIN_ROUNDS 8u

volatile uint32_t sink;
/* Every profiled call the loop made (main's own entry is not recorded:
 * it runs before mcuprof_init). */
volatile uint32_t drain_calls;

__attribute__((noinline)) void d0(void) { sink += 1u; }
__attribute__((noinline)) void d1(void) { sink += 2u; }
__attribute__((noinline)) void d2(void) { sink += 3u; }

static void (*const calls[3])(void) = {d0, d1, d2};

int main(void)
{
    const volatile struct mcuprof_header *h = mcuprof_image();
    uint32_t gen0, k = 0;

    mcuprof_init();
    if (mcuprof_sampler_start(BOARD_TIMER_HZ, 10000u) != 0) {
        board_puts("pull_drain: cannot start the sampler\n");
        return 1;
    }
    mcuprof_start();
    gen0 = h->generation;
    board_puts("pull_drain: running\n");
    while (h->generation - gen0 < DRAIN_ROUNDS) {
        if (h->freeze_request != 0u || (h->state & MCUPROF_STATE_FROZEN_Msk))
            continue;
        calls[k++ % 3u]();
        drain_calls++;
    }
    board_puts("EXPECT-CALLS ");
    board_put_u32(drain_calls);
    board_putc('\n');
    for (;;)
        __asm volatile("wfi" ::: "memory");
}

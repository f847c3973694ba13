/*
 * ctl_loop.c - profiled calls without end, and a heartbeat on the console
 * after every round, for a host that switches profiling off and on from
 * outside (mcuprof ctl): the heartbeat shows the firmware kept calling
 * while the profile stood still. After its own mcuprof_start() the
 * firmware never touches the profile again.
 *
 * Each round calls ctl_a and ctl_b ROUND_CALLS times each from ctl_round.
 */
#include <stdint.h>

#include "board.h"
#include "mcuprof.h"

#define ROUND_CALLS 2000u

volatile uint32_t sink;

__attribute__((noinline)) void ctl_a(void) { sink += 1u; }
__attribute__((noinline)) void ctl_b(void) { sink += 2u; }

__attribute__((noinline)) void ctl_round(void)
{
    for (uint32_t i = 0; i < ROUND_CALLS; i++) {
        ctl_a();
        ctl_b();
    }
}

int main(void)
{
    mcuprof_init();
    /* The sampler's tick also serves a host's freeze, which ctl uses. */
    if (mcuprof_sampler_start(BOARD_TIMER_HZ, 10000u) != 0) {
        board_puts("ctl_loop: cannot start the sampler\n");
        return 1;
    }
    mcuprof_start();
    board_puts("ctl_loop: running\n");
    for (uint32_t round = 1;; round++) {
        ctl_round();
        board_puts("ctl_loop: round ");
        board_put_u32(round);
        board_putc('\n');
    }
}

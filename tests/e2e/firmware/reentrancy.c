/*
 * reentrancy.c - interrupts that land inside the call hook and call
 * profiled code themselves must not lose or corrupt a single count.
 *
 * Thread mode calls shared_mid() in a tight loop, so a large part of the
 * time is spent inside the hook (the profile shows it); the sampler runs at
 * 50 kHz and its chain calls shared_mid() on every tick, the same arc
 * (shared_mid -> shared_leaf) from the same call site. A hook that updated
 * a count non-atomically would lose some of those calls; the expected count
 * is the loop's calls plus the ticks, exactly, with nothing lost.
 */
#include <stdint.h>

#include "board.h"
#include "expect_lines.h"
#include "mcuprof.h"

#define RATE_HZ 50000u
#define LOOP_CALLS 100000u

volatile uint32_t sink;
static volatile uint32_t ticks;
static volatile uint8_t running;

__attribute__((noinline)) void shared_leaf(void)
{
    sink++;
}

__attribute__((noinline)) void shared_mid(void)
{
    shared_leaf();
}

__attribute__((noinline)) void tick_work(void)
{
    shared_mid();
}

void mcuprof_sample_isr_chain(void)
{
    if (running) {
        ticks++;
        tick_work();
    }
}

__attribute__((noinline)) void loop(void)
{
    for (uint32_t i = 0; i < LOOP_CALLS; i++)
        shared_mid();
}

int main(void)
{
    mcuprof_init();
    if (mcuprof_sampler_start(BOARD_TIMER_HZ, RATE_HZ) != 0)
        return 2;
    mcuprof_start();
    running = 1;
    loop();
    running = 0;
    mcuprof_stop();
    mcuprof_sampler_stop();

    expect_arc("loop", "shared_mid", LOOP_CALLS);
    expect_arc("tick_work", "shared_mid", ticks);
    expect_arc("shared_mid", "shared_leaf", LOOP_CALLS + ticks);
    /* at least 5 % of the samples landed inside the hook's fast path */
    board_puts("EXPECT share mcuprof_hook_record 50 45\n");
    board_puts("EXPECT-INFO lost_calls_reentrant 0\n");
    board_puts("EXPECT-INFO lost_arcs_table_full 0\n");
    return mcuprof_write_semihosting("mcuprof.img") == 0 ? 0 : 1;
}

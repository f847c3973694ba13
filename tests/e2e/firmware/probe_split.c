/*
 * probe_split.c - an endless workload whose split of the time is known,
 * for sampling the PC from the host through the debug link (`mcuprof
 * sample`, tests/sample). Every round, in units of 0.1 ms measured on
 * the board's clock (TC_PERIOD):
 *   thread_work        50, interrupts enabled
 *   masked_work        20, interrupts masked (a driver's critical section)
 *   board_swi_handler  30, an interrupt the sampler cannot preempt: on
 *                      Cortex-M at its reset priority, SysTick's own (its
 *                      samples are held off and binned nowhere); on RISC-V
 *                      a trap handler, which runs with interrupts masked
 *                      (charged to the trap's way in)
 * and thread_work calls leaf() LEAF_CALLS times a round (arcs to count,
 * too few to take time). The shares of the time are 50, 20 and 30 %,
 * whatever the rate of the host's samples; the target's own sampler runs
 * at SAMPLER_HZ (10 Hz unless defined). The firmware prints "ready" once
 * profiling runs, and never ends. With PROBE_RAM_CODE, thread_work runs
 * from RAM (in .data, copied there by the startup code), as code that
 * must not wait on flash does.
 */
#include "time_common.h"

#define THREAD_TICKS (50u * TC_PERIOD)
#define MASKED_TICKS (20u * TC_PERIOD)
#define ISR_TICKS (30u * TC_PERIOD)
#define LEAF_CALLS 10u
#ifndef SAMPLER_HZ
#define SAMPLER_HZ 10u
#endif

volatile uint32_t probe_rounds, probe_sink;

__attribute__((noinline)) void leaf(void)
{
    probe_sink++;
}

#ifdef PROBE_RAM_CODE
#define THREAD_PLACE __attribute__((section(".data.ram_code")))
#else
#define THREAD_PLACE
#endif

__attribute__((noinline)) THREAD_PLACE void thread_work(void)
{
    for (uint32_t i = 0; i < LEAF_CALLS; i++)
        leaf();
    TC_SPIN_FOR(THREAD_TICKS);
}

__attribute__((noinline)) void masked_work(void)
{
    tc_irq_mask();
    TC_SPIN_FOR(MASKED_TICKS);
    tc_irq_unmask();
}

void board_swi_handler(void)
{
    TC_SPIN_FOR(ISR_TICKS);
}

int main(void)
{
    board_swi_enable(); /* at its reset priority */
    /* A slow sampler: its tick answers the host's freeze. Under QEMU the
     * host's samples follow host time, and an interrupt costs QEMU more
     * host time than the guest time it takes (at 10 kHz thread_work
     * reads 66 % for 50), as does a tick pending while interrupts are
     * masked (at 100 Hz masked_work reads 28 % for 20): at 10 Hz a round
     * sees a tick once in ten. */
    tc_start_at(SAMPLER_HZ);
    board_puts("probe_split: ready\n");
    for (;;) {
        thread_work();
        masked_work();
        board_swi_trigger();
        probe_rounds++;
    }
}

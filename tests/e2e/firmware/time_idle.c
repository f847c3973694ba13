/*
 * time_idle.c - a core that waits for interrupts: the main loop spins,
 * then sleeps in WFI until a stretch of time has passed on the board's
 * clock; every interrupt that wakes it early (here the sampler's) finds
 * the condition false and it sleeps again, as idle loops do. Samples that
 * find the core waiting (the instruction before the PC is WFI) are counted
 * as idle in the context table; their share must be the share of time
 * the firmware measured itself, waiting, with the board's clock.
 *
 * The last wake of each wait is a sample (nothing else wakes the core
 * here): each wait lasts its stretch plus the time to the next sample
 * (0.58 of a period on average, with the runtime's dither) but holds one
 * sample more than its stretch in periods, so the idle share reads about
 * 1 % (relative) high with waits of 40 periods. A wait ended by an
 * interrupt of its own has no such bias.
 */
#include "time_common.h"

#define ROUNDS 250u
#define WORK_LOOPS 20000u             /* 40,000 instructions: 13 periods at 31 MHz */
#define WAIT_TICKS (40u * TC_PERIOD) /* 40 sampler periods */

__attribute__((noinline)) void work_spin(uint32_t n) { SPIN_LOOP(n); }

/* Returns the clock ticks it waited. */
__attribute__((noinline)) uint32_t idle_wait(void)
{
    uint32_t t0 = tc_clock(), t;
    while ((t = tc_clock()) - t0 < WAIT_TICKS)
        __asm__ volatile("wfi" ::: "memory"); /* the same mnemonic on both */
    return t - t0;
}

int main(void)
{
    uint64_t idle = 0;

    tc_start();
    uint32_t t0 = tc_clock();
    for (uint32_t r = 0; r < ROUNDS; r++) {
        work_spin(WORK_LOOPS);
        idle += idle_wait();
    }
    uint32_t total = tc_clock() - t0;
    tc_finish();

    /* Periods, not samples: a core that sleeps through sampler periods
     * (a timer stopped in deep sleep) has them counted as missed and,
     * ending in a waiting core's sample, as idle. */
    uint32_t taken = tc_header()->samples_taken;
    uint32_t periods = taken + tc_header()->missed_periods;
    uint32_t idle_samples = tc_context_samples(MCUPROF_CTX_IDLE);
    uint32_t slept = idle_samples + tc_context_samples(MCUPROF_CTX_IDLE_MISSED);
    uint32_t elapsed = total / TC_PERIOD;
    board_puts("periods elapsed ");
    board_put_u32(elapsed);
    board_puts(", counted ");
    board_put_u32(periods);
    board_putc('\n');
    if (periods + elapsed / 100u >= elapsed) {
        /* the sampler's timer kept time while the core slept */
        tc_check_share("idle", slept, periods, idle, total);
        tc_check_share("thread", tc_context_samples(MCUPROF_CTX_THREAD), periods, total - idle, total);
        tc_expect_share("idle_wait", idle, total);
        tc_expect_share("work_spin", total - idle, total);
    } else {
        /* It lost periods that no clock can attribute (QEMU's SysTick
         * during WFI does): the time truth cannot be checked, only that
         * the context table and the histogram agree on the samples taken. */
        board_puts("the sampler timer lost periods while the core slept: checking samples only\n");
        if (idle_samples == 0)
            tc_fail("no sample was counted idle");
        /* the periods the clock saw missed are charged to the waiting
         * PC's bin and counted idle-missed in the context table */
        tc_expect_share("idle_wait", slept, periods);
    }
    return 0;
}

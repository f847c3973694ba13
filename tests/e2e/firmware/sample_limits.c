/*
 * sample_limits.c - samples that cannot be binned are counted, never lost:
 *   - a spin loop inside one 16-byte bin takes more than 65535 samples:
 *     the bin wraps and the spill table counts the carry, nothing is lost;
 *     built with a one-entry spill table (SPILL_FULL, sample_limits_full),
 *     a second such loop finds the table full: its bin stops at 65535 and
 *     the rest go to lost_samples_saturated and the table's lost;
 *   - code running from RAM, outside every profiled range, lands in
 *     lost_samples_out_of_range.
 * The sampler runs at 50 kHz (a sample every ~625 instructions under the
 * tests' -icount shift=5). The firmware counts every tick itself (in
 * mcuprof_sample_isr_chain), so the test can check that samples_taken is
 * exact, that the out-of-range count is exactly the ticks spent in RAM, and
 * that every sample is either in a bin or in a loss counter.
 */
#include <stdint.h>

#include "board.h"
#include "mcuprof.h"
#include "mcuprof/image.h"
#include "spin.h"
#include "time_common.h" /* tc_irq_mask(), tc_irq_unmask(), tc_expect_info() */

#define RATE_HZ 50000u
#define SAT_LOOPS 40000000u /* 80 M instructions: ~128000 samples */
#define RAM_LOOPS 5000000u

static volatile uint32_t ticks;     /* every sample */
static volatile uint32_t ram_ticks; /* samples while ram_spin runs */
static volatile uint8_t in_ram;

/* Counts the ticks the runtime counted: those while sampling was on. The
 * state cannot change during the tick (it changes with interrupts
 * masked), so this agrees with the sample the tick just took, even for a
 * tick that lands between mcuprof_stop() and mcuprof_sampler_stop(). */
void mcuprof_sample_isr_chain(void)
{
    const struct mcuprof_header *h = mcuprof_image();
    if (!(h->state & MCUPROF_STATE_SAMPLING_Msk))
        return;
    ticks++;
    if (in_ram)
        ram_ticks++;
}

/* The loop starts on a 16-byte boundary and is 4 to 8 bytes long: one bin. */
__attribute__((noinline)) void saturate(uint32_t n)
{
    SPIN_LOOP_ALIGNED(n);
}

#if defined(SPILL_FULL)
__attribute__((noinline)) void saturate_too(uint32_t n)
{
    SPIN_LOOP_ALIGNED(n);
}
#endif

/* Runs from RAM (.data is copied there at boot). Not instrumented: a call
 * from RAM to the hook in flash would need a linker veneer. Entered and
 * left with interrupts masked, so that no tick lands between a change of
 * in_ram and the PC crossing into or out of RAM: a tick held off by the
 * mask is taken right after the unmask, in RAM with in_ram set, or back
 * in flash with it clear. */
__attribute__((section(".data.ram_spin"), noinline, no_instrument_function)) void ram_spin(uint32_t n)
{
    in_ram = 1;
    tc_irq_unmask();
    SPIN_LOOP(n);
    tc_irq_mask();
    in_ram = 0;
}

int main(void)
{
    mcuprof_init();
    if (mcuprof_sampler_start(BOARD_TIMER_HZ, RATE_HZ) != 0)
        return 2;
    mcuprof_start();
    saturate(SAT_LOOPS);
#if defined(SPILL_FULL)
    saturate_too(SAT_LOOPS / 4u * 3u); /* ~96000 samples; the one spill entry is saturate()'s */
#endif
    tc_irq_mask();
    ram_spin(RAM_LOOPS);
    tc_irq_unmask();
    mcuprof_stop();
    mcuprof_sampler_stop();

    tc_expect_info("samples_taken", ticks);
    tc_expect_info("lost_samples_out_of_range", ram_ticks);
#if defined(SPILL_FULL)
    /* Every saturated sample is one the full table could not carry; the
     * host must report the counts the target holds. */
    const struct mcuprof_header *h = mcuprof_image();
    const struct mcuprof_ext *spill = tc_ext(MCUPROF_EXT_SPILL);
    if (!spill || spill->capacity != 1 || spill->used != 1 || spill->lost == 0 ||
        spill->lost != h->lost_samples_saturated)
        tc_fail("the full spill table did not count what it lost");
    tc_expect_info("lost_samples_saturated", h->lost_samples_saturated);
    board_puts("EXPECT-INFO saturated-bins 1\n");
#else
    board_puts("EXPECT-INFO lost_samples_saturated 0\n");
    board_puts("EXPECT-INFO saturated-bins 0\n");
#endif
    board_puts("EXPECT-INFO samples-accounted yes\n");
    return mcuprof_write_semihosting("mcuprof.img") == 0 ? 0 : 1;
}

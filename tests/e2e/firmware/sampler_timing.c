/*
 * sampler_timing.c - the sampler's timing, checked by the firmware itself
 * against the board's clock (board_clock_now(), a timer counting at
 * BOARD_TIMER_HZ), with the runtime as built by default (periods dithered
 * over the whole period):
 *   - each bad request returns its own error code and starts nothing;
 *   - the image records the mean period and the dither;
 *   - the periods do vary, and the mean rate is exact: over N periods of
 *     the timer, N samples +-1;
 *   - a masked stretch of known length is counted in missed_periods, within
 *     one period (RISC-V: mtime; Cortex-M: the board's clock registered with
 *     mcuprof_sampler_set_clock()), and then samples + missed periods
 *     account for every period;
 *   - without a clock a Cortex-M under QEMU (no DWT cycle counter) says it
 *     cannot tell: missed_source NONE, nothing counted;
 *   - mcuprof_reset() zeroes missed_periods.
 * Prints "ok ..." or "FAIL ..." per check and exits 1 on any failure; the
 * image it writes is then read by check_firmware.sh.
 */
#include <stdint.h>

#include "board.h"
#include "mcuprof.h"
#include "mcuprof/image.h"
#include "spin.h"

#define RATE_HZ 10000u
#define PERIOD (BOARD_TIMER_HZ / RATE_HZ)
#define RUN_PERIODS 2000u
/* Samples +- this over RUN_PERIODS. On QEMU's microbit SysTick runs 0.09 %
 * slow against TIMER0 once it interrupts, with a fixed period as well as a
 * dithered one (measured: 1998 samples in 2000 periods either way), so
 * Cortex-M is allowed 1 + 0.1 %; mtime is the clock itself. */
#if defined(__arm__)
#define RATE_SLACK (1 + (int32_t)RUN_PERIODS / 1000)
#else
#define RATE_SLACK 1
#endif
/* not a whole number of periods, so no check sits on a boundary */
#define MASKED_TICKS (37u * PERIOD + PERIOD / 2u)

static int failures;
static volatile uint32_t ticks;              /* samples, counted by the tick itself */
static volatile uint32_t last_at, shortest, longest; /* board clock at each tick */

void mcuprof_sample_isr_chain(void)
{
    uint32_t now = board_clock_now();
    if (ticks != 0u) {
        uint32_t gap = now - last_at;
        if (gap < shortest)
            shortest = gap;
        if (gap > longest)
            longest = gap;
    }
    last_at = now;
    ticks++;
}

__attribute__((noinline)) void work(uint32_t n)
{
    SPIN_LOOP(n);
}

static const volatile struct mcuprof_header *header(void)
{
    return (const volatile struct mcuprof_header *)mcuprof_image();
}

static void irq_mask(void)
{
#if defined(__arm__)
    __asm__ volatile("cpsid i" ::: "memory");
#else
    __asm__ volatile("csrci mstatus, 8" ::: "memory");
#endif
}

static void irq_unmask(void)
{
#if defined(__arm__)
    __asm__ volatile("cpsie i" ::: "memory");
#else
    __asm__ volatile("csrsi mstatus, 8" ::: "memory");
#endif
}

static void wait_ticks(uint32_t n)
{
    uint32_t start = board_clock_now();
    while (board_clock_now() - start < n) {
    }
}

static void put_int(int32_t v)
{
    if (v < 0) {
        board_putc('-');
        v = -v;
    }
    board_put_u32((uint32_t)v);
}

static void check(int ok, const char *what, int32_t got, int32_t want)
{
    board_puts(ok ? "ok   " : "FAIL ");
    board_puts(what);
    board_puts(": ");
    put_int(got);
    board_puts(" (want ");
    put_int(want);
    board_puts(")\n");
    if (!ok)
        failures++;
}

static void check_error(const char *what, uint32_t timer_hz, uint32_t rate_hz, int want)
{
    uint32_t before = header()->samples_taken;
    int got = mcuprof_sampler_start(timer_hz, rate_hz);
    check(got == want, what, got, want);
    wait_ticks(4u * PERIOD);
    check(header()->samples_taken == before, "  and no sample taken",
          (int32_t)(header()->samples_taken - before), 0);
}

static void bad_input(void)
{
    check_error("rate 0", BOARD_TIMER_HZ, 0u, MCUPROF_ERR_RATE);
    check_error("rate above the timer", BOARD_TIMER_HZ, BOARD_TIMER_HZ + 1u, MCUPROF_ERR_RATE);
#if defined(__arm__)
    /* SysTick: 24 bits, and a dither that needs 128 ticks a period */
    check_error("period above 2^24 (SysTick)", BOARD_TIMER_HZ, 1u, MCUPROF_ERR_PERIOD);
    check_error("period too short to dither (SysTick)", BOARD_TIMER_HZ, BOARD_TIMER_HZ / 100u,
                MCUPROF_ERR_JITTER);
#else
    /* mtime: a period plus its dither beyond 32 bits; 1 tick: nothing to dither */
    check_error("period above 2^32 (mtime)", 0xFFFFFFFFu, 1u, MCUPROF_ERR_PERIOD);
    check_error("period too short to dither (mtime)", BOARD_TIMER_HZ, BOARD_TIMER_HZ,
                MCUPROF_ERR_JITTER);
#endif
}

/* Run RUN_PERIODS periods: the samples they take, against the clock. */
static void mean_rate(void)
{
    ticks = 0;
    shortest = UINT32_MAX;
    longest = 0;
    while (ticks < 2u) {
    }
    uint32_t t0 = ticks, c0 = board_clock_now();
    wait_ticks(RUN_PERIODS * PERIOD);
    uint32_t t1 = ticks, c1 = board_clock_now();
    int32_t want = (int32_t)((c1 - c0 + PERIOD / 2u) / PERIOD);
    int32_t got = (int32_t)(t1 - t0);
    check(got - want <= RATE_SLACK && want - got <= RATE_SLACK, "samples over the periods that passed",
          got, want);
    check(shortest < PERIOD / 4u, "shortest period well below the mean", (int32_t)shortest,
          (int32_t)PERIOD / 4);
    check(longest > PERIOD + PERIOD / 2u, "longest period well above the mean", (int32_t)longest,
          (int32_t)(PERIOD + PERIOD / 2u));
}

/* A masked stretch of MASKED_TICKS: the periods it swallowed are counted,
 * and samples + missed periods account for the time. */
static void masked_stretch(uint8_t source)
{
    wait_ticks(10u * PERIOD);
    uint32_t m0 = header()->missed_periods;
    uint32_t t0 = ticks, c0 = board_clock_now();
    wait_ticks(5u * PERIOD);
    irq_mask();
    wait_ticks(MASKED_TICKS);
    irq_unmask();
    wait_ticks(5u * PERIOD);
    uint32_t t1 = ticks, c1 = board_clock_now();
    int32_t missed = (int32_t)(header()->missed_periods - m0);
    check(header()->missed_source == source, "missed_source", header()->missed_source, source);
    /* the late sample was due 0 to 2 periods into the stretch */
    int32_t most = (int32_t)(MASKED_TICKS / PERIOD);
    check(missed >= most - 2 && missed <= most, "missed periods of the masked stretch", missed, most);
    int32_t want = (int32_t)((c1 - c0 + PERIOD / 2u) / PERIOD);
    int32_t got = (int32_t)(t1 - t0) + missed;
    check(got - want <= 1 && want - got <= 1, "samples + missed over the periods that passed", got,
          want);
    /* With the sampler stopped: mcuprof_reset() itself masks interrupts
     * while it zeroes the tables, which a running sampler counts. */
    mcuprof_sampler_stop();
    mcuprof_reset();
    check(header()->missed_periods == 0u, "mcuprof_reset zeroes missed_periods",
          (int32_t)header()->missed_periods, 0);
}

int main(void)
{
    (void)board_clock_now(); /* start the clock */
    mcuprof_init();
    mcuprof_start();
    bad_input();

#if defined(__arm__)
    /* No clock (the board registered its own: taken back), and QEMU
     * models no cycle counter: SysTick alone cannot tell missed periods,
     * and says so. */
    check(mcuprof_sampler_set_clock(0) == MCUPROF_OK, "no clock", 0, 0);
    check(mcuprof_sampler_start(BOARD_TIMER_HZ, RATE_HZ) == MCUPROF_OK, "start without a clock", 0, 0);
    mean_rate();
    wait_ticks(10u * PERIOD);
    uint32_t m0 = header()->missed_periods;
    irq_mask();
    wait_ticks(MASKED_TICKS);
    irq_unmask();
    check(header()->missed_source == MCUPROF_MISSED_NONE, "missed_source without a clock",
          header()->missed_source, MCUPROF_MISSED_NONE);
    check(header()->missed_periods == m0, "nothing counted without a clock",
          (int32_t)(header()->missed_periods - m0), 0);
    check(mcuprof_sampler_set_clock(board_clock_now) == MCUPROF_ERR_RUNNING,
          "set_clock while running", 0, 0);
    mcuprof_sampler_stop();
    check(mcuprof_sampler_set_clock(board_clock_now) == MCUPROF_OK, "set_clock", 0, 0);
    const uint8_t source = MCUPROF_MISSED_CLOCK;
#else
    const uint8_t source = MCUPROF_MISSED_MTIME;
#endif
    check(mcuprof_sampler_start(BOARD_TIMER_HZ, RATE_HZ) == MCUPROF_OK, "start", 0, 0);
    check(header()->timer_period == PERIOD, "timer_period", (int32_t)header()->timer_period,
          (int32_t)PERIOD);
    check(header()->jitter_percent == 100u, "jitter_percent", header()->jitter_percent, 100);
    check(header()->sample_rate_hz == RATE_HZ, "sample_rate_hz", (int32_t)header()->sample_rate_hz,
          (int32_t)RATE_HZ);
    mean_rate();
    masked_stretch(source);

    /* something for the histogram after the reset */
    check(mcuprof_sampler_start(BOARD_TIMER_HZ, RATE_HZ) == MCUPROF_OK, "start again", 0, 0);
    work(200000u);
    mcuprof_stop();
    mcuprof_sampler_stop();
    board_puts("EXPECT-INFO samples-accounted yes\n");
    if (failures) {
        board_puts("sampler_timing: ");
        board_put_u32((uint32_t)failures);
        board_puts(" checks failed\n");
        return 1;
    }
    return mcuprof_write_semihosting("mcuprof.img") == 0 ? 0 : 1;
}

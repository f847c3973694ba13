/*
 * sample_timing.c - the sampler's schedule and missed-period count, the
 * parts that are the same on every architecture (see sample_timing.h).
 */
#include "sample_timing.h"

#include "late.h"
#include "mcuprof.h"
#include "mcuprof_layout.h"

struct mcuprof_timing mcuprof_timing;

/* J = P * percent / 100 without overflowing 32 bits. */
MCUPROF_NOINSTR static uint32_t jitter_of(uint32_t period)
{
    uint32_t pct = MCUPROF_CFG_JITTER_PERCENT;
    return period / 100u * pct + period % 100u * pct / 100u;
}

MCUPROF_NOINSTR int mcuprof_timing_start(uint32_t timer_hz, uint32_t rate_hz,
                                          const struct mcuprof_timer_limits *limits)
{
    struct mcuprof_timing *t = &mcuprof_timing;
    struct mcuprof_header *h = &mcuprof_region.header;

    if (rate_hz == 0u || rate_hz > timer_hz)
        return MCUPROF_ERR_RATE;
    uint32_t period = timer_hz / rate_hz;
    uint32_t jitter = jitter_of(period);
    /* the longest period handed out is P + (J - 1) - 0 */
    uint64_t longest = (uint64_t)period + (jitter ? jitter - 1u : 0u);
    if (period < limits->min_period || longest > limits->max_period)
        return MCUPROF_ERR_PERIOD;
    /* Below 2 * min_gap the bound on short periods would move many samples;
     * below 2 ticks of jitter there is nothing to dither. */
    if (MCUPROF_CFG_JITTER_PERCENT != 0 && (jitter < 2u || period / 2u < limits->min_gap))
        return MCUPROF_ERR_JITTER;

    if (jitter == 0u)
        jitter = 1u; /* offsets in [0, 1): always 0 */
    uint32_t mask = 0;
    while (mask < jitter - 1u)
        mask = mask << 1 | 1u;
    t->jitter = jitter;
    t->mask = mask;
    t->slack = period - limits->min_gap;
    t->rng = MCUPROF_CFG_JITTER_SEED;
    t->offset = 0;
    /* Late by an eighth of a period or more, and more than the sampler's
     * own interrupt can delay the next tick: a sample held off less than
     * that lands close to where it was due. */
    uint32_t defer = period / 8u;
    if (defer < limits->min_defer)
        defer = limits->min_defer;
    if (defer < 2u)
        defer = 2u;
    t->defer = defer;

    mcuprof_irq_state_t s = mcuprof_port_irq_save();
    h->missed_periods = 0;
    h->deferred_samples = 0;
    h->missed_source = MCUPROF_MISSED_NONE;
    h->timer_period = period;
    h->jitter_percent = MCUPROF_CFG_JITTER_PERCENT;
    mcuprof_port_irq_restore(s);
    mcuprof_late_start(defer);
    /* The rate actually programmed, rounded to the nearest hertz. */
    uint32_t rate = timer_hz / period, rest = timer_hz % period;
    mcuprof_set_sample_rate(rest >= period - rest ? rate + 1u : rate);
    t->period = period;
    return MCUPROF_OK;
}

MCUPROF_NOINSTR void mcuprof_timing_stop(void)
{
    mcuprof_timing.period = 0;
}

MCUPROF_NOINSTR void mcuprof_timing_set_source(uint8_t source)
{
    mcuprof_region.header.missed_source = source;
}

MCUPROF_NOINSTR int mcuprof_sampler_set_clock(uint32_t (*now)(void))
{
    if (mcuprof_timing.period != 0u)
        return MCUPROF_ERR_RUNNING;
    mcuprof_timing.clock = now;
    return MCUPROF_OK;
}

/* late / P, on the rare late path only. A 32-bit quotient divides in 32
 * bits (a libgcc call on ARMv6-M, which has no divider); a longer one (a
 * 64-bit mtime stalled for more than 2^32 ticks) by shift and subtract,
 * so no 64-bit division routine is linked for it. */
uint32_t mcuprof_missed_pending;

MCUPROF_NOINSTR uint64_t mcuprof_timing_missed(uint64_t late)
{
    uint32_t period = mcuprof_timing.period;
    uint64_t k;
    if ((late >> 32) == 0u) {
        k = (uint32_t)late / period;
    } else {
        uint64_t rem = 0;
        k = 0;
        for (int bit = 63; bit >= 0; bit--) {
            rem = rem << 1 | ((late >> bit) & 1u);
            k <<= 1;
            if (rem >= period) {
                rem -= period;
                k |= 1u;
            }
        }
    }
    return k;
}

MCUPROF_NOINSTR int mcuprof_timing_late(uint64_t late, uintptr_t pc)
{
    return mcuprof_late_sample(pc, late < mcuprof_timing.period ? 0u : mcuprof_timing_missed(late));
}

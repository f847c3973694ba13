/*
 * sample_timing.h - when the sampler samples: the dithered ("stratified")
 * schedule and the count of missed periods, for every architecture. The
 * architecture's timer code (cortex-m/port.c, riscv/mtimer.c) only programs
 * its timer with what these functions compute; see common/mcuprof_port.h.
 *
 * Sample n is due at n * P + u_n, u_n uniform in [0, J): one sample in each
 * slot of P ticks, anywhere in it. A timer that counts periods (SysTick)
 * gets P + u_n - u_{n-1}; one with an absolute compare (mtimecmp) gets
 * slot + u_n. Either way the mean rate is exact at all times, not just on
 * average, and no instant is favoured, whatever the code does in step with
 * the timer.
 */
#ifndef MCUPROF_SAMPLE_TIMING_H
#define MCUPROF_SAMPLE_TIMING_H

#include <stdint.h>

#include "mcuprof_config.h"
#include "mcuprof_port.h"

/* What the architecture's timer can do, in timer ticks. */
struct mcuprof_timer_limits {
    uint32_t min_period; /* shortest period it can count */
    uint32_t max_period; /* longest period it can count */
    uint32_t min_gap;    /* shortest period its interrupt keeps up with: a timer
                          * that is reprogrammed per period must be so before
                          * the period ends; 0 for an absolute compare */
    uint32_t min_defer;  /* lateness the sampler's own interrupt can cause: a
                          * tick due while the one before still runs (short
                          * dithered periods) comes this late; a deferral
                          * threshold below it would count the sampler as
                          * something holding itself off */
};

struct mcuprof_timing {
    uint32_t period;          /* P, the mean period in timer ticks; 0: stopped */
    uint32_t jitter;          /* J: offsets lie in [0, J); at least 1 */
    uint32_t mask;            /* 2^k - 1 >= J - 1: a draw keeps these bits */
    uint32_t slack;           /* P - min_gap: how far an offset may fall below
                               * the previous one */
    uint32_t rng;             /* xorshift32 state */
    uint32_t offset;          /* u of the last period handed out */
    uint32_t defer;           /* the deferral threshold: a sample this many
                               * ticks late or later goes the rare way (late.c) */
    int32_t defer_left;       /* a timer that counts a period down (SysTick):
                               * the count at or below which the tick of the
                               * period now running is late by the threshold
                               * (the period - 1 - defer; below 0: never) */
    uint32_t (*clock)(void);  /* mcuprof_sampler_set_clock()'s, or 0 */
};

extern struct mcuprof_timing mcuprof_timing;

/* Check the request against the timer, compute P and J, reset the sequence
 * to its seed and fill the image's sample_rate_hz, timer_period,
 * jitter_percent; zero missed_periods and missed_source. Returns MCUPROF_OK
 * or an MCUPROF_ERR_* (mcuprof.h). */
int mcuprof_timing_start(uint32_t timer_hz, uint32_t rate_hz, const struct mcuprof_timer_limits *limits);

/* The sampler is off: a clock may be registered again. */
void mcuprof_timing_stop(void);

/* Record what measures missed periods (MCUPROF_MISSED_*). */
void mcuprof_timing_set_source(uint8_t source);

/* Periods the sample about to be counted came late by (set by
 * mcuprof_late_sample when it charges them, taken by the context count: a
 * core that slept through them was idle). The architectures compute
 * lateness before they count the sample. */
extern uint32_t mcuprof_missed_pending;

/* late / P: the whole periods a sample `late` ticks late missed. */
uint64_t mcuprof_timing_missed(uint64_t late);

/* The rare part of mcuprof_timing_check(). */
int mcuprof_timing_late(uint64_t late, uintptr_t pc);

/* The next offset u, uniform in [0, J): one xorshift32 step, scaled to
 * [0, J) by the high word of x * J where the core multiplies 32 x 32 into
 * 64 bits in one instruction (MCUPROF_PORT_WIDE_MUL: a bias below
 * J / 2^32, nothing at any real J); elsewhere (ARMv6-M, ARMv8-M Baseline,
 * RISC-V without M: neither a divide nor a wide multiply) rejection of
 * draws at or above J, fewer than 2 draws on average. */
MCUPROF_NOINSTR __attribute__((always_inline)) static inline uint32_t mcuprof_timing_offset(void)
{
    struct mcuprof_timing *t = &mcuprof_timing;
#if MCUPROF_CFG_JITTER_PERCENT == 0
    (void)t;
    return 0;
#elif MCUPROF_PORT_WIDE_MUL
    uint32_t x = t->rng;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    t->rng = x;
    return (uint32_t)(((uint64_t)x * t->jitter) >> 32);
#else
    uint32_t x = t->rng, u;
    do {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        u = x & t->mask;
    } while (u >= t->jitter);
    t->rng = x;
    return u;
#endif
}

/* For a timer that counts periods: the length of the next one, P + u_n -
 * u_{n-1}, never shorter than the timer's min_gap. Where that bound bites,
 * u_n is raised to u_{n-1} - (P - min_gap): only with J > P - min_gap, for
 * about min_gap^2 / (2 J^2) of the samples (0.03 % at P = J = 2500 ticks,
 * min_gap 64), and those move within the first min_gap ticks of their slot;
 * the sum still telescopes. */
MCUPROF_NOINSTR __attribute__((always_inline)) static inline uint32_t mcuprof_timing_next_period(void)
{
    struct mcuprof_timing *t = &mcuprof_timing;
    uint32_t u = mcuprof_timing_offset();
    uint32_t prev = t->offset;
    /* u + slack < 2 P: no overflow for a timer that counts up to 2^31 */
    if (u + t->slack < prev)
        u = prev - t->slack;
    t->offset = u;
    return t->period + u - prev;
}

/* A sample at PC taken `late` ticks after it was due: nothing on the
 * common path (one compare); at least the deferral threshold late, count
 * it as deferred or the periods it missed, and charge them (late.c).
 * Returns 1 when the sample was held off by a handler and must not be
 * binned (it is counted already), else 0. */
MCUPROF_NOINSTR __attribute__((always_inline)) static inline int mcuprof_timing_check(uint64_t late, uintptr_t pc)
{
    if (late < mcuprof_timing.defer)
        return 0;
    return mcuprof_timing_late(late, pc);
}

#endif /* MCUPROF_SAMPLE_TIMING_H */

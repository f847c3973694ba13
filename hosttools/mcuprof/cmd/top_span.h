/*
 * top_span.h - what `mcuprof top` shows of a stretch of time: one
 * interval (a model of what the target counted between two snapshots,
 * model_since.h) or the whole run (every interval added up on the host,
 * so a drain or a reset of the target loses nothing already shown).
 *
 * Per function of the ELF: its self samples (charged as gprof charges
 * bins), its calls (exact, from the arcs) and with call paths its
 * inclusive samples; and the figures every share is of, the time base of
 * calls per second, and every loss, each named apart.
 */
#ifndef MCUPROF_TOP_SPAN_H
#define MCUPROF_TOP_SPAN_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"

/* Contexts or tasks kept by name; more are summed into the last entry. */
#define TOP_PARTS 12
#define TOP_PART_NAME 40

struct top_fn {
    double self;        /* samples charged to it */
    uint64_t calls;     /* calls into it */
    uint64_t incl;      /* samples of the call paths it is on */
};

struct top_part {
    char name[TOP_PART_NAME]; /* "thread", "SysTick", a task's label */
    uint64_t samples;
};

struct top_parts {
    struct top_part p[TOP_PARTS];
    size_t n;
    uint64_t total;     /* what their shares are of: the table's samples, its losses included */
};

struct top_span {
    struct top_fn *fn;          /* nfn, in the ELF's order (model funcs) */
    size_t nfn;
    unsigned intervals;         /* intervals added (1 for an interval) */
    double wall_s;              /* host time between the snapshots */
    uint32_t rate_hz;           /* the sampler's rate, 0 unknown */
    uint64_t periods;           /* sampler periods: samples_taken + measured missed periods */
    uint64_t total;             /* what a self share is of: mp_model_time_seen's taken
                                 * less the samples lost while frozen (top's own cost) */
    uint64_t draws;             /* the samples behind it, for the intervals */
    double outside;             /* samples in no function */
    uint64_t samples_taken;
    uint64_t lost[MP_LOST_COUNT];
    uint64_t missed;            /* missed_periods (counted only where measurable) */
    int missed_known;           /* the target has a clock that measures them */
    uint64_t deferred;          /* samples late by less than a period */
    int deferred_known;
    uint64_t held;              /* samples held off by a handler the sampler cannot preempt */
    uint64_t table_lost;        /* samples the context, task or path table had no room for */
    uint64_t saturated_arcs;    /* arcs whose count saturated: their calls a lower bound */
    uint64_t calls;             /* every call of the arcs */
    int has_paths;
    uint64_t path_total;        /* what an inclusive share is of */
    int has_contexts, has_tasks;
    struct top_parts ctx, task;
};

/* S: the figures of M, an interval's model with its functions named
 * (NFN of them), WALL_S seconds long on the host. Reports and returns -1
 * on out of memory. */
int top_span_from(struct top_span *s, const struct mp_model *m, double wall_s);

/* An empty run for NFN functions (-1 on out of memory, reported). */
int top_span_init(struct top_span *s, size_t nfn);

/* Empty S again, its functions kept. */
void top_span_clear(struct top_span *s);

/* Add interval I into the run RUN (the same functions). */
void top_span_add(struct top_span *run, const struct top_span *i);

void top_span_free(struct top_span *s);

/* Seconds on the target's own clock, not frozen: the sampler's periods
 * less those lost while frozen, at its rate; without a rate or a sample,
 * the host's. */
double top_span_seconds(const struct top_span *s);

/* Every call lost: the arc table full, re-entered, frozen. */
uint64_t top_span_calls_lost(const struct top_span *s);
/* Every sample lost: out of range, saturated, frozen (binned nowhere;
 * table_lost are binned, missing from a split only). */
uint64_t top_span_samples_lost(const struct top_span *s);

/* A share K of TOTAL in percent, and its 95 % Wilson interval over
 * DRAWS samples. */
double top_share(double k, uint64_t total, uint64_t draws, double *lo, double *hi);

#endif /* MCUPROF_TOP_SPAN_H */

/*
 * timing.h - the time the sampler could not see, said from the model:
 * how long interrupts were masked and where that time was charged, the
 * samples it took late, the time a handler it cannot preempt held it off
 * (binned nowhere), the interrupts it cannot preempt, the clock that
 * measures its lateness, and what a core cannot measure. One set of
 * sentences serves `info`, `report`, the warnings and the pprof comments.
 */
#ifndef MCUPROF_TIMING_H
#define MCUPROF_TIMING_H

#include <stdio.h>

#include "model.h"

/* Receives one sentence (no newline). WARN: it is worth a warning. */
typedef void mp_timing_say(void *ctx, int warn, const char *sentence);

/* Every sentence the model's timing gives, in this order: missed periods
 * and where they were charged, deferred and late samples (charged where
 * interrupts were unmasked, or held off), the time held off by a handler
 * the sampler cannot preempt with the blockers that can (or what else
 * could), what this core cannot measure, a clock dropped, each interrupt
 * the sampler cannot preempt, and the tables' losses. A share above
 * WARN_PCT %, a blocker, a dropped clock or a table's loss is a warning;
 * the rest is information. */
void mp_timing_sentences(const struct mp_model *m, double warn_pct, mp_timing_say *say, void *ctx);

/* The "sampler timing" block of `info` and `report`: the counters, then
 * every sentence; nothing for a profile that measured nothing of it. */
void mp_print_timing(FILE *f, const struct mp_model *m);

/* The sentences that are warnings, through mp_warn (stderr). */
void mp_timing_warn(const struct mp_model *m, double warn_pct);

/* Names of the MCUPROF_TIMING_* bits set in FLAGS, comma separated, into
 * BUF ("none" for 0). */
const char *mp_timing_flag_names(unsigned flags, char *buf, size_t size);

#endif /* MCUPROF_TIMING_H */

/*
 * model_since.h - what a running target counted between two snapshots of
 * its image: the later model minus the earlier one, bins, arcs, every
 * counter and the context, task and call-path tables, so that the
 * difference is itself a model every analysis reads (`mcuprof top`'s
 * intervals).
 *
 * Taken without a drain, every count only grows between two snapshots of
 * one run; a drain (its generation changes) or a restart of the firmware
 * (a count found lower) leaves nothing to subtract from, and is said so
 * instead of giving counts that mean nothing. The late-sample and blocker
 * tables (timing_model.c) stay the later model's: they say where, not how
 * much, and no interval figure reads them.
 */
#ifndef MCUPROF_MODEL_SINCE_H
#define MCUPROF_MODEL_SINCE_H

#include "model.h"

/* What mp_model_since found. */
enum mp_since {
    MP_SINCE_OK = 0,     /* END now holds END - START */
    MP_SINCE_DRAINED,    /* the generation changed: END untouched */
    MP_SINCE_WENT_DOWN,  /* a count went down (a reset, a restart): END untouched */
};

/* Subtract START (an earlier model of the same image, functions not yet
 * attached) from END. Returns an enum mp_since, or -1 when the two are
 * not of one image layout (reported, naming END) or on out of memory;
 * END is changed only with MP_SINCE_OK. */
int mp_model_since(struct mp_model *end, const struct mp_model *start);

/* Make M (a model of an image a host drained right after it was read)
 * what the image holds after the drain (links/snapshot.c): every count
 * 0, the arcs and the call paths gone, the context and task entries
 * kept, generation one more; the earlier model of the next interval. */
void mp_model_drained(struct mp_model *m);

#endif /* MCUPROF_MODEL_SINCE_H */

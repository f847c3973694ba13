/*
 * path_sample.h - the sampler's common case of call paths
 * (MCUPROF_CFG_PATHS > 0), inline in each architecture's timer interrupt
 * like the rest of the sample (sample_body.h): the innermost live frame's
 * path is one the sampler has already found, so the sample is counted
 * there without a walk, a hash or a compare of every frame.
 *
 * Each frame of the shadow stack keeps the entry of the last path sampled
 * with a callee of it innermost (shadow_stack.h, `child`); the outermost
 * frame's is mcuprof_path_root_child. The frames below a frame cannot
 * change while it stays on the stack, so that entry holds them all: the
 * path of a sample whose innermost frame F sits on a frame P is P's entry
 * when the entry's innermost frame is F's function, however many calls
 * came and went in between (the callee's own frame is a new one at each
 * call: a cache in it would be lost at every call). The hook pays one
 * store a call for this (the push writes 0); mcuprof_path_sample()
 * (path_table.c) looks up the other samples and fills the cache.
 */
#ifndef MCUPROF_PATH_SAMPLE_H
#define MCUPROF_PATH_SAMPLE_H

#include <stdint.h>

#include "mcuprof_layout.h"
#include "mcuprof_port.h"
#include "paths.h"
#include "shadow_stack.h"

#if MCUPROF_CFG_PATHS > 0
/* The `child` of the frame below the outermost one: the entry of the
 * last path of one frame sampled (path_table.c). */
extern struct mcuprof_path_entry *mcuprof_path_root_child;

/* The frame is still live at the sampled SP (on STACK, with LR the
 * interrupted lr, 0 when not known): the walk's tests, for one frame. */
MCUPROF_NOINSTR __attribute__((always_inline)) static inline int mcuprof_frame_live_at(const struct mcuprof_frame *f,
                                                                                       uintptr_t sp, uint32_t stack,
                                                                                       uintptr_t lr)
{
    if (!frame_on_stack(f, stack) || f->sp < sp || frame_overwritten(f))
        return 0;
    /* A function without a frame leaves nothing on the stack: while it
     * runs lr still holds its return address (it cannot save lr); once
     * another lr is seen, it has returned. */
    return !(MCUPROF_PORT_FRAMELESS && f->top == f->sp && f->sp == sp && lr != 0u && lr != f->frompc);
}

/* Entry E, cached under the frame below the innermost frame F of a path
 * of N frames from FIRST, is that path: its frames below F are the cache
 * holder's (they have not changed since), and its depth is N - FIRST (the
 * holder's place in the stack and the stack's root are fixed while it
 * stays; mcuprof_init() empties the stack with the table, and a host
 * zeroes counts, never removes entries). What remains to compare is F's
 * own function and what the entry holds besides its frames: its flags,
 * and whatever else a path's key comes to hold. */
MCUPROF_NOINSTR __attribute__((always_inline)) static inline int mcuprof_path_cached_is(
    const struct mcuprof_path_entry *e, const struct mcuprof_frame *f, uint32_t n, uint32_t first, uint32_t flags)
{
    return e->frames[n - 1u - first] == f->selfpc && e->h.flags == flags;
}

/* Count the sample at SP (STACK, LR: as for mcuprof_path_sample()) in the
 * path of the innermost frame when it is cached; returns non-zero when
 * mcuprof_path_sample() must do it (that frame has returned, a path not
 * sampled last under its caller, a task switch, a stack being updated).
 * A truncated path (its outermost frames dropped while they are live) is
 * counted here too: both kinds of sample must cost alike, or the one
 * that costs more takes more of the time it samples. */
MCUPROF_NOINSTR __attribute__((always_inline)) static inline int mcuprof_path_count_cached(uintptr_t sp, uint32_t stack,
                                                                                           uintptr_t lr)
{
    const struct mcuprof_shadow_stack *s = &mcuprof_shadow;
    const uint32_t on = MCUPROF_STATE_ARCS_Msk | MCUPROF_STATE_SAMPLING_Msk;
    if ((mcuprof_region.header.state & (on | MCUPROF_STATE_FROZEN_Msk)) != on)
        return 0; /* not counted: nothing to do */
    uint32_t n = s->depth;
    if (s->busy || n == 0u)
        return 1;
#if MCUPROF_CFG_TASKS > 0
    void *const volatile *current = mcuprof_task_watch.current;
    if (current && (uintptr_t)*current != s->owner)
        return 1;
#endif
    const struct mcuprof_frame *f = frame_at(n - 1u);
    if (!mcuprof_frame_live_at(f, sp, stack, lr))
        return 1;
    uint32_t flags = s->cut ? MCUPROF_PATH_CUT : 0u, first = 0;
    if (s->truncated_sp != 0u && s->truncated_sp >= sp) {
        flags |= MCUPROF_PATH_TRUNCATED;
        first = s->rooted;
        if (n <= first)
            return 1; /* nothing left above the root */
    }
    struct mcuprof_path_entry *e = n > 1u ? f[-1].child : mcuprof_path_root_child;
    if (!e || !mcuprof_path_cached_is(e, f, n, first, flags))
        return 1;
    mcuprof_count_saturating(&e->h.samples);
    if (flags & MCUPROF_PATH_TRUNCATED)
        mcuprof_count_saturating(&mcuprof_region.path_ext.invalid);
    return 0;
}
#endif

#endif /* MCUPROF_PATH_SAMPLE_H */

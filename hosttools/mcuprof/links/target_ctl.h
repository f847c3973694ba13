/*
 * target_ctl.h - switch profiling on a running target on or off, zero its
 * tables, or look at its state, under the discipline of a pull
 * (snapshot.h), without any help from the firmware's own code.
 *
 * Freeze (default): ask for a freeze, change the header's state bits
 * while frozen, release. The sampler tick that serves the release applies
 * the new bits to the call hook (mcuprof_apply_hook_mode in
 * target/common/control.c), and the sampler reads them at each tick, so
 * from that tick on nothing is counted (stop) or everything is (start);
 * calls made while frozen are counted in lost_calls_frozen only while the
 * ARCS bit is set, as the hook's slow path does.
 * --halt: stop the core, write the state bits and switch the hook's mode
 * pointer (mcuprof_hook_dispatch, from the ELF) as the runtime would, let
 * the core run. A stop can land inside the hook: a call already past its
 * check of the mode may still add its one count.
 * Reset: the drain of `pull --reset` (snapshot.c), without saving.
 * Release: withdraw a freeze request left behind (a pull or ctl that was
 * killed, or lost its connection while frozen): write 0 to
 * freeze_request and, unless --halt, wait until freeze_ack is 0.
 */
#ifndef MCUPROF_TARGET_CTL_H
#define MCUPROF_TARGET_CTL_H

#include <stdint.h>

#include "hook_syms.h"
#include "snapshot.h"
#include "target_link.h"

enum mp_ctl_op { MP_CTL_START, MP_CTL_STOP, MP_CTL_RESET, MP_CTL_STATUS, MP_CTL_RELEASE };

struct mp_ctl_opts {
    int halt;                        /* stop the core instead of freezing */
    int force;                       /* take over a freeze another host holds */
    unsigned timeout_ms;             /* for the freeze handshake */
    const struct mp_hook_syms *hook; /* required for start and stop with halt */
};

/* The live fields of the header. */
struct mp_ctl_header {
    uint32_t state, freeze_request, freeze_ack, generation, samples_taken, arcs_used;
};

/* Whether the sampler answered a freeze (status). */
enum mp_ctl_sampler {
    MP_CTL_SAMPLER_ANSWERED,   /* it acknowledged and released within the timeout */
    MP_CTL_SAMPLER_SILENT,     /* it did not: why[] says what happened */
    MP_CTL_SAMPLER_NOT_ASKED,  /* --halt, a halted core, or another host holds a freeze */
};

struct mp_ctl_result {
    struct mp_ctl_header before; /* reset: what was zeroed; else as found */
    struct mp_ctl_header after;  /* once the change took effect */
    uint64_t zeroed_calls;       /* reset: the calls in the arcs zeroed */
    enum mp_ctl_sampler sampler;
    unsigned answer_ms;          /* ANSWERED: freeze and release took this long */
    char why[256];               /* SILENT: the freeze's error */
    int core_halted;             /* found halted over a live link: worked on as with --halt */
};

/* Do OP to the image T (located, mp_pull_locate) over L. A freeze held by
 * another host (freeze_request set) is refused unless O->force; status
 * only reports it; release withdraws it. The core is running again afterwards if it was. */
int mp_ctl_run(struct mp_link *l, struct mp_target_image *t, enum mp_ctl_op op, const struct mp_ctl_opts *o,
               struct mp_ctl_result *res);

#endif /* MCUPROF_TARGET_CTL_H */

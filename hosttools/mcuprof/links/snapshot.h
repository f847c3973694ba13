/*
 * snapshot.h - take a consistent copy of the profile image from target
 * memory over a debug link, and optionally drain the target's tables.
 *
 * Default (freeze): write a token to header.freeze_request, wait until the
 * target's sampler tick copies it to freeze_ack (from then on the hook and
 * the sampler leave the tables alone, see target/common/freeze.c), read,
 * write 0 and wait for freeze_ack to return to 0. The core keeps running
 * its own code throughout; over the GDB protocol it is stopped only for the
 * instants memory is accessed.
 * --halt: stop the core, read, let it run again.
 * Drain (reset): while frozen or halted, after reading, hand the snapshot
 * to the caller to be saved (written and flushed to disk), and only then
 * zero the arc records in use, the buckets, the bins, arcs_used, the
 * lost_* counters and samples_taken, and increment generation: nothing is
 * zeroed that exists nowhere else.
 */
#ifndef MCUPROF_SNAPSHOT_H
#define MCUPROF_SNAPSHOT_H

#include <stddef.h>
#include <stdint.h>

#include "image_read.h"
#include "target_link.h"

/* Largest image pulled when its size comes only from its own header (no
 * ELF to bound it): far above any microcontroller's RAM. */
#define MP_PULL_MAX_IMAGE (64u << 20)

struct mp_target_image {
    uint64_t addr;          /* where the image is */
    uint64_t region_size;   /* __mcuprof_end - __mcuprof_start, 0 if unknown */
    uint8_t *data;          /* image_size bytes, the last snapshot (malloc'd) */
    uint32_t size;          /* image_size from the header */
    struct mp_image img;    /* the last snapshot, parsed */
};

struct mp_pull_opts {
    int halt;               /* stop the core instead of freezing */
    int reset;              /* drain after reading */
    unsigned timeout_ms;    /* for the freeze handshake */
    /* With reset: save the snapshot before the drain; a failure (reported)
     * leaves the target untouched. */
    int (*save)(void *ctx, const struct mp_image *img);
    void *save_ctx;
    int force;              /* take over a freeze another host holds */
};

/* Read and validate the header at T->addr (set addr and region_size
 * first); allocates T->data. Nothing is written to the target before the
 * header proved to be a profile image. */
int mp_pull_locate(struct mp_link *l, struct mp_target_image *t);

/* One snapshot into T (data and img), saved and drained if O->reset. A
 * drain that fails after the save is reported as such (one error). A
 * freeze another host holds is refused unless O->force, before anything
 * is written (mp_pull_check_owner). */
int mp_pull_snapshot(struct mp_link *l, struct mp_target_image *t, const struct mp_pull_opts *o);

void mp_pull_free(struct mp_target_image *t);

/* Someone else's freeze (REQUEST, the header's freeze_request, not 0
 * before we asked; ACK its freeze_ack): a pull in progress, or one that
 * ended without its release. Taking it over lets that pull read tables
 * that move, so it is refused (one error naming both words) unless
 * FORCE, which warns at once (mp_warn_now: taken over stays taken over,
 * whatever follows); with HALT the request is then withdrawn, since a
 * halted core is not frozen again by us and nobody would release it (the
 * next sampler tick, if one runs, ends the freeze). Every command that
 * freezes or drains checks this first (pull, ctl). */
int mp_pull_check_owner(struct mp_link *l, const struct mp_target_image *t, uint32_t request, uint32_t ack,
                        int force, int halt);

/* The freeze handshake on its own: ask, and wait until freeze_ack holds
 * the token (on timeout the request is withdrawn and the error suggests
 * --halt); then release: write 0, wait until freeze_ack is 0. The tick
 * that serves the release applies the state bits to the call hook
 * (mcuprof_apply_hook_mode), so a change of state made while frozen
 * takes effect exactly then. */
int mp_pull_freeze(struct mp_link *l, const struct mp_target_image *t, unsigned timeout_ms);
int mp_pull_release(struct mp_link *l, const struct mp_target_image *t, unsigned timeout_ms);

/* Whether a freeze this process asked for may still be set on the target
 * (its request sent and not withdrawn), and its token. */
int mp_pull_freeze_held(uint32_t *token);
/* The target no longer holds it (found clear, or another host's). */
void mp_pull_forget_freeze(void);

/* Who asks for freezes (the endpoint NAME, the command WHO: "pull") and
 * the command CMD that releases one left behind: what a third signal
 * writes while a freeze is held (interrupt.h), and mp_pull_frozen_text. */
void mp_pull_set_release_hint(const char *name, const char *who, const char *cmd);
/* "the target is left frozen: freeze_request at ... holds ...; release it
 * with: CMD", about the freeze held (mp_pull_freeze_held). */
const char *mp_pull_frozen_text(void);

/* A clean-up after a failure or a signal begins (the release of a
 * freeze): the signals caught so far no longer stop it, and it gets two
 * TIMEOUT_MS past the command's deadline (mp_net_grace), once. */
void mp_pull_cleanup_begin(unsigned timeout_ms);
/* Whether one began (a signal since then stops it). */
int mp_pull_cleaning(void);

#endif /* MCUPROF_SNAPSHOT_H */

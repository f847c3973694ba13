#include "snapshot.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bytes.h"
#include "diag.h"
#include "input_kind.h"
#include "drain_ext.h"
#include "interrupt.h"
#include "net.h"

#define OFF(field) offsetof(struct mcuprof_header, field)
/* How long the core runs between two looks at freeze_ack: a few sampler
 * ticks at any usual rate (1-10 kHz). */
#define POLL_MS 2u

static void put32(uint8_t *p, uint32_t v, int big)
{
    unsigned i;

    for (i = 0; i < 4; i++)
        p[big ? 3 - i : i] = (uint8_t)(v >> (8 * i));
}

/* Memory is reachable over links like the GDB protocol only while the core
 * is stopped. */
static int access_begin(struct mp_link *l)
{
    if (!l->live_access && l->running)
        return l->ops->halt(l);
    return 0;
}

static int write32(struct mp_link *l, uint64_t addr, uint32_t v)
{
    uint8_t b[4];

    put32(b, v, l->big);
    if (access_begin(l) < 0)
        return -1;
    return l->ops->write(l, addr, b, 4);
}

static int read32(struct mp_link *l, uint64_t addr, uint32_t *v)
{
    uint8_t b[4];

    if (access_begin(l) < 0 || l->ops->read(l, addr, b, 4) < 0)
        return -1;
    *v = mp_get32(b, l->big);
    return 0;
}

int mp_pull_locate(struct mp_link *l, struct mp_target_image *t)
{
    uint8_t hdr[MCUPROF_HEADER_SIZE];
    uint32_t size;

    t->data = NULL;
    if (access_begin(l) < 0 || l->ops->read(l, t->addr, hdr, sizeof(hdr)) < 0)
        return -1;
    /* The magic states the byte order of every word that follows. */
    if (mp_image_magic_order(hdr, sizeof(hdr))) {
        l->big = mp_image_magic_order(hdr, sizeof(hdr)) == MCUPROF_ORDER_BIG;
        l->order_known = 1;
    } else {
        /* The reader names the bad magic in its own words. */
        return mp_image_parse(&t->img, l->name, hdr, sizeof(hdr));
    }
    size = mp_get32(hdr + OFF(image_size), l->big);
    if (size < MCUPROF_HEADER_SIZE)
        return mp_image_parse(&t->img, l->name, hdr, sizeof(hdr));
    if (t->region_size && size > t->region_size)
        return mp_error(l->name,
                        "image_size 0x%" PRIx32 " is larger than the region __mcuprof_start.."
                        "__mcuprof_end (%" PRIu64 " bytes): not this firmware's image?",
                        size, t->region_size);
    if (size > MP_PULL_MAX_IMAGE)
        return mp_error(l->name, "image_size 0x%" PRIx32 " is more than %u MiB: not a profile image",
                        size, MP_PULL_MAX_IMAGE >> 20);
    t->data = calloc(1, size);
    if (!t->data)
        return mp_error(l->name, "out of memory for a %" PRIu32 "-byte image", size);
    t->size = size;
    /* Validate the whole layout against the header's own size before
     * trusting any offset in it (the tables are still zero here). */
    memcpy(t->data, hdr, sizeof(hdr));
    if (mp_image_parse(&t->img, l->name, t->data, size) < 0)
        goto fail;
    if (t->img.image_addr != t->addr) {
        mp_error(l->name, "the header says image_addr 0x%" PRIx64 " but it was read at 0x%" PRIx64,
                 t->img.image_addr, t->addr);
        goto fail;
    }
    return 0;
fail:
    mp_pull_free(t);
    return -1;
}

void mp_pull_free(struct mp_target_image *t)
{
    free(t->data);
    t->data = NULL;
}

/* Let the core run until freeze_ack holds WANT, or the deadline passes
 * (timeout_ms, or the command's deadline if earlier: *BY_END says which):
 * 0, 1 when it passed. For a freeze (WANT our token) freeze_request is
 * read with it: 2 when it no longer holds the token (*ACK then holds
 * what it holds), as after a firmware that restarted meanwhile (a core
 * left at its reset vector, let run for the sampler to answer) cleared
 * its image. */
static int wait_ack(struct mp_link *l, const struct mp_target_image *t, uint32_t want,
                    unsigned timeout_ms, uint32_t *ack, int *by_end)
{
    uint64_t deadline = mp_net_limit(mp_now_ms() + timeout_ms, by_end);
    uint8_t b[OFF(freeze_ack) + 4 - OFF(freeze_request)];

    for (;;) {
        if (want == 0 ? read32(l, t->addr + OFF(freeze_ack), ack) < 0
                      : access_begin(l) < 0 || l->ops->read(l, t->addr + OFF(freeze_request), b, sizeof(b)) < 0)
            return -1;
        if (want != 0 && mp_get32(b, l->big) != want) {
            *ack = mp_get32(b, l->big);
            return 2;
        }
        if (want != 0)
            *ack = mp_get32(b + (OFF(freeze_ack) - OFF(freeze_request)), l->big);
        if (*ack == want)
            return 0;
        if (mp_now_ms() >= deadline)
            return 1;
        if (!l->live_access && l->ops->resume(l) < 0)
            return -1;
        mp_sleep_ms(POLL_MS);
    }
}

/* The freeze this process asked for and has not withdrawn: set before
 * the request is sent (it may land even if its answer never comes),
 * cleared once 0 is written back. */
static struct {
    int held;
    uint32_t token;
    int release_sent; /* 0 was sent to freeze_request, its answer never came */
} ours;
/* Who holds it and how a user releases it (mp_pull_set_release_hint). */
static char hint_name[272], hint_cmd[400], hint_who[16];
static uint64_t request_at;
static char frozen_text[768], last_words[1100];

static void hold(uint32_t token, uint64_t at)
{
    ours.held = 1;
    ours.token = token;
    ours.release_sent = 0;
    request_at = at;
    snprintf(last_words, sizeof(last_words), "mcuprof: error: %.272s: %s\n", hint_name, mp_pull_frozen_text());
    mp_interrupt_last_words(last_words);
}

static void unhold(void)
{
    ours.held = 0;
    mp_interrupt_last_words(NULL);
}

const char *mp_pull_frozen_text(void)
{
    snprintf(frozen_text, sizeof(frozen_text),
             "the target %s frozen: freeze_request at 0x%" PRIx64 " holds 0x%08" PRIx32 " (this %s's request; "
             "nothing is recorded until it is 0)%s; release it with: %s",
             ours.release_sent ? "may be left" : "is left", request_at, ours.token, hint_who,
             ours.release_sent ? " unless the 0 written to it, never confirmed, arrived" : "",
             hint_cmd[0] ? hint_cmd : "mcuprof ctl release");
    return frozen_text;
}

void mp_pull_set_release_hint(const char *name, const char *who, const char *cmd)
{
    snprintf(hint_name, sizeof(hint_name), "%s", name);
    snprintf(hint_who, sizeof(hint_who), "%s", who);
    snprintf(hint_cmd, sizeof(hint_cmd), "%s", cmd);
}

int mp_pull_freeze_held(uint32_t *token)
{
    if (ours.held && token)
        *token = ours.token;
    return ours.held;
}

void mp_pull_forget_freeze(void)
{
    unhold();
}

static int cleaning; /* a clean-up began: a signal now means "stop it" */

int mp_pull_cleaning(void)
{
    return cleaning;
}

void mp_pull_cleanup_begin(unsigned timeout_ms)
{
    cleaning = 1;
    mp_interrupt_defer();
    /* over the GDB protocol: a stop and the write */
    mp_net_grace(2 * timeout_ms);
}

/* "the deadline (N s, --deadline) passed" or "within N ms". */
static const char *limit_text(int by_end, unsigned timeout_ms)
{
    static char buf[64];

    if (by_end)
        snprintf(buf, sizeof(buf), "before the deadline (%.3g s, --deadline)", mp_net_deadline_seconds());
    else
        snprintf(buf, sizeof(buf), "within %u ms", timeout_ms);
    return buf;
}

static uint32_t new_token(uint32_t avoid)
{
    static uint32_t counter;
    uint32_t token = ((uint32_t)time(NULL) * 2654435761u) ^ (++counter << 20);

    token |= 1u; /* never 0, which means "no request" */
    return token == avoid ? token + 2u : token;
}

static int freeze(struct mp_link *l, const struct mp_target_image *t, unsigned timeout_ms)
{
    uint32_t ack, token;
    uint64_t sends;
    int r, by_end = 0;

    if (read32(l, t->addr + OFF(freeze_ack), &ack) < 0)
        return -1;
    token = new_token(ack);
    if (access_begin(l) < 0)
        return -1;
    sends = mp_net_sends();
    hold(token, t->addr + OFF(freeze_request));
    if (write32(l, t->addr + OFF(freeze_request), token) < 0) {
        /* never sent: the target cannot hold it */
        if (mp_net_sends() == sends)
            unhold();
        return -1;
    }
    r = wait_ack(l, t, token, timeout_ms, &ack, &by_end);
    if (r == 0)
        return 0;
    if (r == 2) {
        /* not ours any more: nothing to withdraw */
        unhold();
        return mp_error(l->name,
                        "freeze_request was cleared (it holds 0x%" PRIx32 ", not this %s's 0x%08" PRIx32
                        ") before the firmware acknowledged it: the firmware restarted meanwhile (a reset?), or "
                        "another host cleared it",
                        ack, hint_who, token);
    }
    if (r > 0) {
        mp_error(l->name,
                 "the target did not acknowledge the freeze %s (freeze_ack 0x%" PRIx32
                 "): the sampler timer must be running to answer (mcuprof_sampler_start), on a core "
                 "that runs (not held in reset, nor halted by another debugger), or use --halt",
                 limit_text(by_end, timeout_ms), ack);
        /* Withdraw the request so the firmware does not freeze later with
         * nobody to release it. */
        mp_pull_cleanup_begin(timeout_ms);
        mp_diag_quiet(1);
        if (write32(l, t->addr + OFF(freeze_request), 0) == 0)
            unhold();
        mp_diag_quiet(0);
    }
    return -1;
}

static int release(struct mp_link *l, const struct mp_target_image *t, unsigned timeout_ms)
{
    uint32_t ack;
    int r, by_end = 0;

    uint64_t sends;

    if (access_begin(l) < 0)
        return -1;
    sends = mp_net_sends();
    if (write32(l, t->addr + OFF(freeze_request), 0) < 0) {
        /* sent, but was it written? */
        if (ours.held && mp_net_sends() > sends)
            ours.release_sent = 1;
        return -1;
    }
    /* From here the firmware releases at its next tick, waited for or not;
     * a signal that came meanwhile ends the command after that wait (one
     * --timeout at most), so that the release is seen through. */
    unhold();
    mp_interrupt_defer();
    r = wait_ack(l, t, 0, timeout_ms, &ack, &by_end);
    if (r > 0)
        return mp_error(l->name,
                        "the target did not acknowledge the release %s (freeze_ack 0x%" PRIx32 ")",
                        limit_text(by_end, timeout_ms), ack);
    return r;
}

static int zero(struct mp_link *l, uint64_t addr, uint64_t len)
{
    static const uint8_t zeros[4096];

    while (len > 0) {
        size_t n = len < sizeof(zeros) ? (size_t)len : sizeof(zeros);

        if (l->ops->write(l, addr, zeros, n) < 0)
            return -1;
        addr += n;
        len -= n;
    }
    return 0;
}

/* Zero what was just read. The counters go first: calls and samples the
 * target counts while frozen land in lost_*_frozen, and the sooner those
 * are zeroed after being read, the fewer can slip in between. */
static int drain(struct mp_link *l, const struct mp_target_image *t)
{
    const struct mp_image *img = &t->img;
    uint8_t gen[4];
    unsigned r;

    if (zero(l, t->addr + OFF(lost_arcs_table_full),
             OFF(samples_taken) + 4 - OFF(lost_arcs_table_full)) < 0 ||
        zero(l, t->addr + OFF(arcs_used), 4) < 0 ||
        /* summed over drains like the losses, so zeroed like them */
        zero(l, t->addr + OFF(missed_periods), 4) < 0 || zero(l, t->addr + OFF(arc_table_repairs), 4) < 0 ||
        zero(l, t->addr + OFF(deferred_samples), 4) < 0)
        return -1;
    put32(gen, img->generation + 1u, l->big);
    if (l->ops->write(l, t->addr + OFF(generation), gen, 4) < 0)
        return -1;
    if (zero(l, t->addr + img->arcs_offset + img->arc_record_size,
             (uint64_t)img->arcs_used * img->arc_record_size) < 0 ||
        zero(l, t->addr + img->buckets_offset, (uint64_t)img->nbuckets * 2) < 0)
        return -1;
    for (r = 0; r < img->nranges; r++) {
        if (zero(l, t->addr + img->ranges[r].hist_offset,
                 (uint64_t)img->ranges[r].nbins * img->counter_bytes) < 0)
            return -1;
    }
    return mp_drain_ext(l, t->addr, img);
}

/* Read the tables, then the header: the counters in the header keep
 * moving while frozen (lost_*_frozen), so they are read last, just before
 * a drain zeroes them. Parsed apart (parse_image): without a drain, after
 * the target is released. */
static int read_image(struct mp_link *l, struct mp_target_image *t)
{
    uint32_t size_now;

    if (access_begin(l) < 0 ||
        mp_link_read(l, t->addr + MCUPROF_HEADER_SIZE, t->data + MCUPROF_HEADER_SIZE,
                     t->size - MCUPROF_HEADER_SIZE) < 0 ||
        l->ops->read(l, t->addr, t->data, MCUPROF_HEADER_SIZE) < 0)
        return -1;
    size_now = mp_get32(t->data + OFF(image_size), l->big);
    if (size_now != t->size)
        return mp_error(l->name, "image_size changed from 0x%" PRIx32 " to 0x%" PRIx32
                        " while pulling: the firmware restarted?", t->size, size_now);
    return 0;
}

static int parse_image(struct mp_link *l, struct mp_target_image *t)
{
    return mp_image_parse(&t->img, l->name, t->data, t->size);
}

/* Save what was read, then drain: the drain's own error is folded into one
 * line that says the snapshot is safe. */
static int save_and_drain(struct mp_link *l, const struct mp_target_image *t,
                          const struct mp_pull_opts *o)
{
    uint64_t end;
    int r;

    if (o->save && o->save(o->save_ctx, &t->img) < 0)
        return -1;
    /* What was saved must now be zeroed, or a later pull counts it twice:
     * a signal that came meanwhile, or comes during the drain, ends the
     * run after it (a second one stops it). */
    mp_interrupt_defer();
    mp_interrupt_shield(1);
    /* For the same reason the command's deadline does not cut the drain
     * (each of its writes still has --timeout); the release that follows
     * gets the grace of a clean-up if the deadline passed meanwhile. */
    end = mp_net_deadline_end();
    mp_net_deadline(0, mp_net_deadline_seconds());
    mp_diag_quiet(1);
    r = drain(l, t);
    mp_diag_quiet(0);
    mp_interrupt_shield(0);
    if (r == 0)
        mp_interrupt_defer();
    mp_net_deadline(end, mp_net_deadline_seconds());
    if (end && mp_now_ms() >= end)
        mp_net_grace(2 * o->timeout_ms);
    if (r < 0)
        return mp_error(NULL, "%sdraining the target failed (its tables may be partly zeroed): %s",
                        o->save ? "the snapshot was saved, but " : "", mp_last_error());
    return 0;
}

int mp_pull_check_owner(struct mp_link *l, const struct mp_target_image *t, uint32_t request, uint32_t ack,
                        int force, int halt)
{
    if (request == 0)
        return 0;
    if (!force)
        return mp_error(l->name,
                        "the image is frozen by another host (freeze_request 0x%" PRIx32 ", freeze_ack 0x%" PRIx32
                        "): a pull in progress, or one that ended without releasing it; --force takes it over",
                        request, ack);
    mp_warn_now(l->name, "took over the freeze of another host (freeze_request 0x%" PRIx32 "): a snapshot it "
                         "is taking may not be consistent", request);
    return halt ? write32(l, t->addr + OFF(freeze_request), 0) : 0;
}

/* The freeze words as they are now (one read: they are neighbours),
 * checked before anything is written. */
static int check_owner(struct mp_link *l, const struct mp_target_image *t, const struct mp_pull_opts *o)
{
    uint8_t b[OFF(freeze_ack) + 4 - OFF(freeze_request)];

    if (access_begin(l) < 0 || l->ops->read(l, t->addr + OFF(freeze_request), b, sizeof(b)) < 0)
        return -1;
    return mp_pull_check_owner(l, t, mp_get32(b, l->big), mp_get32(b + (OFF(freeze_ack) - OFF(freeze_request)), l->big),
                               o->force, o->halt);
}

int mp_pull_snapshot(struct mp_link *l, struct mp_target_image *t, const struct mp_pull_opts *o)
{
    struct mp_pull_opts halted;
    int ret = -1;

    /* A core found halted where memory is read while it runs (OpenOCD's
     * Tcl port after `halt` or `reset halt`): no sampler tick answers a
     * freeze, and none is needed, the tables hold still. Read as with
     * --halt; the core stays halted (the link resumes only a core that
     * ran). */
    if (!o->halt && l->live_access && !l->running) {
        static int noted;

        if (!noted++)
            mp_note(l->name, "the core is halted: read as it is, without a freeze; it stays halted");
        halted = *o;
        halted.halt = 1;
        o = &halted;
    }
    if (o->halt) {
        if (l->ops->halt(l) < 0 || check_owner(l, t, o) < 0)
            return -1;
        ret = read_image(l, t);
        if (ret == 0)
            ret = parse_image(l, t);
        if (ret == 0 && o->reset)
            ret = save_and_drain(l, t, o);
        return ret;
    }
    if (check_owner(l, t, o) < 0 || freeze(l, t, o->timeout_ms) < 0)
        return -1;
    /* Frozen only for what must be: the read, and with a drain what has
     * to be safe before it (the save) and the drain itself. */
    ret = read_image(l, t);
    if (ret == 0 && o->reset)
        ret = parse_image(l, t);
    if (ret == 0 && o->reset)
        ret = save_and_drain(l, t, o);
    /* Release even after a failed read, so the firmware records again;
     * the first error is the one reported. */
    if (ret < 0) {
        mp_pull_cleanup_begin(o->timeout_ms);
        mp_diag_quiet(1);
        release(l, t, o->timeout_ms);
        mp_diag_quiet(0);
    } else if (release(l, t, o->timeout_ms) < 0) {
        ret = -1;
    }
    return ret == 0 && !o->reset ? parse_image(l, t) : ret;
}

/* The handshake alone, for commands that change the image instead of
 * reading it (target_ctl.c). */
int mp_pull_freeze(struct mp_link *l, const struct mp_target_image *t, unsigned timeout_ms)
{
    return freeze(l, t, timeout_ms);
}

int mp_pull_release(struct mp_link *l, const struct mp_target_image *t, unsigned timeout_ms)
{
    return release(l, t, timeout_ms);
}

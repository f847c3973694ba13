/*
 * target_ctl.c - start, stop, reset and status of a running target's
 * profile (target_ctl.h).
 */
#include "target_ctl.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "bytes.h"
#include "diag.h"
#include "input_kind.h"
#include "net.h"

#define OFF(field) offsetof(struct mcuprof_header, field)
#define RUN_BITS (MCUPROF_STATE_ARCS_Msk | MCUPROF_STATE_SAMPLING_Msk)

/* Memory is reachable over links like the GDB protocol only while the core
 * is stopped (as in snapshot.c). */
static int access_begin(struct mp_link *l)
{
    if (!l->live_access && l->running)
        return l->ops->halt(l);
    return 0;
}

static int write_word(struct mp_link *l, uint64_t addr, uint64_t v, unsigned size)
{
    uint8_t b[8];
    unsigned i;

    for (i = 0; i < size; i++)
        b[l->big ? size - 1 - i : i] = (uint8_t)(v >> (8 * i));
    if (access_begin(l) < 0)
        return -1;
    return l->ops->write(l, addr, b, size);
}

static int read_word(struct mp_link *l, uint64_t addr, uint64_t *v, unsigned size)
{
    uint8_t b[8];

    if (access_begin(l) < 0 || l->ops->read(l, addr, b, size) < 0)
        return -1;
    *v = mp_getptr(b, size, l->big);
    return 0;
}

/* The header's live fields as they are now. The magic and size are
 * checked again: a firmware that restarted since the image was located
 * may not have set it up yet. */
static int read_header(struct mp_link *l, const struct mp_target_image *t, struct mp_ctl_header *h)
{
    uint8_t b[MCUPROF_HEADER_SIZE];
    uint32_t size;

    if (access_begin(l) < 0 || l->ops->read(l, t->addr, b, sizeof(b)) < 0)
        return -1;
    if (mp_image_magic_order(b, sizeof(b)) != (l->big ? MCUPROF_ORDER_BIG : MCUPROF_ORDER_LITTLE))
        return mp_error(l->name, "the image at 0x%" PRIx64 " lost its magic (now %02x %02x %02x %02x): "
                                 "the firmware restarted?", t->addr, b[0], b[1], b[2], b[3]);
    size = mp_get32(b + OFF(image_size), l->big);
    if (size != t->size)
        return mp_error(l->name, "image_size changed from 0x%" PRIx32 " to 0x%" PRIx32 ": the firmware "
                                 "restarted?", t->size, size);
    /* One read per field, each in the width the layout gives it: a table
     * of offsets and destinations shared with the other header readers
     * would hide those widths, and the fields differ from reader to reader. */
    h->state = mp_get32(b + OFF(state), l->big);
    h->freeze_request = mp_get32(b + OFF(freeze_request), l->big);
    h->freeze_ack = mp_get32(b + OFF(freeze_ack), l->big);
    h->generation = mp_get32(b + OFF(generation), l->big);
    h->samples_taken = mp_get32(b + OFF(samples_taken), l->big);
    h->arcs_used = mp_get32(b + OFF(arcs_used), l->big);
    return 0;
}

static uint32_t new_state(uint32_t state, enum mp_ctl_op op)
{
    return op == MP_CTL_START ? state | RUN_BITS : state & ~(uint32_t)RUN_BITS;
}

/* Frozen: the target's tick applies the new bits to the hook when it
 * serves the release. The state word is the target's too (the firmware's
 * own mcuprof_start/stop), but while frozen its sampler leaves it alone. */
static int switch_frozen(struct mp_link *l, const struct mp_target_image *t, enum mp_ctl_op op,
                         const struct mp_ctl_opts *o)
{
    uint64_t state;
    int ret;

    if (mp_pull_freeze(l, t, o->timeout_ms) < 0)
        return -1;
    ret = read_word(l, t->addr + OFF(state), &state, 4);
    if (ret == 0)
        ret = write_word(l, t->addr + OFF(state), new_state((uint32_t)state, op), 4);
    if (ret < 0) {
        /* release anyway; the first error is the one reported */
        mp_diag_quiet(1);
        mp_pull_release(l, t, o->timeout_ms);
        mp_diag_quiet(0);
        return -1;
    }
    return mp_pull_release(l, t, o->timeout_ms);
}

/* Halted: nothing on the target will apply the bits before the hook runs
 * again, so switch its mode pointer as mcuprof_apply_hook_mode would. What
 * turns recording off is written first, what turns it on last, so that a
 * core that runs meanwhile (a link that cannot halt it) records nothing
 * the state does not allow. */
static int switch_halted(struct mp_link *l, const struct mp_target_image *t, enum mp_ctl_op op,
                         const struct mp_ctl_opts *o)
{
    unsigned psize = t->img.ptr_size;
    uint64_t state, cur, want;
    uint32_t next;
    int mode;

    if (read_word(l, t->addr + OFF(state), &state, 4) < 0 || read_word(l, o->hook->dispatch, &cur, psize) < 0)
        return -1;
    mode = mp_hook_mode_at(o->hook, cur);
    if (mode < 0)
        return mp_error(l->name,
                        "mcuprof_hook_dispatch at 0x%" PRIx64 " holds 0x%" PRIx64 ", none of the hook's entry "
                        "points (off 0x%" PRIx64 ", record 0x%" PRIx64 ", slow 0x%" PRIx64 "): not the firmware "
                        "of this ELF?",
                        o->hook->dispatch, cur, o->hook->entry[MP_HOOK_OFF], o->hook->entry[MP_HOOK_RECORD],
                        o->hook->entry[MP_HOOK_SLOW]);
    next = new_state((uint32_t)state, op);
    want = mp_hook_entry_value(o->hook, mp_hook_mode_of(next), cur);
    if (op == MP_CTL_STOP && want != cur && write_word(l, o->hook->dispatch, want, psize) < 0)
        return -1;
    if (write_word(l, t->addr + OFF(state), next, 4) < 0)
        return -1;
    if (op != MP_CTL_STOP && want != cur && write_word(l, o->hook->dispatch, want, psize) < 0)
        return -1;
    return 0;
}

/* The drain of `pull --reset`; T then holds the tables as they were. */
static int reset(struct mp_link *l, struct mp_target_image *t, const struct mp_ctl_opts *o,
                 struct mp_ctl_result *res)
{
    struct mp_pull_opts po = {o->halt, 1, o->timeout_ms, NULL, NULL, o->force};
    struct mp_arc arc;
    uint32_t i;

    if (mp_pull_snapshot(l, t, &po) < 0)
        return -1;
    res->before.state = t->img.state;
    res->before.freeze_request = t->img.freeze_request;
    res->before.freeze_ack = t->img.freeze_ack;
    res->before.generation = t->img.generation;
    res->before.samples_taken = t->img.samples_taken;
    res->before.arcs_used = t->img.arcs_used;
    for (i = 1; i <= t->img.arcs_used; i++) {
        mp_image_arc(&t->img, i, &arc);
        res->zeroed_calls += arc.count;
    }
    return 0;
}

/* Does the sampler answer a freeze? Its tick is what serves a freeze, so
 * this is the one test that also holds while sampling is off. */
static int probe(struct mp_link *l, const struct mp_target_image *t, const struct mp_ctl_opts *o,
                 struct mp_ctl_result *res)
{
    uint64_t t0 = mp_now_ms();
    int r;

    mp_diag_quiet(1);
    r = mp_pull_freeze(l, t, o->timeout_ms);
    mp_diag_quiet(0);
    if (r < 0) {
        /* The request was withdrawn; the header read that follows tells a
         * dead link from a silent sampler. */
        res->sampler = MP_CTL_SAMPLER_SILENT;
        snprintf(res->why, sizeof(res->why), "%s", mp_last_error());
        return 0;
    }
    if (mp_pull_release(l, t, o->timeout_ms) < 0)
        return -1;
    res->sampler = MP_CTL_SAMPLER_ANSWERED;
    res->answer_ms = (unsigned)(mp_now_ms() - t0);
    return 0;
}

int mp_ctl_run(struct mp_link *l, struct mp_target_image *t, enum mp_ctl_op op, const struct mp_ctl_opts *o,
               struct mp_ctl_result *res)
{
    struct mp_ctl_opts halted;
    int ret = -1;

    memset(res, 0, sizeof(*res));
    res->sampler = MP_CTL_SAMPLER_NOT_ASKED;
    /* A core found halted where memory is read while it runs (OpenOCD's
     * Tcl port after `halt` or `reset halt`): no tick answers a freeze,
     * so work on it as with --halt; it stays halted. */
    if (!o->halt && l->live_access && !l->running) {
        res->core_halted = 1;
        if ((op == MP_CTL_START || op == MP_CTL_STOP) && !o->hook)
            return mp_error(l->name, "the core is halted: no sampler tick applies the change; give --elf (the "
                                     "hook's mode pointer is switched through its symbols) or resume the core");
        halted = *o;
        halted.halt = 1;
        o = &halted;
    }
    if (o->halt && l->ops->halt(l) < 0)
        return -1;
    if (read_header(l, t, &res->before) < 0)
        goto out;
    if (op == MP_CTL_STATUS) {
        if (!o->halt && res->before.freeze_request == 0 && probe(l, t, o, res) < 0)
            goto out;
    } else if (op == MP_CTL_RELEASE) {
        /* Halted, no tick can acknowledge: the next one after the core
         * runs again will. */
        if (res->before.freeze_request != 0 &&
            (o->halt ? write_word(l, t->addr + OFF(freeze_request), 0, 4) : mp_pull_release(l, t, o->timeout_ms)) < 0)
            goto out;
    } else {
        /* a reset is a pull's drain, which checks this itself */
        if (op != MP_CTL_RESET && mp_pull_check_owner(l, t, res->before.freeze_request, res->before.freeze_ack,
                                                      o->force, o->halt) < 0)
            goto out;
        if (op == MP_CTL_RESET) {
            if (reset(l, t, o, res) < 0)
                goto out;
        } else if ((o->halt ? switch_halted(l, t, op, o) : switch_frozen(l, t, op, o)) < 0) {
            goto out;
        }
    }
    ret = read_header(l, t, &res->after);
out:
    /* Let a core run that ran before; after a failure quietly, so the
     * failure stays the one error reported. */
    if (o->halt && l->was_running && !l->running) {
        int failed = ret < 0;

        if (failed)
            mp_diag_quiet(1);
        if (l->ops->resume(l) < 0)
            ret = -1;
        if (failed)
            mp_diag_quiet(0);
    }
    return ret;
}

/*
 * target_open.c - options and connection shared by pull, sample and ctl
 * (target_open.h).
 */
#include "target_open.h"

#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build_check.h"
#include "bytes.h"
#include "diag.h"
#include "interrupt.h"
#include "net.h"

#define OFF(field) offsetof(struct mcuprof_header, field)

void mp_target_args_init(struct mp_target_args *a, const char *cmd)
{
    memset(a, 0, sizeof(*a));
    a->cmd = cmd;
    a->timeout_ms = 5000;
}

void mp_target_longopts(struct option *out, const struct option *fixed, size_t nfixed)
{
    static const struct option shared[] = {
        {"elf", required_argument, NULL, 'e'},
        {"force", no_argument, NULL, 'F'},
        {"address", required_argument, NULL, 'a'},
        {"timeout", required_argument, NULL, 't'},
        {"deadline", required_argument, NULL, 'D'},
    };
    size_t nshared = sizeof(shared) / sizeof(shared[0]), k, nk = mp_transports_count();

    memset(out, 0, (nfixed + MP_TARGET_NOPTS + 1) * sizeof(*out));
    memcpy(out, fixed, nfixed * sizeof(*out));
    memcpy(out + nfixed, shared, sizeof(shared));
    out += nfixed + nshared;
    for (k = 0; k < nk && k < MP_TARGET_NOPTS - nshared; k++) {
        out[k].name = mp_transport_at(k)->name;
        out[k].has_arg = required_argument;
        out[k].val = MP_TARGET_LINK_OPT + (int)k;
    }
}

void mp_target_shortopts(char *out, size_t size, const char *fixed)
{
    size_t k, n = (size_t)snprintf(out, size, "%s", fixed);

    for (k = 0; k < mp_transports_count() && n < size; k++)
        if (mp_transport_at(k)->short_option)
            n += (size_t)snprintf(out + n, size - n, "%c:", mp_transport_at(k)->short_option);
}

int mp_parse_seconds_in(const char *cmd, const char *opt, const char *s, double min, double max, double *v)
{
    char *end;

    errno = 0;
    *v = strtod(s, &end);
    /* !(v >= min) also refuses NaN */
    if (end == s || *end || errno || !(*v >= min) || *v > max)
        return mp_error(NULL, "%s: %s '%s' is not a number of seconds from %g to %g", cmd, opt, s, min, max);
    return 0;
}

int mp_parse_seconds(const char *cmd, const char *opt, const char *s, double max, double *v)
{
    return mp_parse_seconds_in(cmd, opt, s, 0, max, v);
}

void mp_target_start_deadline(const struct mp_target_args *a)
{
    double s = a->deadline_s > 0 ? a->deadline_s : MP_DEADLINE_TIMEOUTS * (a->timeout_ms / 1000.0);

    mp_net_deadline(mp_now_ms() + (uint64_t)(s * 1000), s);
}

int mp_target_option(struct mp_target_args *a, int c, const char *arg)
{
    int k, nk = (int)mp_transports_count();
    char *end;
    double t;

    for (k = 0; k < nk; k++)
        if (mp_transport_at((size_t)k)->short_option && c == mp_transport_at((size_t)k)->short_option)
            c = MP_TARGET_LINK_OPT + k;
    if (c >= MP_TARGET_LINK_OPT && c < MP_TARGET_LINK_OPT + nk) {
        const struct mp_transport *tr = mp_transport_at((size_t)(c - MP_TARGET_LINK_OPT));

        if (a->transport && a->transport != tr)
            return mp_error(NULL, "%s: --%s and --%s exclude each other", a->cmd, a->transport->name, tr->name);
        a->transport = tr;
        a->endpoint = arg;
        return 1;
    }
    switch (c) {
    case 'e':
        a->elf = arg;
        return 1;
    case 'F':
        a->force = 1;
        return 1;
    case 'a':
        errno = 0;
        a->address = strtoull(arg, &end, 0);
        if (end == arg || *end || errno)
            return mp_error(NULL, "%s: --address '%s' is not an address", a->cmd, arg);
        a->have_address = 1;
        return 1;
    case 't':
        if (mp_parse_seconds_in(a->cmd, "--timeout", arg, MP_TIMEOUT_MIN, MP_TIMEOUT_MAX, &t) < 0)
            return -1;
        a->timeout_ms = (unsigned)(t * 1000 + 0.5);
        return 1;
    case 'D':
        if (mp_parse_seconds_in(a->cmd, "--deadline", arg, MP_TIMEOUT_MIN, 86400, &a->deadline_s) < 0)
            return -1;
        return 1;
    default:
        return 0;
    }
}

int mp_target_finish(struct mp_target_args *a)
{
    if (!a->elf && !a->have_address)
        return mp_error(NULL, "%s: say where the image is: --elf FILE or --address ADDR", a->cmd);
    if (!a->transport)
        a->transport = mp_transport_at(0);
    if (!a->endpoint)
        a->endpoint = a->transport->default_endpoint;
    if (a->deadline_s > 0 && a->deadline_s * 1000 < a->timeout_ms)
        return mp_error(NULL, "%s: --deadline %g is shorter than --timeout %g: one answer may take longer "
                              "than the whole command", a->cmd, a->deadline_s, a->timeout_ms / 1000.0);
    return 0;
}

int mp_target_find(const struct mp_target_args *a, struct mp_elf_info *elf, struct mp_target_image *t)
{
    memset(t, 0, sizeof(*t));
    if (a->elf) {
        if (mp_elf_read(elf, a->elf) < 0)
            return -1;
        if (!elf->has_region && !a->have_address)
            return mp_error(a->elf, "no symbols __mcuprof_start and __mcuprof_end: firmware built "
                                    "without the mcuprof runtime and linker fragment? (or give --address)");
        if (elf->has_region) {
            if (elf->end <= elf->start)
                return mp_error(a->elf, "__mcuprof_end 0x%" PRIx64 " is not above __mcuprof_start 0x%" PRIx64,
                                elf->end, elf->start);
            t->addr = elf->start;
            t->region_size = elf->end - elf->start;
        }
    }
    if (a->have_address) {
        if (t->region_size && a->address != t->addr)
            return mp_error(NULL, "%s: --address 0x%" PRIx64 " differs from %s's __mcuprof_start 0x%" PRIx64,
                            a->cmd, a->address, a->elf, t->addr);
        t->addr = a->address;
    }
    return 0;
}

/* The command that releases a freeze left behind, as a user types it:
 * the endpoint as the transport names it (quoted for a shell if it holds
 * anything but the usual host and port characters). */
static void set_release_cmd(struct mp_target_args *a, const struct mp_endpoint *ep, const struct mp_target_image *t)
{
    const char *p;
    int plain = 1;

    for (p = ep->name; *p; p++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.:_-[]/", *p))
            plain = 0;
    snprintf(a->release_cmd, sizeof(a->release_cmd), "mcuprof ctl release --%s %s%.272s%s --address 0x%" PRIx64,
             a->transport->name, plain ? "" : "'", ep->name, plain ? "" : "'", t->addr);
    snprintf(a->link_name, sizeof(a->link_name), "%s", ep->name);
    mp_pull_set_release_hint(ep->name, a->cmd, a->release_cmd);
}

struct mp_link *mp_target_open_bare(const struct mp_target_args *a, int big, struct mp_endpoint *ep)
{
    struct mp_link *l;

    if (a->transport->parse(a->endpoint, ep) < 0 || !(l = a->transport->open(ep, a->timeout_ms)))
        return NULL;
    l->big = big;
    l->order_known = 1;
    return l;
}

/* Write 0 to freeze_request over a new connection if it still holds
 * TOKEN (anything else is not ours to clear). Quiet; 0 when the target
 * no longer holds our freeze. */
static int release_again(const struct mp_target_args *a, int big, const struct mp_target_image *t, uint32_t token)
{
    struct mp_endpoint ep;
    struct mp_link *l;
    uint8_t b[4];
    uint32_t now;
    int ret = -1;

    if (!(l = mp_target_open_bare(a, big, &ep)))
        return -1;
    if ((!l->live_access && l->running && l->ops->halt(l) < 0) ||
        l->ops->read(l, t->addr + OFF(freeze_request), b, 4) < 0)
        goto out;
    now = mp_get32(b, l->big);
    if (now != token) {
        mp_pull_forget_freeze(); /* released, or another host's since */
        ret = 0;
        goto out;
    }
    ret = mp_pull_release(l, t, a->timeout_ms);
    if (ret == 0) {
        mp_diag_quiet(0);
        mp_warn(a->link_name, "the connection was lost while the target was frozen: reconnected and released "
                              "the freeze (freeze_request 0x%08" PRIx32 ")", token);
        mp_diag_quiet(1);
    }
out:
    l->ops->close(l);
    return ret;
}

int mp_target_leave(const struct mp_target_args *a, struct mp_link *l, const struct mp_target_image *t)
{
    uint32_t token = 0;

    /* The release and the close (which lets a stopped core run) are a
     * clean-up: a signal that came before does not stop them, one that
     * came during an earlier clean-up skips them. */
    if (!(mp_pull_cleaning() && mp_interrupted()))
        mp_pull_cleanup_begin(a->timeout_ms);
    if (mp_pull_freeze_held(&token) && !mp_interrupted()) {
        mp_diag_quiet(1);
        if (mp_pull_release(l, t, a->timeout_ms) < 0 && mp_pull_freeze_held(NULL) && !mp_interrupted()) {
            /* The link is gone (or no longer answers): once more, anew
             * (the transport keeps one link: the new one replaces it). */
            int big = l->big;

            l->ops->close(l);
            l = NULL;
            release_again(a, big, t, token);
        }
        mp_diag_quiet(0);
    }
    if (l)
        l->ops->close(l);
    if (!mp_pull_freeze_held(&token))
        return 0;
    return mp_error(a->link_name, "%s", mp_pull_frozen_text());
}

int mp_target_exit_status(int ok)
{
    int sig = mp_interrupt_signal();

    if (!ok && sig)
        return 128 + sig;
    return ok ? 0 : 1;
}

struct mp_link *mp_target_connect(struct mp_target_args *a, const struct mp_elf_info *elf,
                                  struct mp_target_image *t)
{
    struct mp_endpoint ep;
    struct mp_link *l;

    if (a->transport->parse(a->endpoint, &ep) < 0 || !(l = a->transport->open(&ep, a->timeout_ms)))
        return NULL;
    if (mp_pull_locate(l, t) < 0)
        goto fail_close;
    t->img.name = l->name;
    set_release_cmd(a, &ep, t);
    if (a->elf && mp_build_check(&t->img, elf, a->force) < 0)
        goto fail_free;
    return l;
fail_free:
    mp_pull_free(t);
fail_close:
    l->ops->close(l);
    return NULL;
}

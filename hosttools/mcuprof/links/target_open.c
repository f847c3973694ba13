/*
 * target_open.c - options and connection shared by pull and ctl
 * (target_open.h).
 */
#include "target_open.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "build_check.h"
#include "diag.h"

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

int mp_parse_seconds(const char *cmd, const char *opt, const char *s, double max, double *v)
{
    char *end;

    errno = 0;
    *v = strtod(s, &end);
    if (end == s || *end || errno || !(*v >= 0) || *v > max)
        return mp_error(NULL, "%s: %s '%s' is not a number of seconds from 0 to %.0f", cmd, opt, s, max);
    return 0;
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
        if (mp_parse_seconds(a->cmd, "--timeout", arg, 3600, &t) < 0)
            return -1;
        a->timeout_ms = t < 0.001 ? 1 : (unsigned)(t * 1000);
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

struct mp_link *mp_target_connect(const struct mp_target_args *a, const struct mp_elf_info *elf,
                                  struct mp_target_image *t)
{
    struct mp_endpoint ep;
    struct mp_link *l;

    if (a->transport->parse(a->endpoint, &ep) < 0 || !(l = a->transport->open(&ep, a->timeout_ms)))
        return NULL;
    if (mp_pull_locate(l, t) < 0)
        goto fail_close;
    t->img.name = l->name;
    if (a->elf && mp_build_check(&t->img, elf, a->force) < 0)
        goto fail_free;
    return l;
fail_free:
    mp_pull_free(t);
fail_close:
    l->ops->close(l);
    return NULL;
}

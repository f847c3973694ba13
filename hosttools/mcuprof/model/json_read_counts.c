/*
 * json_read_counts.c - the JSON document's identity and counts
 * (json_read.h): the source, the build-id, the counters with the loss
 * counters, and the image's header words.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "json_read.h"
#include "profile_checks.h"

int jr_read_source(struct rd *r)
{
    static const char *const names[] = {"image", "gmon", "json"};
    static const enum mp_model_source values[] = {MP_MODEL_IMAGE, MP_MODEL_GMON, MP_MODEL_JSON};
    size_t off = mp_jp_offset(&r->p), i;
    const char *s;

    if (mp_jp_string(&r->p, "", "source", &s) < 0)
        return -1;
    for (i = 0; i < 3; i++)
        if (strcmp(s, names[i]) == 0) {
            r->m->source = values[i];
            return 0;
        }
    return mp_jp_fail(&r->p, off, "source: expected \"image\", \"gmon\" or \"json\", got \"%.40s\"", s);
}

int jr_read_build_id(struct rd *r)
{
    size_t off = mp_jp_offset(&r->p), n, i;
    const char *s;

    if (mp_jp_null(&r->p))
        return 0;
    if (mp_jp_string(&r->p, "", "build_id", &s) < 0)
        return -1;
    n = strlen(s);
    if (n == 0 || n % 2 || n > 2 * MCUPROF_BUILD_ID_MAX || strspn(s, "0123456789abcdefABCDEF") != n)
        return mp_jp_fail(&r->p, off, "build_id: expected null or 1 to %d bytes in hex, got \"%.80s\"",
                          MCUPROF_BUILD_ID_MAX, s);
    for (i = 0; i < n / 2; i++) {
        char byte[3] = {s[2 * i], s[2 * i + 1], '\0'};

        r->m->build_id[i] = (uint8_t)strtoul(byte, NULL, 16);
    }
    r->m->build_id_len = (unsigned)(n / 2);
    return 0;
}

static int read_lost(struct rd *r, struct mp_model_counters *c)
{
    const char *keys[MP_LOST_COUNT + 1]; /* mp_lost_names, NULL-terminated */
    size_t off = mp_jp_offset(&r->p);
    uint32_t seen = 0;
    int k, idx;

    memcpy(keys, mp_lost_names, sizeof(mp_lost_names));
    keys[MP_LOST_COUNT] = NULL;
    if (mp_jp_object(&r->p, "counters", "lost") < 0)
        return -1;
    while ((k = jr_member(r, "counters.lost", keys, &seen, &idx)) == 1) {
        k = idx >= 0 ? jr_u64(r, "counters.lost", keys[idx], &c->lost[idx])
                     : mp_jp_skip(&r->p, "counters.lost", r->p.key);
        if (k < 0)
            return -1;
    }
    return k < 0 ? -1 : jr_required(r, off, "counters.lost", keys, seen, BIT(MP_LOST_COUNT) - 1);
}

static int read_missed_source(struct rd *r, unsigned *v)
{
    size_t off = mp_jp_offset(&r->p);
    const char *s, *name;
    unsigned i;

    if (mp_jp_string(&r->p, "counters", "missed_source", &s) < 0)
        return -1;
    for (i = 0; (name = mp_missed_source_name(i)) != NULL; i++)
        if (strcmp(s, name) == 0) {
            *v = i;
            return 0;
        }
    return mp_jp_fail(&r->p, off, "counters.missed_source: expected \"none\", \"mtime\", \"cyccnt\" or \"clock\", "
                      "got \"%.40s\"", s);
}

/* MCUPROF_TIMING_* bits: one this reader does not know is a later
 * runtime's, dropped with a warning as the image reader does. */
static int read_timing_flags(struct rd *r, unsigned *flags)
{
    const unsigned known = MP_TIMING_KNOWN;

    if (jr_unsigned(r, "counters", "timing_flags", flags) < 0)
        return -1;
    if (*flags & ~known) {
        mp_warn(r->m->name, "counters.timing_flags 0x%x has bits 0x%x unknown to this mcuprof: those are ignored",
                *flags, *flags & ~known);
        *flags &= known;
    }
    return 0;
}

int jr_read_counters(struct rd *r)
{
    static const char *const keys[] = {"samples_taken", "binned", "lost", "missed_periods", "missed_source",
                                       "arc_table_repairs", "total_calls", "outside_calls", "saturated_arcs",
                                       "saturated_bins", "timer_period", "jitter_percent", "generation",
                                       "timing_flags", "deferred_samples", NULL};
    struct mp_model_counters *c = &r->m->c;
    size_t off = mp_jp_offset(&r->p);
    uint32_t seen = 0;
    int k, idx;

    if (mp_jp_object(&r->p, "", "counters") < 0)
        return -1;
    while ((k = jr_member(r, "counters", keys, &seen, &idx)) == 1) {
        switch (idx) {
        case 0: k = jr_u64(r, "counters", "samples_taken", &c->samples_taken); break;
        case 1: k = jr_u64(r, "counters", "binned", &c->binned); break;
        case 2: k = read_lost(r, c); break;
        case 3: k = jr_u64(r, "counters", "missed_periods", &c->missed_periods); break;
        case 4: k = read_missed_source(r, &c->missed_source); break;
        case 5: k = jr_u64(r, "counters", "arc_table_repairs", &c->arc_table_repairs); break;
        case 6: k = jr_u64(r, "counters", "total_calls", &c->total_calls); break;
        case 7: k = jr_u64(r, "counters", "outside_calls", &c->outside_calls); break;
        case 8: k = jr_u64(r, "counters", "saturated_arcs", &c->saturated_arcs); break;
        case 9: k = jr_u64(r, "counters", "saturated_bins", &c->saturated_bins); break;
        case 10: k = jr_u32(r, "counters", "timer_period", &c->timer_period); break;
        case 11: k = jr_unsigned(r, "counters", "jitter_percent", &c->jitter_percent); break;
        case 12: k = jr_u32(r, "counters", "generation", &c->generation); break;
        case 13: k = read_timing_flags(r, &c->timing_flags); break;
        case 14: k = jr_u64(r, "counters", "deferred_samples", &c->deferred_samples); break;
        default: k = mp_jp_skip(&r->p, "counters", r->p.key); break;
        }
        if (k < 0)
            return -1;
    }
    /* timing_flags and deferred_samples are optional: older documents
     * have neither (nothing measured) */
    return k < 0 ? -1 : jr_required(r, off, "counters", keys, seen, 0x1fff);
}

/* header.hist_offsets: a byte offset for each range, at most as many as
 * an image has ranges (their number is checked in jr_check_header). */
static int read_hist_offsets(struct rd *r)
{
    const char *w = "header.hist_offsets";
    int k;

    if (mp_jp_array(&r->p, "header", "hist_offsets") < 0)
        return -1;
    while ((k = mp_jp_item(&r->p, w)) == 1) {
        if (r->nhist == MCUPROF_MAX_RANGES)
            return mp_jp_fail(&r->p, mp_jp_offset(&r->p), "%s: more than %u, the ranges an image holds", w,
                              MCUPROF_MAX_RANGES);
        if (jr_u32(r, w, NULL, &r->m->header.hist_offset[r->nhist++]) < 0)
            return -1;
    }
    return k;
}

/* The image's header words (null: the model had none), each within its
 * width in mcuprof/image.h; state_flags is derived from state. */
int jr_read_header(struct rd *r)
{
    static const char *const keys[] = {"image_addr", "image_size", "header_size", "state", "freeze_request",
                                       "freeze_ack", "arcs_offset", "arcs_capacity", "arcs_used", "arc_record_size",
                                       "hash_shift", "buckets_offset", "nbuckets", "links_offset", "ext_offset",
                                       "hist_offsets", NULL};
    struct mp_model_header *h = &r->m->header;
    size_t off = mp_jp_offset(&r->p);
    uint32_t seen = 0;
    int k, idx;

    if (mp_jp_null(&r->p))
        return 0;
    r->m->has_header = 1;
    if (mp_jp_object(&r->p, "", "header") < 0)
        return -1;
    while ((k = jr_member(r, "header", keys, &seen, &idx)) == 1) {
        switch (idx) {
        case 0: k = jr_addr(r, "header", "image_addr", &h->image_addr); break;
        case 1: k = jr_u32(r, "header", "image_size", &h->image_size); break;
        case 2: k = jr_u16(r, "header", "header_size", &h->header_size); break;
        case 3: k = jr_u32(r, "header", "state", &h->state); break;
        case 4: k = jr_u32(r, "header", "freeze_request", &h->freeze_request); break;
        case 5: k = jr_u32(r, "header", "freeze_ack", &h->freeze_ack); break;
        case 6: k = jr_u32(r, "header", "arcs_offset", &h->arcs_offset); break;
        case 7: k = jr_u32(r, "header", "arcs_capacity", &h->arcs_capacity); break;
        case 8: k = jr_u32(r, "header", "arcs_used", &h->arcs_used); break;
        case 9: k = jr_u16(r, "header", "arc_record_size", &h->arc_record_size); break;
        case 10: k = jr_u16(r, "header", "hash_shift", &h->hash_shift); break;
        case 11: k = jr_u32(r, "header", "buckets_offset", &h->buckets_offset); break;
        case 12: k = jr_u32(r, "header", "nbuckets", &h->nbuckets); break;
        case 13: k = jr_u32(r, "header", "links_offset", &h->links_offset); break;
        case 14: k = jr_u32(r, "header", "ext_offset", &h->ext_offset); break;
        case 15: k = read_hist_offsets(r); break;
        default: k = mp_jp_skip(&r->p, "header", r->p.key); break; /* state_flags: derived */
        }
        if (k < 0)
            return -1;
    }
    if (k < 0 || jr_required(r, off, "header", keys, seen, 0xffff) < 0)
        return -1;
    if (h->arcs_used > h->arcs_capacity)
        return mp_jp_fail(&r->p, off, "header: arcs_used %" PRIu32 " is above arcs_capacity %" PRIu32, h->arcs_used,
                          h->arcs_capacity);
    return 0;
}

/*
 * model_gmon.c - a profile model from a gmon.out (model.h), GNU tagged or
 * BSD 4.4, in whatever byte order and address width gmon_read.h infers.
 *
 * gmon.out spreads one profile over repeated records, and gprof adds them
 * up (hist.c hist_read_rec, cg_arcs.c arc_add): a range's bins over every
 * record of that range, an arc's count over every record of that arc. This
 * reader does the same into 64-bit counts, so a gmon.out this tool wrote
 * reads back as the model it was written from. What gprof refuses, this
 * refuses too: records of one file with different rates or dimensions,
 * and histogram records whose ranges overlap without being the same.
 *
 * A gmon.out does not name its machine: the model's machine stays 0 until
 * an ELF is attached (mp_model_attach_elf takes it from there).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "gmon_read.h"
#include "model.h"
#include "sort.h"

struct hist_rec {
    struct mp_gmon_hist h;
    const uint8_t *bins;
    size_t order; /* file order, so merged records add up in it */
};

struct gmon_arc {
    uint64_t frompc, selfpc, count;
};

struct reader {
    struct mp_model *m;
    const struct mp_gmon_info *g;
    struct hist_rec *hist;
    size_t nhist, cap_hist;
    struct gmon_arc *arcs;
    size_t narcs, cap_arcs;
};

static int take_hist(void *ctx, const struct mp_gmon_hist *h, const uint8_t *bins)
{
    struct reader *r = ctx;
    const struct mp_gmon_hist *first = r->nhist ? &r->hist[0].h : h;

    if (r->nhist == r->cap_hist)
        return mp_error(r->m->name, "more histogram records than the file's first reading counted");
    /* gprof: "different scales in histogram records" / "different dimensions" */
    if (h->rate != first->rate)
        return mp_error(r->m->name,
                        "histogram record %zu: rate %" PRIu32 " Hz differs from the first record's %" PRIu32
                        " Hz (gprof refuses such a file)",
                        r->nhist, h->rate, first->rate);
    if (memcmp(h->dimension, first->dimension, sizeof(h->dimension)) != 0 || h->abbrev != first->abbrev)
        return mp_error(r->m->name, "histogram record %zu: dimension '%.15s' differs from the first record's '%.15s'",
                        r->nhist, h->dimension, first->dimension);
    if (h->high <= h->low)
        return mp_error(r->m->name,
                        "histogram record %zu: range 0x%" PRIx64 "..0x%" PRIx64 " is empty but has %" PRIu32 " bins",
                        r->nhist, h->low, h->high, h->nbins);
    r->hist[r->nhist].h = *h;
    r->hist[r->nhist].bins = bins;
    r->hist[r->nhist].order = r->nhist;
    r->nhist++;
    return 0;
}

static int take_arc(void *ctx, uint64_t frompc, uint64_t selfpc, uint64_t count)
{
    struct reader *r = ctx;

    if (r->narcs == r->cap_arcs)
        return mp_error(r->m->name, "more arc records than the file's first reading counted");
    r->arcs[r->narcs].frompc = frompc;
    r->arcs[r->narcs].selfpc = selfpc;
    r->arcs[r->narcs].count = count;
    r->narcs++;
    return 0;
}

static int cmp_u64(uint64_t a, uint64_t b)
{
    return a < b ? -1 : a > b;
}

static int cmp_hist(const void *pa, const void *pb)
{
    const struct hist_rec *a = pa, *b = pb;
    int c = cmp_u64(a->h.low, b->h.low);

    if (!c)
        c = cmp_u64(a->h.high, b->h.high);
    if (!c)
        c = cmp_u64(a->h.nbins, b->h.nbins);
    return c ? c : cmp_u64(a->order, b->order);
}

static int cmp_arc(const void *pa, const void *pb)
{
    const struct gmon_arc *a = pa, *b = pb;
    int c = cmp_u64(a->frompc, b->frompc);

    return c ? c : cmp_u64(a->selfpc, b->selfpc);
}

/* Records I..J-1 of the sorted list, all of one range, into range R. */
static int merge_range(struct reader *r, size_t i, size_t j, struct mp_model_range *d)
{
    const struct mp_gmon_hist *h = &r->hist[i].h;
    uint32_t b;
    size_t k;

    d->low = h->low;
    d->high = h->high;
    d->nbins = h->nbins;
    if (!(d->bins = mp_model_alloc(r->m, (size_t)h->nbins * sizeof(*d->bins))))
        return -1;
    /* at most 2^32 records of 65535: no 64-bit bin can overflow */
    for (k = i; k < j; k++)
        for (b = 0; b < h->nbins; b++)
            d->bins[b] += mp_gmon_bin(r->g, r->hist[k].bins, b);
    for (b = 0; b < h->nbins; b++) {
        d->samples += d->bins[b];
        if (d->bins[b] > d->max_bin)
            d->max_bin = d->bins[b];
        /* a BSD bin cannot hold more: 65535 there is a lower bound */
        if (r->g->format == MP_GMON_BSD && d->bins[b] == UINT16_MAX)
            r->m->c.saturated_bins++;
    }
    r->m->c.binned += d->samples;
    return 0;
}

/* The bin size when every range has the same power-of-two one. */
static unsigned common_shift(const struct mp_model *m)
{
    unsigned shift = 0, s;
    size_t i;

    for (i = 0; i < m->nranges; i++) {
        const struct mp_model_range *rg = &m->ranges[i];
        uint64_t span = rg->high - rg->low;

        for (s = 1; s < 32 && (rg->nbins << s) < span; s++)
            ;
        /* a bin size the image format could not hold is "unknown" (0) */
        if (s > MP_BIN_SHIFT_MAX || (rg->nbins << s) != span || (i && s != shift))
            return 0;
        shift = s;
    }
    return shift;
}

static int build_ranges(struct reader *r)
{
    struct mp_model *m = r->m;
    size_t i, j, n = 0;

    mp_sort(r->hist, r->nhist, sizeof(*r->hist), cmp_hist);
    for (i = 0; i < r->nhist; i = j) {
        for (j = i + 1; j < r->nhist && r->hist[j].h.low == r->hist[i].h.low && r->hist[j].h.high == r->hist[i].h.high;
             j++)
            ;
        if (r->hist[j - 1].h.nbins != r->hist[i].h.nbins)
            return mp_error(m->name,
                            "histogram records of range 0x%" PRIx64 "..0x%" PRIx64 " have %" PRIu32
                            " and %" PRIu32 " bins: they cannot be added up",
                            r->hist[i].h.low, r->hist[i].h.high, r->hist[i].h.nbins, r->hist[j - 1].h.nbins);
        if (j < r->nhist && r->hist[j].h.low < r->hist[i].h.high)
            return mp_error(m->name,
                            "histogram records 0x%" PRIx64 "..0x%" PRIx64 " (%" PRIu32 " bins) and 0x%" PRIx64
                            "..0x%" PRIx64 " (%" PRIu32 " bins) overlap: an address would be counted twice",
                            r->hist[i].h.low, r->hist[i].h.high, r->hist[i].h.nbins, r->hist[j].h.low,
                            r->hist[j].h.high, r->hist[j].h.nbins);
        n++;
    }
    if (!(m->ranges = mp_model_alloc(m, (n ? n : 1) * sizeof(*m->ranges))))
        return -1;
    for (i = 0; i < r->nhist; i = j) {
        for (j = i + 1; j < r->nhist && r->hist[j].h.low == r->hist[i].h.low && r->hist[j].h.high == r->hist[i].h.high;
             j++)
            ;
        if (merge_range(r, i, j, &m->ranges[m->nranges++]) < 0)
            return -1;
    }
    m->sample_rate_hz = r->nhist ? r->hist[0].h.rate : 0;
    m->bin_shift = common_shift(m);
    return 0;
}

static int build_arcs(struct reader *r)
{
    struct mp_model *m = r->m;
    size_t i, j, n = 0;

    mp_sort(r->arcs, r->narcs, sizeof(*r->arcs), cmp_arc);
    for (i = 0; i < r->narcs; i = j) {
        for (j = i + 1; j < r->narcs && cmp_arc(&r->arcs[i], &r->arcs[j]) == 0; j++)
            ;
        n++;
    }
    if (!(m->arcs = mp_model_alloc(m, (n ? n : 1) * sizeof(*m->arcs))))
        return -1;
    for (i = 0; i < r->narcs; i = j) {
        struct mp_model_arc *d = &m->arcs[m->narcs++];

        d->callsite = r->arcs[i].frompc;
        d->callee = r->arcs[i].selfpc;
        d->caller = d->callee_fn = -1;
        for (j = i; j < r->narcs && cmp_arc(&r->arcs[i], &r->arcs[j]) == 0; j++) {
            if (r->arcs[j].count > UINT64_MAX - d->count)
                return mp_error(m->name, "arc 0x%" PRIx64 " -> 0x%" PRIx64 ": its records add up to more than 2^64 calls",
                                d->callsite, d->callee);
            d->count += r->arcs[j].count;
        }
        /* as an image's: the target's 32-bit counter at its maximum */
        d->saturated = d->count == UINT32_MAX;
        if (m->c.total_calls > UINT64_MAX - d->count)
            return mp_error(m->name, "the arcs add up to more than 2^64 calls");
        m->c.total_calls += d->count;
        m->c.saturated_arcs += d->saturated;
        if (d->callsite == 0)
            m->c.outside_calls += d->count;
    }
    return 0;
}

int mp_model_from_gmon(struct mp_model *m, const char *name, const uint8_t *data, size_t len)
{
    struct mp_gmon_info g;
    struct reader r;
    struct mp_gmon_visitor v = {&r, take_hist, take_arc};
    int ret = -1;

    mp_model_init(m, name, MP_MODEL_GMON);
    if (mp_gmon_parse(&g, name, data, len) < 0)
        return -1;
    memset(&r, 0, sizeof(r));
    r.m = m;
    r.g = &g;
    r.cap_hist = g.nhist;
    r.cap_arcs = g.narcs;
    r.hist = malloc((g.nhist ? g.nhist : 1) * sizeof(*r.hist));
    r.arcs = malloc((g.narcs ? g.narcs : 1) * sizeof(*r.arcs));
    if (!r.hist || !r.arcs) {
        mp_error(name, "out of memory for %" PRIu32 " histogram and %" PRIu32 " arc records", g.nhist, g.narcs);
        goto out;
    }
    m->big = g.big;
    m->ptr_size = g.ptr_size;
    /* the file's bins are the counters that saturate in the BSD format */
    m->counter_bytes = g.format == MP_GMON_BSD ? 2 : 0;
    if (mp_gmon_walk(&g, data, len, &v) < 0 || build_ranges(&r) < 0 || build_arcs(&r) < 0)
        goto out;
    if (g.nbb)
        mp_warn(name, "%" PRIu32 " basic-block count record%s ignored (line-level counts are not part of the profile)",
                g.nbb, g.nbb == 1 ? "" : "s");
    ret = 0;
out:
    free(r.hist);
    free(r.arcs);
    if (ret < 0)
        mp_model_free(m);
    return ret;
}

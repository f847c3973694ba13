/*
 * json_read_ranges.c - the JSON document's histogram (json_read.h): each
 * range's bins as the bin size and its stated sum say, and no two
 * ranges on one address.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "json_read.h"
#include "profile_checks.h"
#include "sort.h"

static int read_bins(struct rd *r, const char *where)
{
    char w[48];
    int k;

    snprintf(w, sizeof(w), "%s.bins", where);
    r->bins.n = 0;
    if (mp_jp_array(&r->p, where, "bins") < 0)
        return -1;
    while ((k = mp_jp_item(&r->p, w)) == 1) {
        uint64_t *b = jr_vec_push(r, &r->bins);

        if (!b || jr_u64(r, w, NULL, b) < 0)
            return -1;
    }
    return k;
}

/* The bins stated and listed agree, and their sum is what "samples" says. */
static int check_range(struct rd *r, size_t off, const char *where, struct mp_model_range *rg)
{
    const uint64_t *b = r->bins.p;
    uint64_t sum = 0, i, shift = r->m->bin_shift;

    if (rg->high <= rg->low)
        return mp_jp_fail(&r->p, off, "%s: high 0x%" PRIx64 " is not above low 0x%" PRIx64, where, rg->high, rg->low);
    if (rg->nbins == 0 || rg->nbins != r->bins.n)
        return mp_jp_fail(&r->p, off, "%s: nbins %" PRIu64 ", but bins lists %zu (at least 1)", where, rg->nbins,
                          r->bins.n);
    if (shift && !mp_bins_span(rg->low, rg->high, rg->nbins, (unsigned)shift))
        return mp_jp_fail(&r->p, off,
                          "%s: %" PRIu64 " bins of 2^%" PRIu64 " bytes do not span 0x%" PRIx64 "..0x%" PRIx64
                          " (bin_shift)",
                          where, rg->nbins, shift, rg->low, rg->high);
    for (i = 0; i < rg->nbins; i++) {
        if (b[i] > UINT64_MAX - sum)
            return mp_jp_fail(&r->p, off, "%s: the bins add up to more than 2^64", where);
        sum += b[i];
        if (b[i] > rg->max_bin)
            rg->max_bin = b[i];
    }
    if (sum != rg->samples)
        return mp_jp_fail(&r->p, off, "%s: samples %" PRIu64 ", but the bins add up to %" PRIu64, where, rg->samples,
                          sum);
    return 0;
}

static int read_range(struct rd *r, const char *where)
{
    static const char *const keys[] = {"low", "high", "nbins", "samples", "bins", NULL};
    size_t off = mp_jp_offset(&r->p);
    struct mp_model_range *rg;
    struct range_pos *pos;
    uint32_t seen = 0;
    size_t n;
    int k, idx;

    if (!(rg = jr_vec_push(r, &r->ranges)) || !(pos = jr_vec_push(r, &r->range_pos)))
        return -1;
    if (mp_jp_object(&r->p, where, NULL) < 0)
        return -1;
    while ((k = jr_member(r, where, keys, &seen, &idx)) == 1) {
        switch (idx) {
        case 0: k = jr_addr(r, where, "low", &rg->low); break;
        case 1: k = jr_addr(r, where, "high", &rg->high); break;
        case 2: k = jr_u64(r, where, "nbins", &rg->nbins); break;
        case 3: k = jr_u64(r, where, "samples", &rg->samples); break;
        case 4: k = read_bins(r, where); break;
        default: k = mp_jp_skip(&r->p, where, r->p.key); break;
        }
        if (k < 0)
            return -1;
    }
    if (k < 0 || jr_required(r, off, where, keys, seen, 0x1f) < 0 || check_range(r, off, where, rg) < 0)
        return -1;
    pos->low = rg->low;
    pos->high = rg->high;
    pos->off = off;
    return jr_vec_keep(r, &r->bins, &rg->bins, &n, 1);
}

static int cmp_range_pos(const void *a, const void *b)
{
    const struct range_pos *x = a, *y = b;

    return x->low < y->low ? -1 : x->low > y->low;
}

/* Ranges that overlap would count an address twice. */
static int check_overlap(struct rd *r)
{
    struct range_pos *p = r->range_pos.p;
    size_t i;

    mp_sort(p, r->range_pos.n, sizeof(*p), cmp_range_pos);
    for (i = 1; i < r->range_pos.n; i++)
        if (mp_ranges_overlap(p[i - 1].low, p[i - 1].high, p[i].low, p[i].high))
            return mp_jp_fail(&r->p, p[i].off,
                              "range 0x%" PRIx64 "..0x%" PRIx64 " overlaps range 0x%" PRIx64 "..0x%" PRIx64
                              ": an address would be counted twice",
                              p[i].low, p[i].high, p[i - 1].low, p[i - 1].high);
    return 0;
}

int jr_read_ranges(struct rd *r)
{
    return jr_read_list(r, "ranges", read_range) < 0 ? -1 : check_overlap(r);
}

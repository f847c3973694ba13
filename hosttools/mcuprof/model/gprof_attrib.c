/*
 * gprof_attrib.c - gprof's attribution of the histogram to functions
 * (gprof_attrib.h).
 */
#include "gprof_attrib.h"

#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "image_read.h"
#include "sort.h"

static int ctz64(uint64_t v)
{
    int n = 0;

    while (v && !(v & 1)) {
        v >>= 1;
        n++;
    }
    return n;
}

static void add_pair(struct mp_attrib *a, long first, long last, uint64_t count)
{
    unsigned i;

    for (i = 0; i < a->npairs; i++) {
        if (a->pairs[i].a == first && a->pairs[i].b == last) {
            a->pairs[i].bins++;
            a->pairs[i].samples += count;
            return;
        }
    }
    if (a->npairs == MP_SHARED_KEEP) {
        a->pairs_dropped += count;
        return;
    }
    a->pairs[a->npairs].a = first;
    a->pairs[a->npairs].b = last;
    a->pairs[a->npairs].bins = 1;
    a->pairs[a->npairs].samples = count;
    a->npairs++;
}

static int cmp_pair(const void *x, const void *y)
{
    const struct mp_shared_pair *l = x, *r = y;

    if (l->samples != r->samples)
        return l->samples < r->samples ? 1 : -1;
    return l->a < r->a ? -1 : l->a > r->a;
}

/* First function whose extent ends above scaled address LO (gprof works in
 * 2-byte units, its UNIT type). */
static size_t first_ending_above(const struct mp_functab *t, uint64_t lo)
{
    size_t l = 0, h = t->n;

    while (l < h) {
        size_t mid = l + (h - l) / 2;

        if (t->f[mid].end / 2 <= lo)
            l = mid + 1;
        else
            h = mid;
    }
    return l;
}

/* hist_assign_samples_1 of binutils gprof: each bin's count is split
 * among the symbols it overlaps in proportion to the overlap. */
static uint64_t assign_range(struct mp_attrib *a, const struct mp_attrib_source *src,
                         const struct mp_functab *t, unsigned r, int *min_ctz)
{
    uint64_t low, high, nbins, i, sum = 0;
    uint64_t lowu;
    double scale;

    src->range(src->ctx, r, &low, &high, &nbins);
    lowu = low / 2;
    scale = (double)((high - low) / 2) / (double)nbins;
    for (i = 0; i < nbins; i++) {
        uint64_t count = src->bin(src->ctx, r, i);
        uint64_t blo, bhi;
        double credited = 0.0;
        long first = -1, last = -1;
        unsigned nover = 0, nruntime = 0;
        size_t j;

        if (!count)
            continue;
        sum += count;
        blo = lowu + (uint64_t)(scale * i);
        bhi = lowu + (uint64_t)(scale * (i + 1));
        for (j = first_ending_above(t, blo); j < t->n && t->f[j].addr / 2 < bhi; j++) {
            uint64_t slo = t->f[j].addr / 2, shi = t->f[j].end / 2;
            uint64_t olo = blo > slo ? blo : slo, ohi = bhi < shi ? bhi : shi;
            double credit;

            if (ohi <= olo)
                continue;
            credit = (double)(ohi - olo) * (double)count / scale;
            a->credit[j] += credit;
            credited += credit;
            if (t->f[j].hidden)
                a->hidden += credit;
            if (first < 0)
                first = (long)j;
            last = (long)j;
            nover++;
            nruntime += (unsigned)mp_runtime_symbol(t->f[j].name);
        }
        a->outside += (double)count - credited > 0.0 ? (double)count - credited : 0.0;
        if (nover < 2)
            continue;
        /* the runtime's entry points among themselves (the hook's labels):
         * all hook time whatever the split, and no alignment of the
         * user's can change it */
        if (nruntime == nover)
            continue;
        a->shared_bins++;
        a->shared_samples += count;
        add_pair(a, first, last, count);
        for (j = (size_t)first; j <= (size_t)last; j++) {
            a->shared[j] = 1;
            if (j > (size_t)first) {
                int z = ctz64(t->f[j].addr);

                if (z < *min_ctz)
                    *min_ctz = z;
            }
        }
    }
    return sum;
}

int mp_attrib_compute_from(struct mp_attrib *a, const struct mp_attrib_source *src, const struct mp_functab *t)
{
    int min_ctz = 64;
    uint64_t binned = 0;
    unsigned r;

    memset(a, 0, sizeof(*a));
    a->credit = calloc(t->n ? t->n : 1, sizeof(*a->credit));
    a->shared = calloc(t->n ? t->n : 1, 1);
    if (!a->credit || !a->shared) {
        mp_attrib_free(a);
        return mp_error(t->path, "out of memory for %zu functions", t->n);
    }
    for (r = 0; r < src->nranges; r++)
        binned += assign_range(a, src, t, r, &min_ctz);
    a->gprof_total = (double)binned - a->outside - a->hidden;
    if (a->gprof_total < 0.0)
        a->gprof_total = 0.0;
    mp_sort(a->pairs, a->npairs, sizeof(a->pairs[0]), cmp_pair);
    if (a->shared_bins && src->bin_shift) {
        unsigned shift = min_ctz < (int)src->bin_shift ? (unsigned)min_ctz : src->bin_shift - 1u;

        if (shift < MP_BIN_SHIFT_MIN)
            shift = MP_BIN_SHIFT_MIN;
        a->finer_shift = shift;
        for (r = 0; r < src->nranges; r++) {
            uint64_t low, high, nbins;

            src->range(src->ctx, r, &low, &high, &nbins);
            a->finer_ram += ((high - low) >> shift) * src->counter_bytes;
        }
    }
    return 0;
}

void mp_attrib_free(struct mp_attrib *a)
{
    free(a->credit);
    free(a->shared);
    a->credit = NULL;
    a->shared = NULL;
}


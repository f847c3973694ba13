/*
 * GNU tagged gmon.out (binutils gprof/gmon_out.h):
 *
 *   header  "gmon", u32 version 1, 12 zero bytes
 *   tag 0   histogram: lowpc, highpc (address width), u32 bin count,
 *           u32 samples per second, 15-byte dimension "seconds" NUL padded,
 *           1-byte abbreviation 's', then u16 bins
 *   tag 1   arc: frompc, selfpc (address width), u32 count
 *
 * A bin is only 16 bits. gprof sums a histogram record that repeats a range
 * it has already read into the earlier one bin by bin (hist.c,
 * hist_read_rec: "adding hit counts"), so a count above 65535 travels as
 * several records of the same range: record k carries the part of each bin
 * between k*65535 and (k+1)*65535.
 *
 * The records of a range repeat all of its bins, so their number must not
 * follow a counter: one bin of 2^31 samples would take 32769 copies of
 * the range (a 64 KB image made a 1 GB gmon.out). A range gets at most
 * MP_GNU_HIST_RECORDS_MAX records, so the histogram written is at most
 * that many times the input's bins: above it, every bin of every range and
 * the rate are divided by one factor, as the BSD writer does (gmon_bsd.c),
 * with a warning.
 */
#include "gmon_internal.h"

#include <string.h>

#define GNU_HEADER_SIZE 20u
#define GNU_TAG_HIST 0u
#define GNU_TAG_ARC 1u
#define GNU_DIMENSION_LEN 15u

uint32_t mp_gnu_scale(const struct mp_profile *p)
{
    uint64_t most = (uint64_t)MP_GNU_HIST_RECORDS_MAX * MP_GMON_BIN_MAX;
    uint32_t max = mp_hist_max(p);

    return max <= most ? 1u : (uint32_t)((max - 1u) / most + 1u);
}

/* Records of range H with its bins divided by K (to the nearest). */
static uint32_t hist_records(const struct mp_profile *p, size_t h, uint32_t k)
{
    uint32_t max = (uint32_t)(((uint64_t)p->hist[h].max + k / 2u) / k);

    return max == 0 ? 1 : (max - 1) / MP_GMON_BIN_MAX + 1;
}

static uint64_t hist_record_size(const struct mp_profile *p, size_t h)
{
    unsigned ps = p->m->ptr_size;

    return 1 + 2 * ps + 4 + 4 + GNU_DIMENSION_LEN + 1 + 2 * (uint64_t)p->hist[h].nbins;
}

uint64_t mp_gnu_size(const struct mp_profile *p)
{
    uint64_t size = GNU_HEADER_SIZE, records = 0;
    uint32_t k = mp_gnu_scale(p);
    size_t h, i;

    for (h = 0; h < p->nhist; h++)
        size += hist_records(p, h, k) * hist_record_size(p, h);
    for (i = 0; i < p->m->narcs; i++)
        records += mp_profile_arc_records(p->m->arcs[i].count, UINT32_MAX);
    return size + records * (1 + 2 * p->m->ptr_size + 4);
}

static void put_hist(struct mp_out *o, const struct mp_profile *p, size_t h, uint32_t record, uint32_t k)
{
    static const char dimension[GNU_DIMENSION_LEN] = "seconds";
    const struct mp_hist *hist = &p->hist[h];
    uint32_t floor = record * MP_GMON_BIN_MAX;

    mp_put8(o, GNU_TAG_HIST);
    mp_put_ptr(o, hist->low);
    mp_put_ptr(o, hist->high);
    mp_put32(o, hist->nbins);
    mp_put32(o, mp_scaled_rate(p, k));
    mp_put_bytes(o, dimension, sizeof(dimension));
    mp_put8(o, 's');
    mp_put_hist16(o, p, h, floor, k);
}

void mp_gnu_write(struct mp_out *o, const struct mp_profile *p)
{
    static const uint8_t zero[12];
    uint32_t r, k = mp_gnu_scale(p);
    size_t h, i;

    mp_put_bytes(o, "gmon", 4);
    mp_put32(o, 1);
    mp_put_bytes(o, zero, sizeof(zero));
    for (h = 0; h < p->nhist; h++) {
        uint32_t n = hist_records(p, h, k);

        for (r = 0; r < n; r++)
            put_hist(o, p, h, r, k);
    }
    /* a count above 32 bits as several records of the same arc */
    for (i = 0; i < p->m->narcs; i++) {
        const struct mp_model_arc *a = &p->m->arcs[i];
        uint64_t left = a->count;

        do {
            uint32_t n = left > UINT32_MAX ? UINT32_MAX : (uint32_t)left;

            mp_put8(o, GNU_TAG_ARC);
            mp_put_ptr(o, a->callsite);
            mp_put_ptr(o, a->callee);
            mp_put32(o, n);
            left -= n;
        } while (left);
    }
}

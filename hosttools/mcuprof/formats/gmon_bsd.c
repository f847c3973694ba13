/*
 * BSD 4.4 gmon.out, as binutils gprof/gmon_io.c reads it:
 *
 *   lowpc, highpc        address width
 *   u32 ncnt             header size + histogram bytes
 *   u32 version          0x00051879
 *   u32 profrate         samples per second
 *   3 x u32 spare        zero
 *   u16 bins
 *   arcs to the end      frompc, selfpc, count: all three of the address
 *                        width (gmon_read_raw_arc reads an 8-byte count on
 *                        64-bit targets)
 *
 * The header is 32 bytes with 4-byte addresses and 40 with 8-byte ones
 * (GMON_HDRSIZE_BSD44_32/64). There is one histogram record and no way to
 * carry a bin above 65535. When a bin is larger, every bin is divided by
 * the same factor k = ceil(largest / 65535), rounded to the nearest, and
 * the rate too: gprof's seconds (bin / rate) and shares (bin / total) stay
 * right within that rounding (docs/formats/gmon.md). The GNU format
 * carries the counts exactly.
 */
#include "gmon_internal.h"

#include <inttypes.h>

#include "diag.h"

#define BSD_VERSION 0x00051879u
#define BSD_SPARE_WORDS 3u

static uint32_t header_size(unsigned ptr_size)
{
    return 2 * ptr_size + 4 + 4 + 4 + 4 * BSD_SPARE_WORDS;
}

int mp_bsd_check(const struct mp_profile *p)
{
    const struct mp_model *m = p->m;
    uint32_t k;

    if (p->nhist > 1) {
        char list[160];
        size_t n = 0, h;

        list[0] = '\0';
        for (h = 0; h < p->nhist && n < sizeof(list); h++)
            n += (size_t)snprintf(list + n, sizeof(list) - n, "%s0x%" PRIx64 "..0x%" PRIx64,
                                  h ? ", " : "", p->hist[h].low, p->hist[h].high);
        return mp_error(m->name,
                        "nranges %zu (%s) but the BSD format holds one histogram range; "
                        "use --format gnu",
                        p->nhist, list);
    }
    if ((k = mp_bsd_scale(p)) > 1)
        mp_warn(m->name,
                "the largest histogram bin holds %" PRIu32 " samples, above 65535, the most a BSD gmon.out bin "
                "holds: every bin and the rate (%" PRIu32 " Hz) divided by %" PRIu32 ", so seconds and shares stay "
                "right within rounding (--format gnu carries the counts exactly)",
                p->hist[0].max, p->rate, k);
    return 0;
}

uint32_t mp_bsd_scale(const struct mp_profile *p)
{
    uint32_t max = p->hist[0].max;

    return max <= MP_GMON_BIN_MAX ? 1u : (max - 1u) / MP_GMON_BIN_MAX + 1u;
}


uint64_t mp_bsd_size(const struct mp_profile *p)
{
    unsigned ps = p->m->ptr_size;
    uint64_t records = 0, max = ps == 4 ? UINT32_MAX : UINT64_MAX;
    size_t i;

    for (i = 0; i < p->m->narcs; i++)
        records += mp_profile_arc_records(p->m->arcs[i].count, max);
    return header_size(ps) + 2 * (uint64_t)p->hist[0].nbins + records * 3 * ps;
}

void mp_bsd_write(struct mp_out *o, const struct mp_profile *p)
{
    unsigned ps = p->m->ptr_size;
    uint64_t max = ps == 4 ? UINT32_MAX : UINT64_MAX;
    uint32_t k = mp_bsd_scale(p);
    size_t i;

    mp_put_ptr(o, p->hist[0].low);
    mp_put_ptr(o, p->hist[0].high);
    mp_put32(o, header_size(ps) + 2 * p->hist[0].nbins);
    mp_put32(o, BSD_VERSION);
    mp_put32(o, mp_scaled_rate(p, k));
    for (i = 0; i < BSD_SPARE_WORDS; i++)
        mp_put32(o, 0);
    mp_put_hist16(o, p, 0, 0, k);
    /* the count has the address width: above it, repeated records */
    for (i = 0; i < p->m->narcs; i++) {
        const struct mp_model_arc *a = &p->m->arcs[i];
        uint64_t left = a->count;

        do {
            uint64_t n = left > max ? max : left;

            mp_put_ptr(o, a->callsite);
            mp_put_ptr(o, a->callee);
            mp_put_ptr(o, n);
            left -= n;
        } while (left);
    }
}

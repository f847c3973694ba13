#include "gmon_read.h"

#include <string.h>

#include <mcuprof/image.h>

#include "bytes.h"
#include "diag.h"

#define GNU_HEADER_SIZE 20u
#define GNU_DIMENSION_LEN 15u
#define BSD_VERSION 0x00051879u
#define BSD_SPARE_BYTES 12u

static void add_hist(struct mp_gmon_info *g, const struct mp_gmon_hist *h)
{
    if (g->nhist < MP_GMON_HIST_KEEP)
        g->hist[g->nhist] = *h;
    g->nhist++;
}

/* Sum NBINS u16 bins at P. */
static uint64_t sum_bins(const uint8_t *p, uint32_t nbins, int big)
{
    uint64_t sum = 0;
    uint32_t i;

    for (i = 0; i < nbins; i++)
        sum += mp_get16(p + 2 * (size_t)i, big);
    return sum;
}

/* One GNU histogram record at D + *POS (after its tag); 0 if it fits and
 * V (when given) took it. */
static int gnu_hist(struct mp_gmon_info *g, const uint8_t *d, size_t len, size_t *pos,
                    const struct mp_gmon_visitor *v)
{
    unsigned ps = g->ptr_size;
    size_t fixed = 2 * ps + 4 + 4 + GNU_DIMENSION_LEN + 1;
    struct mp_gmon_hist h;
    const uint8_t *p = d + *pos;

    if (len - *pos < fixed)
        return -1;
    memset(&h, 0, sizeof(h));
    h.low = mp_getptr(p, ps, g->big);
    h.high = mp_getptr(p + ps, ps, g->big);
    h.nbins = mp_get32(p + 2 * ps, g->big);
    h.rate = mp_get32(p + 2 * ps + 4, g->big);
    memcpy(h.dimension, p + 2 * ps + 8, GNU_DIMENSION_LEN);
    h.abbrev = (char)p[fixed - 1];
    if (h.low > h.high || h.nbins == 0 || (uint64_t)h.nbins * 2 > len - *pos - fixed)
        return -1;
    h.samples = sum_bins(p + fixed, h.nbins, g->big);
    add_hist(g, &h);
    *pos += fixed + 2 * (size_t)h.nbins;
    return v && v->hist ? v->hist(v->ctx, &h, p + fixed) : 0;
}

/* The GNU records from the header on: 0 when they account for every byte
 * (and V, when given, took each of them). */
static int gnu_try(struct mp_gmon_info *g, const uint8_t *d, size_t len, const struct mp_gmon_visitor *v)
{
    size_t pos = GNU_HEADER_SIZE;
    unsigned ps = g->ptr_size;

    g->nhist = g->narcs = g->nbb = 0;
    g->total_calls = 0;
    while (pos < len) {
        uint8_t tag;

        g->stop = pos; /* the record that does not parse, when one does not */
        tag = d[pos++];

        if (tag == 0) {
            if (gnu_hist(g, d, len, &pos, v) < 0)
                return -1;
        } else if (tag == 1) {
            uint32_t count;

            if (len - pos < 2 * ps + 4)
                return -1;
            count = mp_get32(d + pos + 2 * ps, g->big);
            g->narcs++;
            g->total_calls += count;
            if (v && v->arc &&
                v->arc(v->ctx, mp_getptr(d + pos, ps, g->big), mp_getptr(d + pos + ps, ps, g->big), count) < 0)
                return -1;
            pos += 2 * ps + 4;
        } else if (tag == 2) {
            /* basic-block counts: u32 n, then n (address, count) pairs */
            uint32_t n;

            if (len - pos < 4)
                return -1;
            n = mp_get32(d + pos, g->big);
            pos += 4;
            if ((uint64_t)n * 2 * ps > len - pos)
                return -1;
            pos += (size_t)n * 2 * ps;
            g->nbb++;
        } else {
            return -1;
        }
    }
    return 0;
}

/* The BSD layout: 0 when it accounts for every byte (and V, when given,
 * took each record). */
static int bsd_try(struct mp_gmon_info *g, const uint8_t *d, size_t len, const struct mp_gmon_visitor *v)
{
    unsigned ps = g->ptr_size;
    size_t hdr = 2 * ps + 4 + 4 + 4 + BSD_SPARE_BYTES;
    struct mp_gmon_hist h;
    uint32_t ncnt;
    size_t pos, arc = 3 * ps;

    if (len < hdr || mp_get32(d + 2 * ps + 4, g->big) != BSD_VERSION)
        return -1;
    memset(&h, 0, sizeof(h));
    h.low = mp_getptr(d, ps, g->big);
    h.high = mp_getptr(d + ps, ps, g->big);
    ncnt = mp_get32(d + 2 * ps, g->big);
    h.rate = mp_get32(d + 2 * ps + 8, g->big);
    if (ncnt < hdr || ncnt > len || (ncnt - hdr) % 2 != 0 || h.low > h.high ||
        (len - ncnt) % arc != 0)
        return -1;
    h.nbins = (uint32_t)((ncnt - hdr) / 2);
    memcpy(h.dimension, "seconds", 8);
    h.abbrev = 's';
    h.samples = sum_bins(d + hdr, h.nbins, g->big);
    g->version = BSD_VERSION;
    g->nhist = g->narcs = 0;
    g->total_calls = 0;
    add_hist(g, &h);
    if (v && v->hist && v->hist(v->ctx, &h, d + hdr) < 0)
        return -1;
    for (pos = ncnt; pos < len; pos += arc) {
        uint64_t count = mp_getptr(d + pos + 2 * ps, ps, g->big);

        g->narcs++;
        g->total_calls += count;
        if (v && v->arc &&
            v->arc(v->ctx, mp_getptr(d + pos, ps, g->big), mp_getptr(d + pos + ps, ps, g->big), count) < 0)
            return -1;
    }
    return 0;
}

int mp_gmon_parse(struct mp_gmon_info *g, const char *name, const uint8_t *d, size_t len)
{
    static const unsigned sizes[2] = {4, 8};
    unsigned o, s;

    memset(g, 0, sizeof(*g));
    if (len >= GNU_HEADER_SIZE && memcmp(d, "gmon", 4) == 0) {
        size_t furthest = GNU_HEADER_SIZE;

        g->format = MP_GMON_GNU;
        for (o = 0; o < 2; o++) {
            g->big = (int)o;
            g->version = mp_get32(d + 4, g->big);
            /* gprof accepts version 1 and the unversioned 0 */
            if (g->version > 1)
                continue;
            for (s = 0; s < 2; s++) {
                g->ptr_size = sizes[s];
                g->stop = len;
                /* gprof needs a histogram record: a header alone is no
                 * profile */
                if (gnu_try(g, d, len, NULL) == 0 && g->nhist > 0)
                    return 0;
                furthest = g->stop > furthest ? g->stop : furthest;
            }
        }
        return name ? mp_error(name, "GNU gmon.out records do not parse with 4- or 8-byte addresses "
                                     "in either byte order (the furthest reading fails at byte %zu of %zu: "
                                     "truncated or corrupt)",
                               furthest, len)
                    : -1;
    }
    g->format = MP_GMON_BSD;
    for (s = 0; s < 2; s++) {
        for (o = 0; o < 2; o++) {
            g->big = (int)o;
            g->ptr_size = sizes[s];
            if (bsd_try(g, d, len, NULL) == 0)
                return 0;
        }
    }
    return name ? mp_error(name, "neither a profile image (magic \"" MCUPROF_IMAGE_MAGIC_LE "\"/\"" MCUPROF_IMAGE_MAGIC_BE
                                 "\") nor a gmon.out "
                                 "(\"gmon\" or a BSD 4.4 header with version 0x00051879)")
                : -1;
}

uint16_t mp_gmon_bin(const struct mp_gmon_info *g, const uint8_t *bins, uint32_t i)
{
    return mp_get16(bins + 2 * (size_t)i, g->big);
}

int mp_gmon_walk(const struct mp_gmon_info *g, const uint8_t *d, size_t len, const struct mp_gmon_visitor *v)
{
    /* the parse's own reading again, on a copy: its counts restart */
    struct mp_gmon_info w = *g;

    return g->format == MP_GMON_GNU ? gnu_try(&w, d, len, v) : bsd_try(&w, d, len, v);
}

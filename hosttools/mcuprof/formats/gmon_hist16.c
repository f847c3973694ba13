/*
 * gmon_hist16.c - a histogram as gmon.out's 16-bit counters, shared by the
 * GNU and BSD writers (gmon_internal.h); its own file so the writers and
 * their dispatcher (gmon_write.c) do not depend on each other both ways.
 */
#include "gmon_internal.h"

/* In chunks written straight into the output buffer, the loop's values in
 * locals: a call or a store through the writer per bin costs several times
 * the conversion itself. */
void mp_put_hist16(struct mp_out *o, const struct mp_profile *p, size_t h, uint32_t floor, uint32_t div)
{
    const uint64_t *bins = p->hist[h].bins;
    uint32_t nbins = p->hist[h].nbins, b = 0;
    unsigned hi = o->big ? 0u : 1u, lo = 1u - hi;

    /* The common case, every bin fits 16 bits and nothing to subtract:
     * the low half of each count, as is. */
    if (bins && floor == 0 && div == 1 && p->hist[h].max <= MP_GMON_BIN_MAX) {
        while (b < nbins) {
            uint32_t n = nbins - b < 2048u ? nbins - b : 2048u, i;
            uint8_t *d = mp_put_reserve(o, 2u * (size_t)n);

            if (!d)
                return;
            /* constant offsets per byte order: the compiler vectorises these */
            if (o->big)
                for (i = 0; i < n; i++) {
                    d[2u * i] = (uint8_t)(bins[b + i] >> 8);
                    d[2u * i + 1u] = (uint8_t)bins[b + i];
                }
            else
                for (i = 0; i < n; i++) {
                    d[2u * i] = (uint8_t)bins[b + i];
                    d[2u * i + 1u] = (uint8_t)(bins[b + i] >> 8);
                }
            b += n;
            mp_put_commit(o, 2u * (size_t)n);
        }
        return;
    }
    while (b < nbins) {
        uint32_t n = nbins - b < 2048u ? nbins - b : 2048u, i;
        uint8_t *d = mp_put_reserve(o, 2u * (size_t)n);

        if (!d)
            return;
        for (i = 0; i < n; i++, b++) {
            uint64_t v = bins ? bins[b] : 0u;

            v = v > MP_GPROF_BIN_MAX ? MP_GPROF_BIN_MAX : v; /* as mp_profile_bin() */
            v = (v + div / 2u) / div; /* to the nearest */
            v = v > floor ? v - floor : 0u;
            v = v > MP_GMON_BIN_MAX ? MP_GMON_BIN_MAX : v;
            d[2u * i + hi] = (uint8_t)(v >> 8);
            d[2u * i + lo] = (uint8_t)v;
        }
        mp_put_commit(o, 2u * (size_t)n);
    }
}

uint32_t mp_scaled_rate(const struct mp_profile *p, uint32_t k)
{
    uint32_t r = (uint32_t)(((uint64_t)p->rate + k / 2u) / k);

    return r ? r : 1u;
}

uint32_t mp_hist_max(const struct mp_profile *p)
{
    uint32_t max = 0;
    size_t h;

    for (h = 0; h < p->nhist; h++)
        max = p->hist[h].max > max ? p->hist[h].max : max;
    return max;
}

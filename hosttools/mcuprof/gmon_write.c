#include "gmon_write.h"

#include <inttypes.h>
#include <string.h>

#include "diag.h"
#include "gmon_internal.h"

int mp_gmon_size(const struct mp_profile *p, enum mp_gmon_format format, uint64_t *size)
{
    if (format == MP_GMON_BSD) {
        if (mp_bsd_check(p) < 0)
            return -1;
        *size = mp_bsd_size(p);
    } else {
        *size = mp_gnu_size(p);
    }
    if (*size > MP_OUTPUT_MAX)
        return mp_error(p->m->name,
                        "the gmon.out would be %" PRIu64 " bytes, more than the %" PRIu64
                        "-byte limit (bins too large or too many)",
                        *size, MP_OUTPUT_MAX);
    return 0;
}

int mp_gmon_write(const struct mp_profile *p, enum mp_gmon_format format, FILE *f)
{
    struct mp_out o;

    mp_out_init(&o, f, p->m->big, p->m->ptr_size);
    if (format == MP_GMON_BSD)
        mp_bsd_write(&o, p);
    else
        mp_gnu_write(&o, p);
    mp_out_flush(&o);
    return o.failed ? -1 : 0;
}

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
            v = v > floor ? v - floor : 0u;
            v = (v + div / 2u) / div; /* to the nearest */
            v = v > MP_GMON_BIN_MAX ? MP_GMON_BIN_MAX : v;
            d[2u * i + hi] = (uint8_t)(v >> 8);
            d[2u * i + lo] = (uint8_t)v;
        }
        mp_put_commit(o, 2u * (size_t)n);
    }
}

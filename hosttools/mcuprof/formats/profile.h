/*
 * profile.h - a profile model (model.h) made ready for the gmon.out
 * writers: gprof's own limits and workarounds live here and nowhere else.
 *
 *  - gprof refuses a gmon.out without a histogram: a model without ranges
 *    gets one empty 1-bin histogram spanning the arcs' addresses;
 *  - gprof divides by the rate: a rate of 0 (unknown) is written as 1 Hz,
 *    so its "seconds" read as sample counts;
 *  - gprof adds repeated histogram records into an int per bin: a bin
 *    above MP_GPROF_BIN_MAX is clamped (with a warning);
 *  - an arc count above 32 bits travels as repeated records of the same
 *    arc, which gprof adds up (cg_arcs.c arc_add).
 *
 * Both gmon writers (GNU and BSD) take the same prepared profile.
 */
#ifndef MCUPROF_PROFILE_H
#define MCUPROF_PROFILE_H

#include <stdint.h>

#include "model.h"

/* Largest count one gmon.out histogram bin holds (u16). */
#define MP_GMON_BIN_MAX 0xFFFFu
/* gprof adds repeated histogram records into an int per bin; a bin above
 * this would wrap negative in gprof, so it is clamped (with a warning). */
#define MP_GPROF_BIN_MAX 0x7FFFFFFFu
/* Records of one range a GNU gmon.out holds at most (gmon_gnu.c): its
 * bins are exact up to 256 x 65535 samples (about 7 minutes of a 40 kHz
 * sampler in one bin), and the histogram written is at most 256 times the
 * size of the input's bins, whatever a counter says; a larger bin divides
 * every bin and the rate by one factor. */
#define MP_GNU_HIST_RECORDS_MAX 256u
/* Refuse to write a gmon.out larger than this: only an absurd profile
 * (millions of bins, each near 2^31 samples) needs more, and gprof could
 * not load it anyway. */
#define MP_OUTPUT_MAX ((uint64_t)1 << 30)

struct mp_hist {
    uint64_t low, high;
    uint32_t nbins;
    const uint64_t *bins; /* NULL: the empty histogram */
    uint32_t max;         /* largest bin, clamped to MP_GPROF_BIN_MAX */
};

struct mp_profile {
    const struct mp_model *m;
    size_t nhist;
    struct mp_hist *hist; /* malloc'd */
    uint32_t rate;        /* samples per second written, never 0 */
};

/* Prepare M for writing. Reports warnings (saturated counts, rate 0, no
 * ranges) once; fails when there is nothing gprof could show (no ranges
 * and no arcs) or a range gmon.out cannot describe. */
int mp_profile_prepare(struct mp_profile *p, const struct mp_model *m);
void mp_profile_free(struct mp_profile *p);

/* Bin BIN of prepared histogram H, clamped to MP_GPROF_BIN_MAX. */
static inline uint32_t mp_profile_bin(const struct mp_profile *p, size_t h, uint32_t bin)
{
    uint64_t v;

    if (!p->hist[h].bins)
        return 0;
    v = p->hist[h].bins[bin];
    return v > MP_GPROF_BIN_MAX ? MP_GPROF_BIN_MAX : (uint32_t)v;
}

/* Records an arc of COUNT calls takes when one record holds at most MAX. */
static inline uint64_t mp_profile_arc_records(uint64_t count, uint64_t max)
{
    return count == 0 ? 1 : (count - 1) / max + 1;
}

#endif /* MCUPROF_PROFILE_H */

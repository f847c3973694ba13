/*
 * profile.h - what a validated image becomes before any gmon.out writer
 * sees it: histogram ranges (one made up when the image has none), the
 * rate to write, and arcs with gprof's call-site addresses.
 *
 * Both writers (GNU and BSD) take the same prepared profile, so the
 * decisions below are made once.
 */
#ifndef MCUPROF_PROFILE_H
#define MCUPROF_PROFILE_H

#include <stdint.h>

#include "image_read.h"

/* Largest count one gmon.out histogram bin holds (u16). */
#define MP_GMON_BIN_MAX 0xFFFFu
/* gprof adds repeated histogram records into an int per bin; a bin above
 * this would wrap negative in gprof, so it is clamped (with a warning). */
#define MP_GPROF_BIN_MAX 0x7FFFFFFFu
/* Refuse to write a gmon.out larger than this: only an absurd image
 * (millions of bins, each near 2^31 samples) needs more, and gprof could
 * not load it anyway. */
#define MP_OUTPUT_MAX ((uint64_t)1 << 30)

struct mp_hist {
    uint64_t low, high;
    uint32_t nbins;
    int range; /* index into the image's ranges, or -1: the empty histogram */
};

/* Figures both `convert` and `info` report. */
struct mp_stats {
    uint64_t total_calls;
    uint32_t saturated_arcs;   /* count == UINT32_MAX: "at least" */
    uint32_t outside_arcs;     /* frompc outside code: interrupts, no caller */
    uint64_t outside_calls;
    uint64_t samples[MCUPROF_MAX_RANGES]; /* sum of each range's bins */
    uint32_t saturated_bins;   /* bins at their counter's maximum */
    uint32_t clamped_bins;     /* bins above MP_GPROF_BIN_MAX */
    uint32_t max_bin[MCUPROF_MAX_RANGES];
};

struct mp_profile {
    const struct mp_image *img;
    unsigned nhist;
    struct mp_hist hist[MCUPROF_MAX_RANGES];
    uint32_t rate; /* samples per second written to gmon.out, never 0 */
    struct mp_stats stats;
};

void mp_stats_compute(const struct mp_image *img, struct mp_stats *st);

/* Prepare IMG for writing. Reports warnings (saturated counts, rate 0, no
 * ranges) once; fails only when there is nothing gprof could show (no
 * ranges and no arcs). */
int mp_profile_prepare(struct mp_profile *p, const struct mp_image *img);

/* Bin BIN of prepared histogram H, clamped to MP_GPROF_BIN_MAX. Inline:
 * the writers call it for every bin. */
static inline uint32_t mp_profile_bin(const struct mp_profile *p, unsigned h, uint32_t bin)
{
    uint32_t v;

    if (p->hist[h].range < 0)
        return 0;
    v = mp_image_bin(p->img, (unsigned)p->hist[h].range, bin);
    return v > MP_GPROF_BIN_MAX ? MP_GPROF_BIN_MAX : v;
}

/* Largest (clamped) bin of histogram H. */
uint32_t mp_profile_max_bin(const struct mp_profile *p, unsigned h);

/* Arc INDEX (1..arcs_used) with call site and self mapped for gprof. */
void mp_profile_arc(const struct mp_profile *p, uint32_t index, struct mp_arc *arc);

#endif /* MCUPROF_PROFILE_H */

/*
 * trust.h - how far the time profile can be trusted: samples lost or
 * missed, too few samples, histogram bins that gprof splits between
 * functions, and each function's share with a 95 % interval.
 *
 * `convert` and `info` report the same warnings through diag.h; `info`
 * also prints the figures. Nothing here changes an output file or an exit
 * status.
 */
#ifndef MCUPROF_TRUST_H
#define MCUPROF_TRUST_H

#include <stdint.h>
#include <stdio.h>

#include "elf_funcs.h"
#include "gprof_attrib.h"
#include "image_read.h"
#include "wilson.h"

struct mp_trust_opts {
    double warn_pct;      /* losses and missed periods, % (default 1) */
    double shared_pct;    /* samples in shared bins, % (default 1) */
    uint64_t min_samples; /* fewer samples: warn (default 1000) */
    unsigned top;         /* functions listed by `info --elf` (default 20) */
};

#define MP_TRUST_DEFAULTS {1.0, 1.0, 1000, 20}

/* Parse a percentage option (0..100) or a count; report and return -1 on
 * a bad value. */
int mp_trust_parse_pct(const char *opt, const char *s, double *pct);
int mp_trust_parse_count(const char *opt, const char *s, uint64_t *n);

/* The options `convert` and `info` share, by their getopt codes: 'W'
 * --warn PCT, 'S' --shared-threshold PCT, 'M' --min-samples N. */
#define MP_TRUST_LONGOPTS                                                   \
    {"warn", required_argument, NULL, 'W'},                                 \
    {"shared-threshold", required_argument, NULL, 'S'},                     \
    {"min-samples", required_argument, NULL, 'M'}
int mp_trust_option(int code, const char *arg, struct mp_trust_opts *o);
#define MP_TRUST_HELP                                                                  \
    "      --warn PCT             warn when lost samples or missed periods exceed\n" \
    "                             PCT % of the samples (default 1)\n"                 \
    "      --shared-threshold PCT warn when more than PCT % of binned samples lie\n"  \
    "                             in bins gprof splits (default 1; needs --elf)\n"    \
    "      --min-samples N        warn below N samples (default 1000)\n"

/* How every function comes to start on a bin boundary, at every
 * optimisation level (GCC ignores -falign-functions at -Os and for cold
 * code): the words `check` and the shared-bin warning give as the fix,
 * as docs/instrumenting.md and cmake/mcuprof.cmake say it. */
#define MP_ALIGN_FIX \
    "-ffunction-sections and cmake/mcuprof_align.cmake on each object, as mcuprof_instrument() does"

/* Sample totals of an image. */
struct mp_sample_totals {
    uint64_t binned;   /* sum of every bin */
    uint64_t taken;    /* what shares are of: samples_taken less the
                        * samples held off (+ the missed periods charged to
                        * the bins), or binned + lost when that is short
                        * (struct mp_time_seen) */
    int taken_derived; /* samples_taken was below binned + losses: recomputed */
    uint64_t charged;  /* missed periods the bins hold (MCUPROF_TIMING_CHARGED) */
    uint64_t draws;    /* independent samples behind the shares: taken - charged */
    struct mp_time_seen seen; /* the same, as computed */
};
void mp_sample_totals(const struct mp_image *img, struct mp_sample_totals *t);

/* Report every warning that applies (A may be NULL: no ELF). */
void mp_trust_warn(const struct mp_image *img, const struct mp_trust_opts *o,
                   const struct mp_functab *t, const struct mp_attrib *a);

/* `info`: the time-profile section; with T and A the shared bins and the
 * per-function table as well. */
void mp_trust_print(FILE *f, const struct mp_image *img, const struct mp_trust_opts *o,
                    const struct mp_functab *t, const struct mp_attrib *a);

#endif /* MCUPROF_TRUST_H */

/*
 * trust.h - how far the time profile can be trusted: samples lost or
 * missed, too few samples, histogram bins that gprof splits between
 * functions, and each function's share with a 95 % interval.
 *
 * `convert`, `info` and `report` give the same warnings through diag.h;
 * `info` also prints the figures. All of it is read from the profile
 * model, gprof's attribution included (model_elf.c computes it once).
 * Nothing here changes an output file or an exit status.
 */
#ifndef MCUPROF_TRUST_H
#define MCUPROF_TRUST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "model.h"

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

/* The options `convert`, `info` and `report` share, by their getopt
 * codes: 'W' --warn PCT, 'S' --shared-threshold PCT, 'M' --min-samples N.
 * Their help ends with --group-clones', which the same commands take. */
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
    "      --min-samples N        warn below N samples (default 1000)\n"                \
    MP_GROUP_CLONES_HELP

/* --group-clones (commands.h), as every command that names functions
 * explains it. */
#define MP_GROUP_CLONES_HELP                                                           \
    "      --group-clones         show each GCC clone and cold part (foo.constprop.0,\n" \
    "                             foo.isra.0, foo.part.0, foo.cold) as part of foo;\n"  \
    "                             default: each under its own name\n"

/* How every function comes to start on a bin boundary, at every
 * optimisation level (GCC ignores -falign-functions at -Os and for cold
 * code): the words `check` and the shared-bin warning give as the fix,
 * as docs/instrumenting.md and cmake/mcuprof.cmake say it. */
#define MP_ALIGN_FIX \
    "-ffunction-sections and cmake/mcuprof_align.cmake on each object, as mcuprof_instrument() does"

/* Report every warning that applies to M: the shared bins and the time
 * in functions gprof hides only when M's functions are named. */
void mp_trust_warn(const struct mp_model *m, const struct mp_trust_opts *o);

/* M's losses in a few words, for the line that says an output was
 * written: "3 calls lost (arc table full), 12 samples lost (frozen)", or
 * "nothing lost" (the counts of every lost_* counter that is not zero,
 * the samples' words those of the warnings above). */
void mp_trust_losses(const struct mp_model *m, char *buf, size_t size);

/* `info`: the time-profile section; with M's functions named, the shared
 * bins and the per-function table as well. */
void mp_trust_print(FILE *f, const struct mp_model *m, const struct mp_trust_opts *o);

#endif /* MCUPROF_TRUST_H */

/*
 * profile_diff.h - two profiles (models with function names) compared
 * function by function and arc by arc, for `mcuprof diff`.
 *
 * Functions are matched by name, since addresses move between builds. A
 * name that two functions of one profile share (static functions in
 * different files) is qualified by the file its compilation unit comes
 * from, "name (file.c)", when DWARF says so for every function of that
 * name on both sides; otherwise by its rank in address order, "name#2",
 * and the comparison notes that it matched by position.
 *
 * Three comparisons, each with its own question:
 *  - calls: exact counts, no statistics;
 *  - share: the fraction of all samples (mp_model_samples_total) a
 *    function holds, tested with the pooled two-proportion z-test. A
 *    share is relative: when one function's time grows, every other
 *    function's share falls although its own time did not change;
 *  - self time: samples over the sample rate, what the function cost in
 *    each run, tested as two Poisson counts (given their sum, A's count is
 *    binomial with p = rate A / (rate A + rate B) when the time is equal).
 *    It names the functions whose own cost changed, meaningful when both
 *    runs did the same job.
 * Both tests are two-sided; a change is significant when its p-value is
 * below alpha / m, m the number of functions with samples on either side
 * (Bonferroni).
 */
#ifndef MCUPROF_PROFILE_DIFF_H
#define MCUPROF_PROFILE_DIFF_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"

/* Caller names that are not functions. */
#define MP_DIFF_SPONTANEOUS "<spontaneous>" /* call site 0: an interrupt, reset */
#define MP_DIFF_NOWHERE "<no function>"     /* an address in no function */

struct mp_diff_func {
    const char *key;            /* name, or qualified (see above) */
    long fa, fb;                /* index in A's / B's functions, -1: not there */
    double samples_a, samples_b;
    uint64_t calls_a, calls_b;
    double share_a, share_b;    /* fractions of each profile's samples */
    double share_z, share_p;    /* z > 0: B's share is larger */
    double time_a, time_b;      /* seconds, or samples without both rates */
    double time_z, time_p;      /* z > 0: B's time is larger */
    unsigned char tested;       /* has samples on either side */
    unsigned char share_sig, time_sig;
};

struct mp_diff_arc {
    const char *caller, *callee;
    uint64_t count_a, count_b;
    unsigned char in_a, in_b;
    unsigned char saturated;    /* a count hit the target's 32-bit limit: a lower bound */
};

struct mp_diff {
    const struct mp_model *a, *b;
    double total_a, total_b;    /* samples every share is measured against */
    struct mp_diff_func *funcs; /* sorted by key */
    size_t nfuncs;
    struct mp_diff_arc *arcs;   /* sorted by caller, then callee */
    size_t narcs;
    size_t ntested;             /* m of the Bonferroni correction */
    double alpha, alpha_each;   /* alpha, alpha / m */
    int seconds;                /* both rates known: times in seconds */
    size_t by_position;         /* names matched by their rank (name#k) */
    size_t by_file;             /* names qualified by their file */
};

/* Compare A and B (both with functions: mp_model_attach_elf, or a JSON
 * document's). Keys are allocated in the models' arenas. Refuses (one
 * error, -1) profiles of different machines or address widths, and
 * returns -1 on out of memory (reported). */
int mp_diff_compute(struct mp_diff *d, struct mp_model *a, struct mp_model *b, double alpha);
void mp_diff_free(struct mp_diff *d);

/* Two-sided p-value of the pooled two-proportion z-test of KA of NA
 * against KB of NB; *Z the statistic, positive when KB/NB is larger. No
 * samples on a side, or no variance, give p = 1 and z = 0. */
double mp_diff_ztest(double ka, double na, double kb, double nb, double *z);

/* Two-sided p-value that counts KA and KB, taken at rates RA and RB, come
 * from the same time (the conditional binomial test of two Poisson
 * counts); *Z positive when B's time is larger. */
double mp_diff_rate_test(double ka, double ra, double kb, double rb, double *z);

#endif /* MCUPROF_PROFILE_DIFF_H */

/*
 * gprof_attrib.h - the histogram charged to the functions of an ELF
 * exactly as binutils gprof does it (hist_assign_samples): each bin split
 * among the symbols it overlaps in proportion to the overlap, symbols
 * gprof hides and bytes in no function left out of its total. Computed
 * once, where a model's functions are named (model_elf.c), and kept in
 * the model: what `info --elf` prints, the shared-bin warning and every
 * format read it there, so their numbers are gprof's.
 */
#ifndef MCUPROF_GPROF_ATTRIB_H
#define MCUPROF_GPROF_ATTRIB_H

#include <stdint.h>

#include "elf_funcs.h"

/* One group of shared bins: the first and last function they overlap. */
struct mp_shared_pair {
    long a, b;
    uint32_t bins;
    uint64_t samples;
};

#define MP_SHARED_KEEP 64

/* gprof's attribution of the histogram to the functions of an ELF. */
struct mp_attrib {
    double *credit;          /* per function: samples gprof charges to it */
    unsigned char *shared;   /* per function: got part of a shared bin */
    double outside;          /* samples in no function (gprof drops them) */
    double hidden;           /* samples in functions gprof hides */
    double gprof_total;      /* gprof's denominator: binned - outside - hidden */
    uint64_t shared_samples; /* samples in bins overlapping 2+ functions, but for bins
                              * only the runtime's own entry points share (mp_runtime_symbol) */
    uint32_t shared_bins;
    struct mp_shared_pair pairs[MP_SHARED_KEEP];
    unsigned npairs;
    uint64_t pairs_dropped;  /* samples of pairs beyond MP_SHARED_KEEP */
    unsigned finer_shift;    /* bin shift that puts no two functions in a bin */
    uint64_t finer_ram;      /* histogram bytes with that shift */
};

/* The histogram it is computed on (a profile model's: model_elf.c). */
struct mp_attrib_source {
    const void *ctx;
    unsigned nranges;
    unsigned bin_shift;     /* for the finer shift's advice (0: unknown) */
    unsigned counter_bytes; /* for its RAM cost */
    void (*range)(const void *ctx, unsigned r, uint64_t *low, uint64_t *high, uint64_t *nbins);
    uint64_t (*bin)(const void *ctx, unsigned r, uint64_t i);
};
int mp_attrib_compute_from(struct mp_attrib *a, const struct mp_attrib_source *src, const struct mp_functab *t);
void mp_attrib_free(struct mp_attrib *a);

#endif /* MCUPROF_GPROF_ATTRIB_H */

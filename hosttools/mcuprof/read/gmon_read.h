/*
 * gmon_read.h - read back a gmon.out (GNU tagged or BSD 4.4): a summary
 * for `info`, every record for the profile model (model_gmon.c).
 *
 * gmon.out does not state its byte order or address width (gprof takes
 * both from the ELF). The reader tries each combination and keeps the first
 * that accounts for every byte of the file; `info` says they were inferred.
 */
#ifndef MCUPROF_GMON_READ_H
#define MCUPROF_GMON_READ_H

#include <stddef.h>
#include <stdint.h>

#include "gmon_format.h"

/* Histogram records kept for display; more are counted but not kept. */
#define MP_GMON_HIST_KEEP 16u

struct mp_gmon_hist {
    uint64_t low, high;
    uint32_t nbins;
    uint32_t rate;
    char dimension[16];
    char abbrev;
    uint64_t samples;
};

struct mp_gmon_info {
    enum mp_gmon_format format;
    int big;
    unsigned ptr_size;
    uint32_t version;
    uint32_t nhist;
    struct mp_gmon_hist hist[MP_GMON_HIST_KEEP];
    uint32_t narcs;
    uint64_t total_calls;
    uint32_t nbb; /* basic-block count records (GNU tag 2) */
    size_t stop;  /* GNU: where the last reading tried found a record it
                   * could not take (for the message) */
};

/* Parse LEN bytes; report and return -1 if no reading accounts for them. */
int mp_gmon_parse(struct mp_gmon_info *g, const char *name, const uint8_t *data, size_t len);

/* What mp_gmon_walk hands over, record by record in file order. A
 * callback returns 0 to go on, or -1 (after reporting) to stop the walk. */
struct mp_gmon_visitor {
    void *ctx;
    /* A histogram record: H's fields, and its H->nbins 16-bit bins at
     * BINS in the file's byte order (read them with mp_gmon_bin). */
    int (*hist)(void *ctx, const struct mp_gmon_hist *h, const uint8_t *bins);
    /* An arc record: call site (as written), callee, count (32 bits in the
     * GNU format, the address width in the BSD one). */
    int (*arc)(void *ctx, uint64_t frompc, uint64_t selfpc, uint64_t count);
};

/* Bin I of a histogram record handed to a visitor. */
uint16_t mp_gmon_bin(const struct mp_gmon_info *g, const uint8_t *bins, uint32_t i);

/* Walk the records of DATA, which mp_gmon_parse accepted as G, with the
 * same reading (format, byte order, address width). Returns -1 when a
 * callback stopped it. */
int mp_gmon_walk(const struct mp_gmon_info *g, const uint8_t *data, size_t len, const struct mp_gmon_visitor *v);

#endif /* MCUPROF_GMON_READ_H */

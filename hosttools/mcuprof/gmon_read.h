/*
 * gmon_read.h - read back a gmon.out (GNU tagged or BSD 4.4) for `info`.
 *
 * gmon.out does not state its byte order or address width (gprof takes
 * both from the ELF). The reader tries each combination and keeps the first
 * that accounts for every byte of the file; `info` says they were inferred.
 */
#ifndef MCUPROF_GMON_READ_H
#define MCUPROF_GMON_READ_H

#include <stddef.h>
#include <stdint.h>

#include "gmon_write.h"

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
};

/* Non-zero if DATA starts like a gmon.out of either format. */
int mp_gmon_looks_like(const uint8_t *data, size_t len);

/* Parse LEN bytes; report and return -1 if no reading accounts for them. */
int mp_gmon_parse(struct mp_gmon_info *g, const char *name, const uint8_t *data, size_t len);

#endif /* MCUPROF_GMON_READ_H */

/*
 * big_snapshot.h - profile images whose keyed tables hold many entries,
 * to sum them (test_profile_sum.c) and to time the summing
 * (bench_profile_sum.c).
 */
#ifndef TESTS_BIG_SNAPSHOT_H
#define TESTS_BIG_SNAPSHOT_H

#include <stdint.h>

#include "image_read.h"

/* The keyed tables an image may get: one bit each. */
enum {
    BS_ARCS = 1,     /* min(n, BS_MAX_ARCS) arcs */
    BS_CONTEXTS = 2, /* n contexts */
    BS_TASKS = 4,    /* n tasks */
    BS_LATE = 8,     /* n late-sample PCs */
    BS_PATHS = 16,   /* n call paths of 2 frames, each in a task and a context */
    BS_BINS = 32,    /* one range of n bins */
    BS_ALL = 63
};

/* Arc records are linked by 16-bit word offsets: a table holds fewer. */
#define BS_MAX_ARCS 4000u

/* What entry I of each table holds in snapshot ROUND (keys do not
 * depend on ROUND; counts do). */
uint32_t bs_context_key(uint32_t i);
uint32_t bs_context_samples(uint32_t i, unsigned round);
uint32_t bs_task_samples(uint32_t i, unsigned round);
uint32_t bs_late_samples(uint32_t i, unsigned round);
uint32_t bs_late_missed(uint32_t i, unsigned round);
uint32_t bs_path_samples(uint32_t i, unsigned round);
uint32_t bs_arc_count(uint32_t i, unsigned round);
uint32_t bs_bin(uint32_t i, unsigned round);
uint64_t bs_late_pc(uint32_t i);
uint64_t bs_arc_from(uint32_t i);
uint64_t bs_arc_self(uint32_t i);
uint64_t bs_path_frame(uint32_t i, unsigned k);
uint16_t bs_path_task(uint32_t i, uint32_t n);

/* Snapshot ROUND of an image whose TABLES (BS_*) hold N entries, parsed
 * into IMG, which points into the returned buffer (the caller frees it).
 * NULL if it cannot be built. */
uint8_t *bs_build(uint32_t n, unsigned tables, unsigned round, struct mp_image *img);

#endif /* TESTS_BIG_SNAPSHOT_H */

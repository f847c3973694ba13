/*
 * profile_sum.h - add up many snapshots of one firmware's image in 64-bit
 * counts, for drain mode: a small table on the target, emptied at every
 * pull, serves a run of any length.
 *
 * Arcs are keyed by (frompc, selfpc), bins by range and index, call paths
 * by (frames, flags), and every counter is summed. The sum becomes an
 * ordinary (synthetic) profile image again, so the one reader and the one
 * set of gmon.out writers handle it:
 * an arc count above what a record holds is split into several records of
 * the same arc (gprof's arc_add adds duplicates, binutils gprof/cg_arcs.c),
 * and bins travel as 32-bit counters that the GNU writer splits into
 * repeated histogram records of the same range.
 *
 * Bounded by design: every keyed table (arcs, contexts, tasks, paths,
 * late-sample PCs, blockers) keeps its entries in the order first seen
 * and finds them through an open-addressed index (at most half full,
 * linear probing) hashed with a seed drawn when the sum starts, which no
 * input can know: adding a snapshot of n entries takes expected O(n)
 * time whatever the keys, and writing the sum O(size of the sum).
 * Memory: one entry per distinct key (at most 48 bytes, paths their
 * frames too), room doubled as it fills, and an index of at most 4 words
 * per entry: below 16 bytes per byte of the summed image, which is
 * refused above MP_SUM_MAX_IMAGE (the pull that would pass it fails
 * before its drain: the output keeps the sum so far).
 */
#ifndef MCUPROF_PROFILE_SUM_H
#define MCUPROF_PROFILE_SUM_H

#include <stddef.h>
#include <stdint.h>

#include "image_read.h"

/* Largest summed image: 4 times the largest image a pull takes from its
 * header alone (snapshot.h). Keys that repeat, as a firmware's do, keep
 * the sum at the size of one image; a sum this large is new keys in
 * every snapshot. */
#define MP_SUM_MAX_IMAGE (256u << 20)

/* Largest count put in one arc record of the synthetic image: one below
 * the target's saturation value, so a split count is not mistaken for a
 * saturated one. */
#define MP_SUM_ARC_CHUNK 0xFFFFFFFEu

struct mp_sum_arc {
    uint64_t frompc, selfpc, count;
};

struct mp_sum_context {
    uint32_t key;
    uint64_t samples;
};

struct mp_sum_task {
    uint64_t handle, samples;
    uint32_t flags;
    char name[MCUPROF_TASK_NAME_MAX];
};

/* A call path, keyed by its recorded frames (depth of them), flags,
 * task (an index into the summed task table, MCUPROF_PATH_NO_TASK: none)
 * and context (MCUPROF_CTX_* key, MCUPROF_PATH_NO_CONTEXT: none). */
struct mp_sum_path {
    uint64_t *frames;
    unsigned depth, flags;
    uint32_t task, context;
    uint64_t samples;
};

/* The sampler's timing, summed: late samples by PC, blockers by source
 * (flags of every snapshot, priorities of the last). */
struct mp_sum_late {
    uint64_t pc, samples, missed;
};
struct mp_sum_blocker {
    uint32_t source;
    unsigned priority, sampler_priority, flags;
};
/* The index of a keyed table: slot i holds entry index + 1, 0 free;
 * cap a power of two, at least twice the entries. */
struct mp_sum_index {
    size_t *slots;
    size_t cap;
};

struct mp_sum_timing {
    unsigned flags;              /* MCUPROF_TIMING_* of any snapshot */
    uint64_t deferred_samples;
    int has_late, has_blockers;
    struct mp_sum_late *late;
    size_t nlate, late_cap;
    struct mp_sum_index late_index;
    uint64_t late_lost;
    struct mp_sum_blocker *blockers;
    size_t nblockers, blockers_cap;
    struct mp_sum_index blocker_index;
    uint64_t blockers_lost;
    int has_held;                /* some snapshot had the held-off table */
    uint64_t held_samples, held_periods, held_scans;
    uint32_t held_threshold;     /* the first snapshot's (a change is warned of) */
};

struct mp_sum {
    unsigned snapshots;          /* images added */
    struct mp_image first;       /* geometry of the first image (data not kept) */
    uint64_t seed;               /* of every index's hash */
    /* When it returns non-zero (Ctrl-C), mp_sum_add stops within 65536
     * entries and fails (NULL: never asked). */
    int (*stop)(void);
    uint64_t *bins[MCUPROF_MAX_RANGES];
    struct mp_sum_arc *arcs;     /* in the order first seen */
    size_t narcs, arcs_cap;
    struct mp_sum_index arc_index;
    uint64_t lost[MP_LOST_COUNT];
    uint64_t samples_taken;
    uint64_t missed_periods;     /* summed like a loss counter */
    uint64_t arc_table_repairs;  /* likewise */
    uint32_t generation;         /* of the last image */
    uint32_t saturated_arcs;     /* arcs that were saturated in some image */
    /* the extension tables, when the images have them: entries by key
     * (contexts) and by handle and name (tasks), counts summed */
    int has_contexts, has_tasks;
    struct mp_sum_context *contexts;
    size_t ncontexts, contexts_cap;
    struct mp_sum_index context_index;
    struct mp_sum_task *tasks;
    size_t ntasks, tasks_cap;
    struct mp_sum_index task_index;
    uint64_t contexts_lost, tasks_lost, tasks_invalid;
    /* the snapshot being added: its task entry i is the summed entry
     * task_map[i] (what its paths' task indexes become) */
    uint32_t *task_map;
    size_t task_map_cap;
    /* the path table: paths by (frames, flags, task, context) */
    int has_paths;
    unsigned path_depth_max;
    struct mp_sum_path *paths;
    size_t npaths, paths_cap;
    struct mp_sum_index path_index;
    uint64_t paths_lost, paths_invalid;
    struct mp_sum_timing timing;
};

void mp_sum_init(struct mp_sum *s);
void mp_sum_free(struct mp_sum *s);

/* Add a validated image. The first fixes the geometry; a later image with
 * another byte order, pointer size, machine, build-id or histogram layout
 * (the firmware was changed) is refused, and so is one that would take
 * the summed image above MP_SUM_MAX_IMAGE. After a failure S is only fit
 * for mp_sum_free (what was written from it before stays true). */
int mp_sum_add(struct mp_sum *s, const struct mp_image *img);

/* Build the synthetic image of the sum (malloc'd, in the first image's byte
 * order) for mp_image_parse and the writers. */
int mp_sum_image(const struct mp_sum *s, uint8_t **data, size_t *len);

/* Look up a path's summed samples by KEY's recorded frames, depth, flags,
 * task and context (its samples ignored; tests). 0 if absent. */
uint64_t mp_sum_path_samples(const struct mp_sum *s, const struct mp_sum_path *key);

/* Look up an arc's summed count (tests, reports). 0 if absent. */
uint64_t mp_sum_arc_count(const struct mp_sum *s, uint64_t frompc, uint64_t selfpc);

#endif /* MCUPROF_PROFILE_SUM_H */

/*
 * image_builder.h - makes profile images for the tests from a description.
 *
 * It writes every header field at its literal byte offset, independently of
 * the product's reader and of the struct in mcuprof/image.h, so a layout
 * mistake on either side shows up as a test failure. Values are another
 * matter: the magic is the header's own (MCUPROF_IMAGE_MAGIC_LE/_BE).
 */
#ifndef TESTS_IMAGE_BUILDER_H
#define TESTS_IMAGE_BUILDER_H

#include <stddef.h>
#include <stdint.h>

/* Literal header offsets (the layout documented in mcuprof/image.h). */
enum {
    TB_OFF_MAGIC = 0,
    TB_OFF_VERSION = 4,
    TB_OFF_BYTE_ORDER = 6,
    TB_OFF_PTR_SIZE = 7,
    TB_OFF_MACHINE = 8,
    TB_OFF_HEADER_SIZE = 10,
    TB_OFF_IMAGE_SIZE = 12,
    TB_OFF_IMAGE_ADDR = 16,
    TB_OFF_ARCS_OFFSET = 24,
    TB_OFF_ARCS_CAPACITY = 28,
    TB_OFF_ARCS_USED = 32,
    TB_OFF_ARC_RECORD_SIZE = 36,
    TB_OFF_HASH_SHIFT = 38,
    TB_OFF_BUCKETS_OFFSET = 40,
    TB_OFF_NBUCKETS = 44,
    TB_OFF_SAMPLE_RATE = 48,
    TB_OFF_BIN_SHIFT = 52,
    TB_OFF_COUNTER_BYTES = 53,
    TB_OFF_NRANGES = 54,
    TB_OFF_BUILD_ID_LEN = 55,
    TB_OFF_BUILD_ID = 56,
    TB_OFF_RANGES = 88, /* 24 bytes each: low, high, hist_offset, nbins */
    TB_OFF_STATE = 184,
    TB_OFF_FREEZE_REQUEST = 188,
    TB_OFF_FREEZE_ACK = 192,
    TB_OFF_GENERATION = 196,
    TB_OFF_LOST = 200, /* six counters, then samples_taken */
    TB_OFF_SAMPLES_TAKEN = 224,
    TB_OFF_LINKS_OFFSET = 228,
    TB_OFF_MISSED_PERIODS = 232,
    TB_OFF_TIMER_PERIOD = 236,
    TB_OFF_MISSED_SOURCE = 240,
    TB_OFF_JITTER_PERCENT = 241,
    TB_OFF_TIMING_FLAGS = 242,
    TB_OFF_EXT_OFFSET = 248,
    TB_OFF_DEFERRED_SAMPLES = 252,
    TB_HEADER_SIZE = 256
};

/* Extension tables: a 24-byte header (kind, entry_size, size, capacity,
 * used, lost, invalid) and the entries. */
enum {
    TB_EXT_KIND = 0,
    TB_EXT_ENTRY_SIZE = 2,
    TB_EXT_SIZE = 4,
    TB_EXT_CAPACITY = 8,
    TB_EXT_USED = 12,
    TB_EXT_LOST = 16,
    TB_EXT_INVALID = 20,
    TB_EXT_HEADER = 24,
    TB_EXT_CONTEXTS = 1, /* entries: key, samples: 8 bytes */
    TB_EXT_TASKS = 2,    /* entries: handle (8), samples, flags, name (16): 32 bytes */
    TB_EXT_PATHS = 3,
    TB_EXT_SPILL = 4,
    TB_EXT_LATE = 5,     /* entries: pc (8), samples, missed: 16 bytes */
    TB_EXT_BLOCKERS = 6, /* entries: source, priority, sampler_priority, flags (2): 8 bytes */
    TB_EXT_HELD = 7,     /* one entry: samples, periods, threshold, scans: 16 bytes */
    TB_EXT_TASK_PATHS = 8 /* entries: samples, depth, flags, context, task, 0 (2), frames */
};

#define TB_RANGE_OFF(i, field) (TB_OFF_RANGES + 24 * (i) + (field))
#define TB_R_LOW 0
#define TB_R_HIGH 8
#define TB_R_HIST_OFFSET 16
#define TB_R_NBINS 20

struct tb_arc {
    uint64_t frompc, selfpc;
    uint32_t count;
};

/* A call path: samples, depth, flags, then the frames (ptr_size each). */
#define TB_PATH_FRAMES_MAX 8
struct tb_path {
    uint32_t samples;
    uint16_t depth, flags;
    uint64_t frames[TB_PATH_FRAMES_MAX];
};

/* Where late samples landed, and an interrupt the sampler cannot preempt. */
struct tb_late {
    uint64_t pc;
    uint32_t samples, missed;
};
struct tb_blocker {
    uint32_t source;
    uint8_t priority, sampler_priority;
    uint16_t flags;
};
/* A spill entry: the bin of range RANGE that carried CARRIES times. */
struct tb_spill {
    unsigned range;
    uint32_t bin, carries;
};
/* Late samples held off by a handler (struct mcuprof_held). */
struct tb_held {
    uint32_t samples, periods, threshold, scans;
};

/* Samples in a context (MCUPROF_CTX_* key). */
struct tb_context {
    uint32_t key, samples;
};

struct tb_range {
    uint64_t low;
    uint32_t nbins;
    const uint32_t *bins; /* nbins values, stored with counter_bytes */
};

struct tb_image {
    int big;
    unsigned ptr_size;
    uint16_t machine;
    uint64_t image_addr;
    uint32_t rate;
    uint8_t bin_shift;
    uint8_t counter_bytes;
    unsigned nranges;
    struct tb_range ranges[4];
    unsigned narcs;
    const struct tb_arc *arcs;
    uint32_t arcs_capacity; /* 0: narcs + 2 */
    uint32_t nbuckets;      /* 0: 8 */
    uint16_t hash_shift;
    uint8_t build_id_len;
    const uint8_t *build_id;
    uint32_t state, freeze_request, freeze_ack, generation;
    uint32_t lost[6];
    uint32_t samples_taken; /* raised to the bins' sum, as the runtime guarantees, */
    int samples_exact;      /* ... unless this is set: an inconsistent image */
    uint32_t missed_periods, timer_period;
    uint8_t missed_source, jitter_percent;
    /* A path table after the histogram when path_depth_max is not 0,
     * holding npaths entries of path_entry_size bytes (0: 8 +
     * path_depth_max * ptr_size); samples_taken is raised to its samples
     * plus paths_lost unless samples_exact. paths_off gets its offset. */
    uint16_t path_depth_max, path_entry_size;
    unsigned npaths;
    const struct tb_path *paths;
    uint32_t paths_lost, paths_invalid;
    /* The path table as a runtime that keys paths by task and context
     * writes it (kind 8, 16-byte entry header; path_entry_size 0: 16 +
     * path_depth_max * ptr_size), path i's task path_tasks[i] and context
     * path_contexts[i] (NULL: none); else as an older one (kind 3). */
    int task_paths;
    const uint16_t *path_tasks;
    const uint32_t *path_contexts;
    /* A task table (when ntasks is not 0) after every other table:
     * entry i has handle 0x20001000 + 0x100 * i (0 when its name is
     * NULL: before the scheduler), no samples, task_names[i]. */
    unsigned ntasks;
    const char *const *task_names;
    const uint32_t *task_samples; /* NULL: none */
    /* A context table (when ncontexts is not 0) after the task table;
     * samples_taken is raised to its samples unless samples_exact. */
    unsigned ncontexts;
    const struct tb_context *contexts;
    uint32_t contexts_lost;
    /* The sampler's timing: the header words, then a late-sample table
     * (when has_late), a blocker table (when has_blockers) and the
     * held-off table (when has_held) after the path table, in that
     * order. */
    uint16_t timing_flags;
    uint32_t deferred_samples;
    int has_late, has_blockers;
    unsigned nlate, nblockers;
    const struct tb_late *late;
    const struct tb_blocker *blockers;
    uint32_t late_lost, blockers_lost;
    int has_held;
    struct tb_held held;
    /* A spill table when spill_capacity is not 0, after the held-off table
     * if there is one: nspill entries of {range, bin, carries}, each entry's
     * bin_offset computed from its range and bin. samples_taken is raised
     * by the carries (x 65536, or 2^32 with 4-byte counters) unless
     * samples_exact. */
    uint32_t spill_capacity, spill_lost;
    unsigned nspill;
    const struct tb_spill *spill;
};

/* Offsets of the late-sample and blocker tables tb_build puts in an
 * image of D. */
size_t tb_late_offset(const struct tb_image *d);
size_t tb_blockers_offset(const struct tb_image *d);
size_t tb_held_offset(const struct tb_image *d);

/* Offset of the path table tb_build puts in an image of D. */
size_t tb_paths_offset(const struct tb_image *d);

/* Offset of the spill table tb_build puts in an image of D; its entries
 * follow its 24-byte header, 8 bytes each (bin_offset, carries). */
size_t tb_spill_offset(const struct tb_image *d);

/* Build the image into BUF (CAP bytes). Returns its size, 0 if CAP is too
 * small. */
size_t tb_build(const struct tb_image *d, uint8_t *buf, size_t cap);

/* Overwrite a field in a built image. */
void tb_put16(uint8_t *buf, size_t off, uint16_t v, int big);
void tb_put32(uint8_t *buf, size_t off, uint32_t v, int big);
void tb_put64(uint8_t *buf, size_t off, uint64_t v, int big);

/* The start of most descriptions: little-endian ARM, 4-byte addresses,
 * 1000 Hz, 4-byte bins of 2-byte counters, every other field 0. */
void tb_arm(struct tb_image *d);

/* A small valid image description: little-endian ARM, 4-byte addresses,
 * two arcs (5 and 7000 calls), one 64-bin range at 0x1000 with 2-byte
 * counters, room for ARCS_CAPACITY arcs, placed at IMAGE_ADDR. */
void tb_small(struct tb_image *d, uint64_t image_addr, uint32_t arcs_capacity);

/* Write LEN bytes to PATH; 0 on success. */
int tb_write_file(const char *path, const uint8_t *buf, size_t len);

#endif /* TESTS_IMAGE_BUILDER_H */

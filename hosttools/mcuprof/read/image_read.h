/*
 * image_read.h - parse and validate a profile image (mcuprof/image.h).
 *
 * The parser reads every field by its offset in the target's byte order and
 * checks the whole layout before anything uses it, so the writers can index
 * arcs and bins without further bounds checks.
 */
#ifndef MCUPROF_IMAGE_READ_H
#define MCUPROF_IMAGE_READ_H

#include <stddef.h>
#include <stdint.h>

#include <mcuprof/image.h>

#include "arch.h" /* mp_machine_name, for every reader of an image's machine */
#include "bytes.h"

/* Bin shifts accepted by the reader. gprof measures histogram addresses in
 * 2-byte units (its UNIT type), and 2 bytes is also the smallest instruction
 * on Thumb and on RISC-V with the C extension: a 1-byte bin cannot be
 * represented in gmon.out. Above 16 MiB per bin a histogram says nothing
 * about any function of an MCU firmware, and the cap keeps nbins << shift
 * (at most 2^32 << 24) far from overflowing 64 bits. */
#define MP_BIN_SHIFT_MIN 1u
#define MP_BIN_SHIFT_MAX 24u

struct mp_range {
    uint64_t low, high;
    uint32_t hist_offset;
    uint32_t nbins;
    /* its bins, read once by mp_image_parse: every later pass that needs
     * only these does not read the histogram again */
    uint64_t bin_sum;        /* samples in all its bins, spilled carries included */
    uint64_t bin_max;        /* the largest bin, spilled carries included */
    uint32_t bins_saturated; /* bins at the counter's maximum without a carry */
};

/* Indices of the "what was not recorded" counters, in header order. */
enum mp_lost {
    MP_LOST_ARCS_TABLE_FULL,
    MP_LOST_CALLS_REENTRANT,
    MP_LOST_CALLS_FROZEN,
    MP_LOST_SAMPLES_OUT_OF_RANGE,
    MP_LOST_SAMPLES_SATURATED,
    MP_LOST_SAMPLES_FROZEN,
    MP_LOST_COUNT
};

/* Name (the header field) of each lost counter, indexed by enum mp_lost. */
extern const char *const mp_lost_names[MP_LOST_COUNT];

/* An extension table (mcuprof/image.h struct mcuprof_ext), validated. */
struct mp_ext {
    uint16_t kind, entry_size;
    uint32_t offset;   /* of its header */
    uint32_t size, capacity, used, lost, invalid;
};
/* Extension tables read; an image with more is refused (it is not one
 * the runtime wrote). */
#define MP_EXT_MAX 8u

struct mp_image {
    const char *name;     /* file name for messages */
    const uint8_t *data;  /* the image bytes (not owned) */
    int big;              /* image is big-endian */

    uint16_t version;
    unsigned ptr_size;
    uint16_t machine;
    uint16_t header_size;
    uint32_t image_size;
    uint64_t image_addr;

    uint32_t arcs_offset;
    uint32_t arcs_capacity;
    uint32_t arcs_used;
    uint16_t arc_record_size;
    uint16_t hash_shift;
    uint32_t buckets_offset;
    uint32_t nbuckets;
    uint32_t links_offset;

    uint32_t sample_rate_hz;
    uint8_t bin_shift;
    uint8_t counter_bytes;
    uint8_t nranges;
    uint8_t build_id_len;
    uint8_t build_id[MCUPROF_BUILD_ID_MAX];
    struct mp_range ranges[MCUPROF_MAX_RANGES];

    uint32_t state;
    uint32_t freeze_request;
    uint32_t freeze_ack;
    uint32_t generation;
    uint32_t lost[MP_LOST_COUNT];
    uint32_t samples_taken;

    /* the sampler's timing (zeros in older images: not measured) */
    uint32_t missed_periods;
    uint32_t arc_table_repairs; /* chains the runtime cut after a stray write */
    uint32_t timer_period;
    uint8_t missed_source; /* MCUPROF_MISSED_*, checked <= MCUPROF_MISSED_CLOCK */
    uint8_t jitter_percent;
    uint16_t timing_flags;     /* MCUPROF_TIMING_*, bits unknown here dropped (timing_read.c) */
    uint32_t deferred_samples; /* 0 unless MCUPROF_TIMING_DEFERRED */

    /* extension tables (image_ext.c) */
    uint32_t ext_offset;
    unsigned next;
    struct mp_ext ext[MP_EXT_MAX];
    int contexts, tasks; /* index into ext of that kind, -1: none */
    int paths;           /* likewise, the call-path table */
    unsigned path_depth_max; /* frames per path entry (entry_size - header) / ptr_size */
    int late, blockers;      /* the late-sample and blocker tables (timing_read.c) */
    int spill;               /* index into ext of the spill table, -1: none (spill_read.c) */
    uint64_t spill_samples;  /* samples its carries add to the bins */
    int held;                /* the table of samples held off (MCUPROF_EXT_HELD), -1: none */
    struct mcuprof_held held_entry; /* its entry, checked; zeros without one */
    uint64_t late_samples;   /* the late-sample table's samples, lost included */
    uint64_t late_missed;    /* and the periods its entries charged */
};

/* Read and check the extension tables of an image whose header and tables
 * mp_image_parse has read (image_ext.c). */
int mp_image_read_ext(struct mp_image *img);

/* The sampler's timing words of the header (timing_flags,
 * deferred_samples), checked against samples_taken: after the counters
 * are read, before the extension tables (timing_read.c). */
int mp_image_read_timing(struct mp_image *img, const uint8_t *d);

/* Check a late-sample, blocker or held-off table E (MCUPROF_EXT_LATE,
 * _BLOCKERS, _HELD) that image_ext.c read, and note it in IMG
 * (timing_read.c). */
int mp_image_timing_ext(struct mp_image *img, const struct mp_ext *e, unsigned index);

/* The late-sample and held-off tables against the header, once every
 * table is read (they may come in any order): the samples they count are
 * samples taken, the periods they hold were counted in missed_periods
 * (timing_read.c). */
int mp_image_check_timing(const struct mp_image *img);

/* Entry I (< used) of the late-sample table (validated: pc not 0, each
 * pc once). */
void mp_image_late(const struct mp_image *img, uint32_t i, uint64_t *pc, uint32_t *samples, uint32_t *missed);

/* Entry I (< used) of the blocker table (validated: a source of the
 * image's machine, each once; flags unknown here dropped). */
void mp_image_blocker(const struct mp_image *img, uint32_t i, uint32_t *source, unsigned *priority,
                      unsigned *sampler_priority, unsigned *flags);

/* Bins may hold more than samples_taken: the missed periods charged to
 * them (MCUPROF_TIMING_CHARGED), and less: the samples held off, binned
 * nowhere (struct mcuprof_held). What the bins may hold at most, or
 * UINT64_MAX when a saturated counter bounds nothing. */
uint64_t mp_image_bin_bound(const struct mp_image *img);
/* Find and check the spill table (every entry on a bin of a range, no
 * bin twice, its lost within lost_samples_saturated) and add its carries
 * to the ranges' sums, maxima and saturated bins (spill_read.c). */
int mp_image_read_spill(struct mp_image *img);

/* Entry I (< used) of the spill table. */
void mp_image_spill(const struct mp_image *img, uint32_t i, uint32_t *bin_offset, uint32_t *carries);

/* What one carry is worth: 65536 with 2-byte counters, 2^32 with 4. */
uint64_t mp_image_spill_unit(const struct mp_image *img);

/* Add the carries of range RANGE's bins to BINS (its nbins counts). */
void mp_image_spill_add(const struct mp_image *img, unsigned range, uint64_t *bins);

/* The time a profile's shares are of: what the sampler could see.
 *
 * A runtime that charges missed periods (MCUPROF_TIMING_CHARGED) keeps,
 * while no counter saturates,
 *   bins + lost samples (out of range, saturated, frozen) + held.samples
 *     == samples_taken + (missed_periods - held.periods)
 * (periods missed before an out-of-range late sample are in
 * lost_samples_out_of_range; those missed before a late sample taken
 * frozen are in no bin, so the left side may be short by them). Without
 * it, bins + lost samples == samples_taken - held.samples.
 *
 * The samples held off and the periods missed before them are time the
 * sampler could not see: they are in no function, and the shares leave
 * them out. The lost samples stay in: the sampler saw them, a table had
 * no room. So the total is samples_taken - held.samples + charged, where
 * charged = missed_periods - held.periods with CHARGED, else 0. */
struct mp_time_seen {
    uint64_t charged;  /* missed periods the bins (and losses) hold */
    uint64_t taken;    /* what shares are of: samples_taken - held.samples
                        * + charged, or binned + lost when that is short */
    int taken_derived; /* it was short: binned + lost instead */
    uint64_t draws;    /* independent samples behind the shares: taken - charged */
};
void mp_time_seen(struct mp_time_seen *t, uint64_t samples_taken, uint64_t missed_periods, unsigned timing_flags,
                  uint64_t held_samples, uint64_t held_periods, uint64_t binned_and_lost);

/* What T's total is, for the line that prints it: "samples_taken",
 * "samples_taken less the samples held off, plus the missed periods
 * charged to the bins", ... (HELD: samples held off). */
const char *mp_time_seen_what(const struct mp_time_seen *t, uint64_t held);

/* Entry I (< used) of the context table: its key and samples. */
void mp_image_context(const struct mp_image *img, uint32_t i, uint32_t *key, uint32_t *samples);

/* Entry I (< used) of the task table; NAME gets the name, NUL terminated
 * (MCUPROF_TASK_NAME_MAX + 1 bytes). */
void mp_image_task(const struct mp_image *img, uint32_t i, uint64_t *handle, uint32_t *samples, uint32_t *flags,
                   char *name);

/* Entry I (< used) of the path table: its samples, frames in use and
 * MCUPROF_PATH_* flags (validated: depth <= path_depth_max, known flags). */
void mp_image_path(const struct mp_image *img, uint32_t i, uint32_t *samples, unsigned *depth, unsigned *flags);

/* The task (an index into the task table, MCUPROF_PATH_NO_TASK: none)
 * and context (MCUPROF_CTX_* key, MCUPROF_PATH_NO_CONTEXT: none) of path
 * entry I; both none in an older runtime's table (MCUPROF_EXT_PATHS). */
void mp_image_path_key(const struct mp_image *img, uint32_t i, uint32_t *task, uint32_t *context);

/* Frame K (< path_depth_max) of path entry I, as recorded (selfpc, Thumb
 * bit set on ARM), outermost first. */
uint64_t mp_image_path_frame(const struct mp_image *img, uint32_t i, unsigned k);

/* One arc as recorded by the target (raw return address, raw self). */
struct mp_arc {
    uint64_t frompc;
    uint64_t selfpc;
    uint32_t count;
};

/* Parse LEN bytes at DATA (a file named NAME). On success fill IMG and
 * return 0; otherwise report one error naming the field and return -1.
 * IMG keeps pointers to DATA and NAME. */
int mp_image_parse(struct mp_image *img, const char *name, const uint8_t *data, size_t len);

/* Arc record INDEX, 1 <= INDEX <= arcs_used. */
void mp_image_arc(const struct mp_image *img, uint32_t index, struct mp_arc *arc);

/* Counter BIN of range RANGE. Inline: every pass over the histogram
 * reads each bin through it. */
static inline uint32_t mp_image_bin(const struct mp_image *img, unsigned range, uint32_t bin)
{
    const uint8_t *p = img->data + img->ranges[range].hist_offset + (size_t)bin * img->counter_bytes;

    return img->counter_bytes == 4 ? mp_get32(p, img->big) : mp_get16(p, img->big);
}

/* Value of a saturated bin counter for this image's counter width. */
uint32_t mp_image_bin_max(const struct mp_image *img);

/* Name of a missed_source value ("none", "mtime", "cyccnt", "clock"), or
 * NULL when out of range. */
const char *mp_missed_source_name(unsigned source);

#endif /* MCUPROF_IMAGE_READ_H */

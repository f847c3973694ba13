/*
 * timing_read.c - the sampler's own timing in an image (mcuprof/image.h):
 * timing_flags and deferred_samples in the header, the late-sample table
 * (where samples taken late landed, and the periods missed before them),
 * the held-off table (late samples binned nowhere) and the blocker table
 * (interrupts the sampler cannot preempt). Checked
 * like every other table before anything reads an entry: what no runtime
 * writes is an error naming the table and the field; what is odd but
 * still usable is a warning, and the rest is read.
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "bytes.h"
#include "diag.h"
#include "image_read.h"
#include "profile_checks.h"
#include "sort.h"

#define HDR(field) offsetof(struct mcuprof_header, field)
#define ENTRY(img, e, i) ((img)->data + (e)->offset + sizeof(struct mcuprof_ext) + (size_t)(i) * (e)->entry_size)

#define BLOCKER_KNOWN (MCUPROF_BLOCKER_SEEN_BLOCKING | MCUPROF_BLOCKER_SEEN_PREEMPTIBLE)

int mp_image_read_timing(struct mp_image *img, const uint8_t *d)
{
    unsigned flags = mp_get16(d + HDR(timing_flags), img->big);
    uint32_t deferred = mp_get32(d + HDR(deferred_samples), img->big);

    if (flags & ~MP_TIMING_KNOWN) {
        mp_warn(img->name, "timing_flags 0x%04x has bits 0x%04x unknown to this mcuprof (a newer runtime wrote"
                           " them): those are ignored", flags, flags & ~MP_TIMING_KNOWN);
        flags &= MP_TIMING_KNOWN;
    }
    if (deferred && !(flags & MCUPROF_TIMING_DEFERRED)) {
        mp_warn(img->name, "deferred_samples %" PRIu32 " without MCUPROF_TIMING_DEFERRED in timing_flags: the"
                           " runtime did not measure it, ignored", deferred);
        deferred = 0;
    }
    if (img->samples_taken != UINT32_MAX && deferred > img->samples_taken)
        return mp_error(img->name, "deferred_samples %" PRIu32 " is above samples_taken %" PRIu32
                                   ": the image is inconsistent", deferred, img->samples_taken);
    img->timing_flags = (uint16_t)flags;
    img->deferred_samples = deferred;
    return 0;
}

uint64_t mp_image_bin_bound(const struct mp_image *img)
{
    uint64_t bound;

    if (img->samples_taken == UINT32_MAX)
        return UINT64_MAX;
    bound = img->samples_taken - img->held_entry.samples; /* checked: not above */
    if (!(img->timing_flags & MCUPROF_TIMING_CHARGED))
        return bound;
    return img->missed_periods == UINT32_MAX ? UINT64_MAX : bound + img->missed_periods - img->held_entry.periods;
}

static uint64_t minus(uint64_t a, uint64_t b)
{
    return a > b ? a - b : 0;
}

void mp_time_seen(struct mp_time_seen *t, uint64_t samples_taken, uint64_t missed_periods, unsigned timing_flags,
                  uint64_t held_samples, uint64_t held_periods, uint64_t binned_and_lost)
{
    t->charged = timing_flags & MCUPROF_TIMING_CHARGED ? minus(missed_periods, held_periods) : 0;
    t->taken = minus(samples_taken, held_samples) + t->charged;
    t->taken_derived = 0;
    /* samples_taken counts every sample, binned, lost or held off; one
     * that does not (not filled in, saturated) gets the sum instead, so
     * no lost time is hidden from the shares */
    if (t->taken < binned_and_lost) {
        t->taken = binned_and_lost;
        t->taken_derived = 1;
    }
    t->draws = t->taken > t->charged ? t->taken - t->charged : t->taken;
}

const char *mp_time_seen_what(const struct mp_time_seen *t, uint64_t held)
{
    if (t->taken_derived)
        return "binned + lost: samples_taken is short";
    if (held)
        return t->charged ? "samples_taken less the samples held off, plus the missed periods charged to the bins"
                          : "samples_taken less the samples held off";
    return t->charged ? "samples_taken + the missed periods charged to the bins" : "samples_taken";
}

void mp_image_late(const struct mp_image *img, uint32_t i, uint64_t *pc, uint32_t *samples, uint32_t *missed)
{
    const uint8_t *p = ENTRY(img, &img->ext[img->late], i);

    *pc = mp_get64(p + offsetof(struct mcuprof_late, pc), img->big);
    *samples = mp_get32(p + offsetof(struct mcuprof_late, samples), img->big);
    *missed = mp_get32(p + offsetof(struct mcuprof_late, missed), img->big);
}

void mp_image_blocker(const struct mp_image *img, uint32_t i, uint32_t *source, unsigned *priority,
                      unsigned *sampler_priority, unsigned *flags)
{
    const uint8_t *p = ENTRY(img, &img->ext[img->blockers], i);

    *source = mp_get32(p + offsetof(struct mcuprof_blocker, source), img->big);
    *priority = p[offsetof(struct mcuprof_blocker, priority)];
    *sampler_priority = p[offsetof(struct mcuprof_blocker, sampler_priority)];
    *flags = mp_get16(p + offsetof(struct mcuprof_blocker, flags), img->big) & BLOCKER_KNOWN;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

    return x < y ? -1 : x > y;
}

/* A value KEY gives two entries of table E (each must be once): 1 and
 * *DUP set, 0 if none, -1 on OOM (reported). */
static int find_duplicate(const struct mp_image *img, const struct mp_ext *e, uint64_t (*key)(const uint8_t *, int),
                          uint64_t *dup)
{
    uint64_t *v;
    uint32_t i;
    int found = 0;

    if (e->used < 2)
        return 0;
    if (!(v = malloc((size_t)e->used * sizeof(*v))))
        return mp_error(img->name, "out of memory checking %" PRIu32 " table entries", e->used);
    for (i = 0; i < e->used; i++)
        v[i] = key(ENTRY(img, e, i), img->big);
    mp_sort(v, e->used, sizeof(*v), cmp_u64);
    for (i = 1; i < e->used && !found; i++) {
        if (v[i] == v[i - 1]) {
            *dup = v[i];
            found = 1;
        }
    }
    free(v);
    return found;
}

static uint64_t late_pc(const uint8_t *p, int big) { return mp_get64(p + offsetof(struct mcuprof_late, pc), big); }

static uint64_t blocker_source(const uint8_t *p, int big)
{
    return mp_get32(p + offsetof(struct mcuprof_blocker, source), big);
}

/* Every entry a pc the sampler took, once, with a sample for the periods
 * missed before it; the sums are checked against the header with the
 * held-off table's (mp_image_check_timing). */
static int check_late(struct mp_image *img, const struct mp_ext *e)
{
    uint64_t samples = e->lost, missed = 0, dup = 0;
    uint32_t i;
    int d;

    for (i = 0; i < e->used; i++) {
        uint32_t s, m;
        uint64_t pc;

        mp_image_late(img, i, &pc, &s, &m);
        if (pc == 0)
            return mp_error(img->name, "late-sample table at 0x%" PRIx32 ": entry %" PRIu32 " has pc 0", e->offset,
                            i);
        if (m && !s)
            return mp_error(img->name, "late-sample table at 0x%" PRIx32 ": entry %" PRIu32 " (pc 0x%" PRIx64
                                       ") has %" PRIu32 " missed periods but no sample",
                            e->offset, i, pc, m);
        samples += s;
        missed += m;
    }
    if ((d = find_duplicate(img, e, late_pc, &dup)) != 0)
        return d < 0 ? -1
                     : mp_error(img->name, "late-sample table at 0x%" PRIx32 ": pc 0x%" PRIx64
                                           " has two entries (one per pc)", e->offset, dup);
    img->late_samples = samples;
    img->late_missed = missed;
    return 0;
}

/* A source is an interrupt of the image's machine, each once. */
static int check_blockers(const struct mp_image *img, const struct mp_ext *e)
{
    unsigned unknown = 0;
    uint64_t dup = 0;
    uint32_t i;
    int d;

    for (i = 0; i < e->used; i++) {
        const uint8_t *p = ENTRY(img, e, i);
        uint32_t source = (uint32_t)blocker_source(p, img->big);
        char what[160];

        if (!mp_arch_interrupt_ok(img->machine, source))
            return mp_error(img->name, "blocker table at 0x%" PRIx32 ": entry %" PRIu32 " has source 0x%08" PRIx32
                                       ", not %s",
                            e->offset, i, source, mp_arch_interrupts(img->machine, what, sizeof(what)));
        unknown |= mp_get16(p + offsetof(struct mcuprof_blocker, flags), img->big) & ~BLOCKER_KNOWN;
    }
    if (unknown)
        mp_warn(img->name, "blocker table at 0x%" PRIx32 ": flags 0x%04x unknown to this mcuprof (a newer runtime"
                           " wrote them): those are ignored", e->offset, unknown);
    if ((d = find_duplicate(img, e, blocker_source, &dup)) != 0)
        return d < 0 ? -1
                     : mp_error(img->name, "blocker table at 0x%" PRIx32 ": source 0x%08" PRIx64
                                           " has two entries (one per interrupt)", e->offset, dup);
    return 0;
}

/* The one entry of the held-off table: samples taken and periods
 * missed, each at most what the header counts, periods only before a
 * sample. */
static int check_held(struct mp_image *img, const struct mp_ext *e)
{
    struct mcuprof_held *h = &img->held_entry;
    const uint8_t *p = ENTRY(img, e, 0);
    int exceeds;

    if (e->capacity != 1 || e->used != 1)
        return mp_error(img->name, "held-off table at 0x%" PRIx32 ": capacity %" PRIu32 ", used %" PRIu32
                                   ", expected 1 and 1 (one entry)", e->offset, e->capacity, e->used);
    h->samples = mp_get32(p + offsetof(struct mcuprof_held, samples), img->big);
    h->periods = mp_get32(p + offsetof(struct mcuprof_held, periods), img->big);
    h->threshold = mp_get32(p + offsetof(struct mcuprof_held, threshold), img->big);
    h->scans = mp_get32(p + offsetof(struct mcuprof_held, scans), img->big);
    exceeds = mp_held_exceeds(h->samples, h->periods, img->samples_taken, img->missed_periods, UINT32_MAX);
    if (exceeds == 1)
        return mp_error(img->name, "held-off table at 0x%" PRIx32 ": %" PRIu32 " samples held off but samples_taken"
                                   " is %" PRIu32 ": the image is inconsistent", e->offset, h->samples, img->samples_taken);
    if (exceeds == 2)
        return mp_error(img->name, "held-off table at 0x%" PRIx32 ": %" PRIu32 " periods missed before samples held"
                                   " off but missed_periods is %" PRIu32 ": the image is inconsistent",
                        e->offset, h->periods, img->missed_periods);
    if (h->periods && !h->samples)
        return mp_error(img->name, "held-off table at 0x%" PRIx32 ": %" PRIu32 " periods missed before samples held"
                                   " off, but no sample: the image is inconsistent", e->offset, h->periods);
    if (h->samples && !(img->timing_flags & MCUPROF_TIMING_CHARGED))
        mp_warn(img->name, "held-off table at 0x%" PRIx32 ": %" PRIu32 " samples held off without"
                           " MCUPROF_TIMING_CHARGED in timing_flags (no runtime writes that): read as they are",
                e->offset, h->samples);
    if (h->samples && !h->threshold)
        mp_warn(img->name, "held-off table at 0x%" PRIx32 ": %" PRIu32 " samples held off with a deferral"
                           " threshold of 0 timer ticks (no runtime writes that): read as they are",
                e->offset, h->samples);
    return 0;
}

int mp_image_check_timing(const struct mp_image *img)
{
    const struct mcuprof_held *h = &img->held_entry;
    const struct mp_ext *e;
    char samples[80] = "", periods[80] = "";

    if (img->late < 0)
        return 0; /* the held-off table alone: checked as it was read */
    e = &img->ext[img->late];
    if (img->held >= 0) {
        snprintf(samples, sizeof(samples), " and the held-off table at 0x%" PRIx32 " %" PRIu32 " more",
                 img->ext[img->held].offset, h->samples);
        snprintf(periods, sizeof(periods), " and the held-off table at 0x%" PRIx32 " holds %" PRIu32 " more",
                 img->ext[img->held].offset, h->periods);
    }
    if (img->samples_taken != UINT32_MAX && img->late_samples + h->samples > img->samples_taken)
        return mp_error(img->name, "the late-sample table at 0x%" PRIx32 " counts %" PRIu64 " samples (lost %" PRIu32
                                   " included)%s but samples_taken is %" PRIu32 ": the image is inconsistent",
                        e->offset, img->late_samples, e->lost, samples, img->samples_taken);
    if (img->missed_periods != UINT32_MAX && img->late_missed + h->periods > img->missed_periods)
        return mp_error(img->name, "the late-sample table at 0x%" PRIx32 " charges %" PRIu64 " missed periods%s but"
                                   " missed_periods is %" PRIu32 ": the image is inconsistent",
                        e->offset, img->late_missed, periods, img->missed_periods);
    return 0;
}

int mp_image_timing_ext(struct mp_image *img, const struct mp_ext *e, unsigned index)
{
    static const char *const names[] = {"late-sample", "blocker", "held-off"};
    int kind = e->kind == MCUPROF_EXT_LATE ? 0 : e->kind == MCUPROF_EXT_BLOCKERS ? 1 : 2;
    int *slot = kind == 0 ? &img->late : kind == 1 ? &img->blockers : &img->held;
    int ret;

    if (*slot >= 0)
        return mp_error(img->name, "two %s tables (at 0x%" PRIx32 " and 0x%" PRIx32 ")", names[kind],
                        img->ext[*slot].offset, e->offset);
    *slot = (int)index;
    ret = kind == 0 ? check_late(img, e) : kind == 1 ? check_blockers(img, e) : check_held(img, e);
    if (ret < 0) {
        *slot = -1;
        if (kind == 2)
            memset(&img->held_entry, 0, sizeof(img->held_entry));
        return -1;
    }
    return 0;
}

/*
 * timing_read.c - the sampler's own timing in an image (mcuprof/image.h):
 * timing_flags and deferred_samples in the header, the late-sample table
 * (where samples taken late landed, and the periods missed before them)
 * and the blocker table (interrupts the sampler cannot preempt). Checked
 * like every other table before anything reads an entry: what no runtime
 * writes is an error naming the table and the field; what is odd but
 * still usable is a warning, and the rest is read.
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>

#include "bytes.h"
#include "diag.h"
#include "image_read.h"

#define HDR(field) offsetof(struct mcuprof_header, field)
#define ENTRY(img, e, i) ((img)->data + (e)->offset + sizeof(struct mcuprof_ext) + (size_t)(i) * (e)->entry_size)

/* Every bit this reader knows; others are a later runtime's, dropped. */
#define TIMING_KNOWN                                                                                        \
    (MCUPROF_TIMING_DEFERRED | MCUPROF_TIMING_CHARGED | MCUPROF_TIMING_BLOCKERS | MCUPROF_TIMING_CLOCK_STALLED | \
     MCUPROF_TIMING_CLOCK_JUMPED)
#define BLOCKER_KNOWN (MCUPROF_BLOCKER_SEEN_BLOCKING | MCUPROF_BLOCKER_SEEN_PREEMPTIBLE)
/* Cortex-M exception numbers: 16 + 496 interrupts at most (ARMv7-M,
 * ARMv8-M). RISC-V interrupt codes lie below XLEN (64 on RV64). */
#define ARM_EXCEPTION_MAX 511u
#define RV_INTERRUPT_MAX 63u

int mp_image_read_timing(struct mp_image *img, const uint8_t *d)
{
    unsigned flags = mp_get16(d + HDR(timing_flags), img->big);
    uint32_t deferred = mp_get32(d + HDR(deferred_samples), img->big);

    if (flags & ~TIMING_KNOWN) {
        mp_warn(img->name, "timing_flags 0x%04x has bits 0x%04x unknown to this mcuprof (a newer runtime wrote"
                           " them): those are ignored", flags, flags & ~TIMING_KNOWN);
        flags &= TIMING_KNOWN;
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
    if (img->samples_taken == UINT32_MAX)
        return UINT64_MAX;
    if (!(img->timing_flags & MCUPROF_TIMING_CHARGED))
        return img->samples_taken;
    return img->missed_periods == UINT32_MAX ? UINT64_MAX : (uint64_t)img->samples_taken + img->missed_periods;
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
    qsort(v, e->used, sizeof(*v), cmp_u64);
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
 * missed before it; the late samples (lost included) are samples taken,
 * and the periods charged were counted in missed_periods. */
static int check_late(const struct mp_image *img, const struct mp_ext *e)
{
    uint64_t samples = e->lost, missed = 0, dup;
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
    if (img->samples_taken != UINT32_MAX && samples > img->samples_taken)
        return mp_error(img->name, "the late-sample table counts %" PRIu64 " samples (lost %" PRIu32 " included)"
                                   " but samples_taken is %" PRIu32 ": the image is inconsistent",
                        samples, e->lost, img->samples_taken);
    if (img->missed_periods != UINT32_MAX && missed > img->missed_periods)
        return mp_error(img->name, "the late-sample table charges %" PRIu64 " missed periods but missed_periods"
                                   " is %" PRIu32 ": the image is inconsistent", missed, img->missed_periods);
    return 0;
}

/* A source is an interrupt of the image's machine, each once. */
static int check_blockers(const struct mp_image *img, const struct mp_ext *e)
{
    unsigned unknown = 0;
    uint64_t dup;
    uint32_t i;
    int d;

    for (i = 0; i < e->used; i++) {
        const uint8_t *p = ENTRY(img, e, i);
        uint32_t source = (uint32_t)blocker_source(p, img->big);
        uint32_t kind = source & MCUPROF_CTX_KIND_Msk, n = source & MCUPROF_CTX_NUMBER_Msk;
        int arm = kind == MCUPROF_CTX_ARM_EXCEPTION && n >= 1 && n <= ARM_EXCEPTION_MAX;
        int rv = kind == MCUPROF_CTX_RV_INTERRUPT && n <= RV_INTERRUPT_MAX;

        if (!(img->machine == MCUPROF_MACHINE_ARM    ? arm
              : img->machine == MCUPROF_MACHINE_RISCV ? rv
                                                      : arm || rv))
            return mp_error(img->name, "blocker table at 0x%" PRIx32 ": entry %" PRIu32 " has source 0x%08" PRIx32
                                       ", not %s",
                            e->offset, i, source,
                            img->machine == MCUPROF_MACHINE_ARM ? "an ARM exception 1..511 (0x10000000 | number)"
                            : img->machine == MCUPROF_MACHINE_RISCV
                                ? "a RISC-V interrupt 0..63 (0x20000000 | mcause code)"
                                : "an ARM exception or a RISC-V interrupt");
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

int mp_image_timing_ext(struct mp_image *img, const struct mp_ext *e, unsigned index)
{
    int late = e->kind == MCUPROF_EXT_LATE;
    int *slot = late ? &img->late : &img->blockers;

    if (*slot >= 0)
        return mp_error(img->name, "two %s tables (at 0x%" PRIx32 " and 0x%" PRIx32 ")",
                        late ? "late-sample" : "blocker", img->ext[*slot].offset, e->offset);
    *slot = (int)index;
    if ((late ? check_late(img, e) : check_blockers(img, e)) < 0) {
        *slot = -1;
        return -1;
    }
    return 0;
}

/*
 * image_ext.c - the image's extension tables (mcuprof/image.h): samples by
 * context, by RTOS task and by call path. Every table is checked against
 * the image's bounds and against every other table and region before
 * anything reads an entry, like the rest of the image (image_read.c).
 */
#include <inttypes.h>
#include <stddef.h>
#include <string.h>

#include "bytes.h"
#include "diag.h"
#include "image_read.h"

#define EXT_OFF(field) offsetof(struct mcuprof_ext, field)
#define EXT_HEADER ((uint32_t)sizeof(struct mcuprof_ext))
/* Both path kinds start alike (samples, depth, flags); the newer one
 * goes on with the task and the context, and so has a longer header. */
#define PATH_OFF(field) offsetof(struct mcuprof_task_path, field)
#define PATH_HEADER(kind) \
    ((unsigned)((kind) == MCUPROF_EXT_TASK_PATHS ? sizeof(struct mcuprof_task_path) : sizeof(struct mcuprof_path)))
/* Every flag this reader knows: a path with another is one a later runtime
 * wrote, and shown as a whole path it could mislead. */
#define PATH_FLAGS_KNOWN (MCUPROF_PATH_TRUNCATED | MCUPROF_PATH_CUT | MCUPROF_PATH_GAP)

static unsigned expected_entry_size(uint16_t kind)
{
    switch (kind) {
    case MCUPROF_EXT_CONTEXTS:
        return sizeof(struct mcuprof_context);
    case MCUPROF_EXT_TASKS:
        return sizeof(struct mcuprof_task);
    case MCUPROF_EXT_LATE:
        return sizeof(struct mcuprof_late);
    case MCUPROF_EXT_BLOCKERS:
        return sizeof(struct mcuprof_blocker);
    case MCUPROF_EXT_HELD:
        return sizeof(struct mcuprof_held);
    default:
        return 0; /* a later kind: skipped, only its bounds checked */
    }
}

static int read_one(struct mp_image *img, uint32_t off, struct mp_ext *e)
{
    const uint8_t *p = img->data + off;
    unsigned want;

    /* One read per field, each in the width the layout gives it: a table
     * of offsets and destinations shared with the other header readers
     * would hide those widths, and the fields differ from reader to reader. */
    e->offset = off;
    e->kind = mp_get16(p + EXT_OFF(kind), img->big);
    e->entry_size = mp_get16(p + EXT_OFF(entry_size), img->big);
    e->size = mp_get32(p + EXT_OFF(size), img->big);
    e->capacity = mp_get32(p + EXT_OFF(capacity), img->big);
    e->used = mp_get32(p + EXT_OFF(used), img->big);
    e->lost = mp_get32(p + EXT_OFF(lost), img->big);
    e->invalid = mp_get32(p + EXT_OFF(invalid), img->big);
    if (e->size < EXT_HEADER || e->size % 8 || (uint64_t)off + e->size > img->image_size)
        return mp_error(img->name, "extension table at 0x%" PRIx32 ": size %" PRIu32
                                   " is not a multiple of 8 from %" PRIu32 " that fits in image_size 0x%" PRIx32,
                        off, e->size, EXT_HEADER, img->image_size);
    want = expected_entry_size(e->kind);
    if (want && e->entry_size != want)
        return mp_error(img->name, "extension table kind %u at 0x%" PRIx32 ": entry_size %u, expected %u",
                        (unsigned)e->kind, off, (unsigned)e->entry_size, want);
    if ((uint64_t)e->capacity * e->entry_size > e->size - EXT_HEADER)
        return mp_error(img->name, "extension table kind %u at 0x%" PRIx32 ": capacity %" PRIu32 " x %u bytes "
                                   "does not fit its size %" PRIu32,
                        (unsigned)e->kind, off, e->capacity, (unsigned)e->entry_size, e->size);
    if (e->used > e->capacity)
        return mp_error(img->name, "extension table kind %u at 0x%" PRIx32 ": used %" PRIu32
                                   " is above capacity %" PRIu32,
                        (unsigned)e->kind, off, e->used, e->capacity);
    return 0;
}

/* A path entry is its header and depth_max frames of the target's
 * pointer size: entry_size says depth_max, which must be at least 1. */
static int check_path_entry_size(struct mp_image *img, const struct mp_ext *e)
{
    unsigned header = PATH_HEADER(e->kind);

    if (e->entry_size <= header || (e->entry_size - header) % img->ptr_size)
        return mp_error(img->name, "path table at 0x%" PRIx32 ": entry_size %u is not %u + depth_max * %u"
                                   " (ptr_size) with depth_max >= 1",
                        e->offset, (unsigned)e->entry_size, header, img->ptr_size);
    img->path_depth_max = (e->entry_size - header) / img->ptr_size;
    return 0;
}

static const uint8_t *path_at(const struct mp_image *img, uint32_t i)
{
    const struct mp_ext *e = &img->ext[img->paths];

    return img->data + e->offset + EXT_HEADER + (size_t)i * e->entry_size;
}

/* Frames 0 among the DEPTH of entry I. */
static unsigned gaps_of(const struct mp_image *img, uint32_t i, unsigned depth)
{
    unsigned k, n = 0;

    for (k = 0; k < depth; k++)
        n += mp_image_path_frame(img, i, k) == 0;
    return n;
}

/* Every entry in use: depth within depth_max, flags this reader knows, a
 * 0 frame (the gap) in the path flagged GAP and only once there; and the
 * samples add up. A sample is recorded in one path or counted
 * lost (table full), so those add up to at most samples_taken; invalid
 * counts samples whose path was deeper than the shadow stack, so it overlaps the
 * entries and is bounded alone. A saturated samples_taken bounds nothing. */
static int check_paths(const struct mp_image *img)
{
    const struct mp_ext *e = &img->ext[img->paths];
    uint64_t sum = e->lost;
    uint32_t i;

    for (i = 0; i < e->used; i++) {
        unsigned depth, flags;
        uint32_t samples;


        mp_image_path(img, i, &samples, &depth, &flags);
        if (depth > img->path_depth_max)
            return mp_error(img->name, "path table at 0x%" PRIx32 ": entry %" PRIu32 " has depth %u above"
                                       " depth_max %u",
                            e->offset, i, depth, img->path_depth_max);
        if (flags & ~PATH_FLAGS_KNOWN)
            return mp_error(img->name, "path table at 0x%" PRIx32 ": entry %" PRIu32 " has flags 0x%x, unknown"
                                       " to this mcuprof (known: 0x%x): a newer runtime wrote it",
                            e->offset, i, flags, (unsigned)PATH_FLAGS_KNOWN);
        if (gaps_of(img, i, depth) != ((flags & MCUPROF_PATH_GAP) ? 1u : 0u))
            return mp_error(img->name, "path table at 0x%" PRIx32 ": entry %" PRIu32 " has %u frames 0 with flags"
                                       " 0x%x: a 0 frame is the gap, once in a path flagged GAP (0x%x)",
                            e->offset, i, gaps_of(img, i, depth), flags, (unsigned)MCUPROF_PATH_GAP);
        sum += samples;
    }
    if (img->samples_taken == UINT32_MAX)
        return 0;
    if (sum > img->samples_taken)
        return mp_error(img->name, "the path table counts %" PRIu64 " samples (lost %" PRIu32 " included) but"
                                   " samples_taken is %" PRIu32 ": the image is inconsistent",
                        sum, e->lost, img->samples_taken);
    if (e->invalid > img->samples_taken)
        return mp_error(img->name, "the path table's invalid (truncated) %" PRIu32 " is above samples_taken %" PRIu32
                                   ": the image is inconsistent",
                        e->invalid, img->samples_taken);
    return 0;
}

/* Counts of a table add up to at most samples_taken (unless saturated):
 * like the bins, more means the image was not written by the runtime. */
static int check_counts(const struct mp_image *img, const struct mp_ext *e)
{
    uint64_t sum = (uint64_t)e->lost + e->invalid;
    uint32_t i;

    if (img->samples_taken == UINT32_MAX || img->missed_periods == UINT32_MAX)
        return 0;
    for (i = 0; i < e->used; i++)
        sum += mp_get32(img->data + e->offset + EXT_HEADER + (size_t)i * e->entry_size +
                            (e->kind == MCUPROF_EXT_CONTEXTS ? offsetof(struct mcuprof_context, samples)
                                                             : offsetof(struct mcuprof_task, samples)),
                        img->big);
    /* the context table also counts missed periods (MCUPROF_CTX_IDLE_MISSED) */
    if (sum > (uint64_t)img->samples_taken + (e->kind == MCUPROF_EXT_CONTEXTS ? img->missed_periods : 0))
        return mp_error(img->name, "the %s table counts %" PRIu64 " samples but samples_taken is %" PRIu32
                                   " (missed_periods %" PRIu32 "): the image is inconsistent",
                        e->kind == MCUPROF_EXT_CONTEXTS ? "context" : "task", sum, img->samples_taken,
                        img->missed_periods);
    return 0;
}

/* Every path's task is an entry of the task table (the runtime adds a
 * task's entry before it counts a path in it), or none. */
static int check_path_tasks(const struct mp_image *img)
{
    uint32_t ntasks = img->tasks >= 0 ? img->ext[img->tasks].used : 0, i;

    if (img->paths < 0)
        return 0;
    for (i = 0; i < img->ext[img->paths].used; i++) {
        uint32_t task, context;

        mp_image_path_key(img, i, &task, &context);
        if (task != MCUPROF_PATH_NO_TASK && task >= ntasks)
            return mp_error(img->name, "path table at 0x%" PRIx32 ": entry %" PRIu32 " names task %" PRIu32
                                       " but the task table has %" PRIu32 " entries",
                            img->ext[img->paths].offset, i, task, ntasks);
    }
    return 0;
}

int mp_image_read_ext(struct mp_image *img)
{
    uint32_t off = img->ext_offset;

    img->next = 0;
    img->contexts = img->tasks = img->paths = img->late = img->blockers = img->held = -1;
    img->path_depth_max = 0;
    if (off == 0)
        return 0;
    if (off % 8 || off < img->header_size)
        return mp_error(img->name, "ext_offset 0x%" PRIx32 " is not an 8-byte aligned offset past the header", off);
    for (;;) {
        struct mp_ext *e;

        /* Kind MCUPROF_EXT_END or the end of the image ends the list
         * (mcuprof/image.h); the runtime writes the END record, a host
         * that lays tables out up to image_size need not. */
        if (off == img->image_size)
            break;
        if ((uint64_t)off + 2 > img->image_size)
            return mp_error(img->name, "extension table at 0x%" PRIx32 " lies past image_size 0x%" PRIx32
                                       " (neither an end marker nor the image's end)",
                            off, img->image_size);
        if (mp_get16(img->data + off, img->big) == MCUPROF_EXT_END)
            break;
        if ((uint64_t)off + EXT_HEADER > img->image_size)
            return mp_error(img->name, "extension table header at 0x%" PRIx32 " runs past image_size 0x%" PRIx32,
                            off, img->image_size);
        if (img->next == MP_EXT_MAX)
            return mp_error(img->name, "more than %u extension tables", MP_EXT_MAX);
        e = &img->ext[img->next];
        if (read_one(img, off, e) < 0)
            return -1;
        if (e->kind == MCUPROF_EXT_CONTEXTS || e->kind == MCUPROF_EXT_TASKS) {
            int *slot = e->kind == MCUPROF_EXT_CONTEXTS ? &img->contexts : &img->tasks;

            if (*slot >= 0)
                return mp_error(img->name, "two extension tables of kind %u (at 0x%" PRIx32 " and 0x%" PRIx32 ")",
                                (unsigned)e->kind, img->ext[*slot].offset, off);
            if (check_counts(img, e) < 0)
                return -1;
            *slot = (int)img->next;
        } else if (e->kind == MCUPROF_EXT_PATHS || e->kind == MCUPROF_EXT_TASK_PATHS) {
            if (img->paths >= 0)
                return mp_error(img->name, "two extension tables of kind %u (at 0x%" PRIx32 " and 0x%" PRIx32 ")",
                                (unsigned)e->kind, img->ext[img->paths].offset, off);
            if (check_path_entry_size(img, e) < 0)
                return -1;
            img->paths = (int)img->next;
            if (check_paths(img) < 0)
                return -1;
        } else if ((e->kind == MCUPROF_EXT_LATE || e->kind == MCUPROF_EXT_BLOCKERS || e->kind == MCUPROF_EXT_HELD) &&
                   mp_image_timing_ext(img, e, img->next) < 0) {
            return -1;
        }
        img->next++;
        off += e->size;
    }
    return check_path_tasks(img);
}

void mp_image_context(const struct mp_image *img, uint32_t i, uint32_t *key, uint32_t *samples)
{
    const uint8_t *p = img->data + img->ext[img->contexts].offset + EXT_HEADER + (size_t)i * sizeof(struct mcuprof_context);

    *key = mp_get32(p + offsetof(struct mcuprof_context, key), img->big);
    *samples = mp_get32(p + offsetof(struct mcuprof_context, samples), img->big);
}

void mp_image_task(const struct mp_image *img, uint32_t i, uint64_t *handle, uint32_t *samples, uint32_t *flags,
                   char *name)
{
    const uint8_t *p = img->data + img->ext[img->tasks].offset + EXT_HEADER + (size_t)i * sizeof(struct mcuprof_task);

    *handle = mp_get64(p + offsetof(struct mcuprof_task, handle), img->big);
    *samples = mp_get32(p + offsetof(struct mcuprof_task, samples), img->big);
    *flags = mp_get32(p + offsetof(struct mcuprof_task, flags), img->big);
    memcpy(name, p + offsetof(struct mcuprof_task, name), MCUPROF_TASK_NAME_MAX);
    name[MCUPROF_TASK_NAME_MAX] = '\0';
}

void mp_image_path(const struct mp_image *img, uint32_t i, uint32_t *samples, unsigned *depth, unsigned *flags)
{
    const uint8_t *p = path_at(img, i);

    *samples = mp_get32(p + PATH_OFF(samples), img->big);
    *depth = mp_get16(p + PATH_OFF(depth), img->big);
    *flags = mp_get16(p + PATH_OFF(flags), img->big);
}

void mp_image_path_key(const struct mp_image *img, uint32_t i, uint32_t *task, uint32_t *context)
{
    const uint8_t *p = path_at(img, i);

    if (img->ext[img->paths].kind != MCUPROF_EXT_TASK_PATHS) { /* an older runtime's: not recorded */
        *task = MCUPROF_PATH_NO_TASK;
        *context = MCUPROF_PATH_NO_CONTEXT;
        return;
    }
    *task = mp_get16(p + PATH_OFF(task), img->big);
    *context = mp_get32(p + PATH_OFF(context), img->big);
}

uint64_t mp_image_path_frame(const struct mp_image *img, uint32_t i, unsigned k)
{
    const uint8_t *p = path_at(img, i) + PATH_HEADER(img->ext[img->paths].kind) + (size_t)k * img->ptr_size;

    return img->ptr_size == 8 ? mp_get64(p, img->big) : mp_get32(p, img->big);
}

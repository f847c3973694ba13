/*
 * spill_read.c - the image's spill table (MCUPROF_EXT_SPILL,
 * mcuprof/image.h): the carries of histogram bins that passed their
 * counter's maximum. A bin's true count is carries * 2^(8 * counter_bytes)
 * plus the bin. Every entry is checked against the ranges' bins before
 * anything adds it, and the per-range sums, maxima and saturated bins that
 * mp_image_parse counted are corrected here, so every later pass sees the
 * true counts.
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>

#include "bytes.h"
#include "diag.h"
#include "image_read.h"
#include "sort.h"

#define EXT_HEADER ((uint32_t)sizeof(struct mcuprof_ext))

static const uint8_t *entry(const struct mp_image *img, uint32_t i)
{
    return img->data + img->ext[img->spill].offset + EXT_HEADER + (size_t)i * sizeof(struct mcuprof_spill);
}

void mp_image_spill(const struct mp_image *img, uint32_t i, uint32_t *bin_offset, uint32_t *carries)
{
    const uint8_t *p = entry(img, i);

    *bin_offset = mp_get32(p + offsetof(struct mcuprof_spill, bin_offset), img->big);
    *carries = mp_get32(p + offsetof(struct mcuprof_spill, carries), img->big);
}

uint64_t mp_image_spill_unit(const struct mp_image *img)
{
    return (uint64_t)mp_image_bin_max(img) + 1;
}

/* The range whose bins hold byte offset OFF, or -1. */
static int range_of(const struct mp_image *img, uint32_t off)
{
    unsigned r;

    for (r = 0; r < img->nranges; r++) {
        const struct mp_range *rg = &img->ranges[r];

        if (off >= rg->hist_offset && off - rg->hist_offset < (uint64_t)rg->nbins * img->counter_bytes)
            return (int)r;
    }
    return -1;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

    return x < y ? -1 : x > y;
}

/* No two entries for one bin: the runtime finds a bin's entry before it
 * makes one. Sorted copies of (offset << 32 | index), so a table of any
 * size costs n log n. */
static int check_duplicates(const struct mp_image *img, const struct mp_ext *e)
{
    uint64_t *keys;
    uint32_t i, off, carries;
    int ret = 0;

    if (e->used < 2)
        return 0;
    if (!(keys = malloc((size_t)e->used * sizeof(*keys))))
        return mp_error(img->name, "out of memory for a spill table of %" PRIu32 " entries", e->used);
    for (i = 0; i < e->used; i++) {
        mp_image_spill(img, i, &off, &carries);
        keys[i] = (uint64_t)off << 32 | i;
    }
    mp_sort(keys, e->used, sizeof(*keys), cmp_u64);
    for (i = 1; i < e->used; i++) {
        if (keys[i] >> 32 == keys[i - 1] >> 32) {
            ret = mp_error(img->name, "spill table: entries %" PRIu32 " and %" PRIu32 " have the same bin_offset 0x%"
                                      PRIx32 " (a bin has one entry)",
                           (uint32_t)keys[i - 1], (uint32_t)keys[i], (uint32_t)(keys[i] >> 32));
            break;
        }
    }
    free(keys);
    return ret;
}

/* Each entry's bin: inside a range's bins, on a counter's boundary. */
static int check_entries(const struct mp_image *img, const struct mp_ext *e)
{
    uint32_t i, off, carries;

    for (i = 0; i < e->used; i++) {
        int r;

        mp_image_spill(img, i, &off, &carries);
        if ((r = range_of(img, off)) < 0)
            return mp_error(img->name, "spill table entry %" PRIu32 ": bin_offset 0x%" PRIx32
                                       " is not in the bins of any range",
                            i, off);
        if ((off - img->ranges[r].hist_offset) % img->counter_bytes)
            return mp_error(img->name, "spill table entry %" PRIu32 ": bin_offset 0x%" PRIx32 " is not on a bin of"
                                       " ranges[%d] (hist_offset 0x%" PRIx32 ", counter_bytes %u)",
                            i, off, r, img->ranges[r].hist_offset, (unsigned)img->counter_bytes);
    }
    return 0;
}

/* Add each entry's carries to its range's sum, maximum and saturated
 * bins: a bin at the counter's maximum with a carry has wrapped (and
 * come round again), it is not saturated. */
static void apply(struct mp_image *img, const struct mp_ext *e)
{
    uint64_t unit = mp_image_spill_unit(img);
    uint32_t i, off, carries, max = mp_image_bin_max(img);

    img->spill_samples = 0;
    for (i = 0; i < e->used; i++) {
        int r;
        struct mp_range *rg;
        uint32_t bin;
        uint64_t total;

        mp_image_spill(img, i, &off, &carries);
        if (!carries)
            continue; /* an entry made, its carry not yet counted: nothing to add */
        r = range_of(img, off);
        rg = &img->ranges[r];
        bin = mp_image_bin(img, (unsigned)r, (off - rg->hist_offset) / img->counter_bytes);
        total = carries * unit + bin;
        img->spill_samples += carries * unit;
        rg->bin_sum += carries * unit;
        rg->bin_max = total > rg->bin_max ? total : rg->bin_max;
        if (bin == max)
            rg->bins_saturated--;
    }
}

int mp_image_read_spill(struct mp_image *img)
{
    const struct mp_ext *e;
    unsigned i;

    img->spill = -1;
    img->spill_samples = 0;
    for (i = 0; i < img->next; i++) {
        if (img->ext[i].kind != MCUPROF_EXT_SPILL)
            continue;
        if (img->spill >= 0)
            return mp_error(img->name, "two spill tables (kind %u, at 0x%" PRIx32 " and 0x%" PRIx32 ")",
                            (unsigned)MCUPROF_EXT_SPILL, img->ext[img->spill].offset, img->ext[i].offset);
        img->spill = (int)i;
    }
    if (img->spill < 0)
        return 0;
    e = &img->ext[img->spill];
    if (e->entry_size != sizeof(struct mcuprof_spill))
        return mp_error(img->name, "spill table at 0x%" PRIx32 ": entry_size %u, expected %u", e->offset,
                        (unsigned)e->entry_size, (unsigned)sizeof(struct mcuprof_spill));
    if (e->used && !img->nranges)
        return mp_error(img->name, "spill table at 0x%" PRIx32 ": used %" PRIu32 " but the image has no ranges",
                        e->offset, e->used);
    if (check_entries(img, e) < 0 || check_duplicates(img, e) < 0)
        return -1;
    /* Every sample the table could not take is also counted saturated. */
    if (e->lost > img->lost[MP_LOST_SAMPLES_SATURATED])
        return mp_error(img->name, "spill table: lost %" PRIu32 " is above lost_samples_saturated %" PRIu32
                                   " (which counts them too): the image is inconsistent",
                        e->lost, img->lost[MP_LOST_SAMPLES_SATURATED]);
    if (e->lost && e->used < e->capacity)
        mp_warn(img->name, "spill table: lost %" PRIu32 " samples with only %" PRIu32 " of its %" PRIu32
                           " entries used (the runtime loses them only when it is full): the counts are used as read",
                e->lost, e->used, e->capacity);
    apply(img, e);
    return 0;
}

void mp_image_spill_add(const struct mp_image *img, unsigned range, uint64_t *bins)
{
    const struct mp_range *rg = &img->ranges[range];
    uint64_t unit;
    uint32_t i, off, carries;

    if (img->spill < 0)
        return;
    unit = mp_image_spill_unit(img);
    for (i = 0; i < img->ext[img->spill].used; i++) {
        mp_image_spill(img, i, &off, &carries);
        if (off >= rg->hist_offset && off - rg->hist_offset < (uint64_t)rg->nbins * img->counter_bytes)
            bins[(off - rg->hist_offset) / img->counter_bytes] += carries * unit;
    }
}

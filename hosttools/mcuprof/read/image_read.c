#include "image_read.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "bytes.h"
#include "diag.h"
#include "input_kind.h"
#include "profile_checks.h"

#define HDR_OFF(field) offsetof(struct mcuprof_header, field)
#define RANGE_OFF(i, field) \
    (HDR_OFF(ranges) + (i) * sizeof(struct mcuprof_range) + offsetof(struct mcuprof_range, field))

const char *const mp_lost_names[MP_LOST_COUNT] = {
    "lost_arcs_table_full",
    "lost_calls_reentrant",
    "lost_calls_frozen",
    "lost_samples_out_of_range",
    "lost_samples_saturated",
    "lost_samples_frozen",
};

/* Header offsets of the lost counters, in enum mp_lost order. */
static const size_t lost_offsets[MP_LOST_COUNT] = {
    HDR_OFF(lost_arcs_table_full),
    HDR_OFF(lost_calls_reentrant),
    HDR_OFF(lost_calls_frozen),
    HDR_OFF(lost_samples_out_of_range),
    HDR_OFF(lost_samples_saturated),
    HDR_OFF(lost_samples_frozen),
};

/* Check that [off, off + len) lies inside the image and past the header.
 * The sum is computed in 64 bits from 32-bit inputs (len may be up to
 * 2^32 records of 24 bytes), so it cannot wrap. */
static int check_region(const struct mp_image *img, const char *field, uint64_t off,
                        uint64_t len, const char *what)
{
    if (off < img->header_size)
        return mp_error(img->name, "%s 0x%" PRIx64 " points into the %u-byte header",
                        field, off, (unsigned)img->header_size);
    if (off + len > img->image_size)
        return mp_error(img->name,
                        "%s 0x%" PRIx64 " + %" PRIu64 " bytes (%s) runs past image_size 0x%" PRIx32,
                        field, off, len, what, img->image_size);
    return 0;
}

static int check_aligned(const struct mp_image *img, const char *field, uint32_t off,
                         unsigned align)
{
    if (align > 1 && off % align != 0)
        return mp_error(img->name, "%s 0x%" PRIx32 " is not a multiple of %u: misaligned", field,
                        off, align);
    return 0;
}

static int read_identity(struct mp_image *img, const uint8_t *d, size_t len)
{
    unsigned order = mp_image_magic_order(d, len);
    uint8_t byte_order;

    if (len == 0)
        return mp_error(img->name, "file is empty (0 bytes), expected a profile image");
    if (len < 4)
        return mp_error(img->name, "file is %zu bytes, too short for the 4-byte magic", len);
    if (!order)
        return mp_error(img->name,
                        "magic bytes %02x %02x %02x %02x at offset 0 are neither \"" MCUPROF_IMAGE_MAGIC_LE "\" "
                        "(little-endian) nor \"" MCUPROF_IMAGE_MAGIC_BE "\" (big-endian): not a profile image",
                        d[0], d[1], d[2], d[3]);
    img->big = order == MCUPROF_ORDER_BIG;
    if (len < sizeof(struct mcuprof_header))
        return mp_error(img->name, "file is %zu bytes, shorter than the %zu-byte header", len,
                        sizeof(struct mcuprof_header));

    byte_order = d[HDR_OFF(byte_order)];
    if (byte_order != (img->big ? MCUPROF_ORDER_BIG : MCUPROF_ORDER_LITTLE))
        return mp_error(img->name, "byte_order %u contradicts the %s magic (expected %u)",
                        (unsigned)byte_order, img->big ? "big-endian" : "little-endian",
                        (unsigned)(img->big ? MCUPROF_ORDER_BIG : MCUPROF_ORDER_LITTLE));
    img->version = mp_get16(d + HDR_OFF(version), img->big);
    if (img->version != MCUPROF_IMAGE_VERSION)
        return mp_error(img->name, "version %u is not supported (this tool reads version %u)",
                        (unsigned)img->version, (unsigned)MCUPROF_IMAGE_VERSION);
    img->header_size = mp_get16(d + HDR_OFF(header_size), img->big);
    if (img->header_size != sizeof(struct mcuprof_header))
        return mp_error(img->name, "header_size %u is not %zu", (unsigned)img->header_size,
                        sizeof(struct mcuprof_header));
    img->ptr_size = d[HDR_OFF(ptr_size)];
    if (img->ptr_size != 4 && img->ptr_size != 8)
        return mp_error(img->name, "ptr_size %u is neither 4 nor 8", img->ptr_size);
    img->image_size = mp_get32(d + HDR_OFF(image_size), img->big);
    if (img->image_size < img->header_size)
        return mp_error(img->name, "image_size 0x%" PRIx32 " is smaller than the %u-byte header",
                        img->image_size, (unsigned)img->header_size);
    /* A dump may be longer than the image (a debugger reads whole pages):
     * only image_size bytes are used. */
    if (img->image_size > len)
        return mp_error(img->name, "image_size 0x%" PRIx32 " runs past the end of the file (%zu bytes)",
                        img->image_size, len);
    img->machine = mp_get16(d + HDR_OFF(machine), img->big);
    img->image_addr = mp_get64(d + HDR_OFF(image_addr), img->big);
    return 0;
}

static int read_arcs(struct mp_image *img, const uint8_t *d)
{
    unsigned expect = img->ptr_size == 8 ? sizeof(struct mcuprof_arc64) : sizeof(struct mcuprof_arc32);

    /* One read per field, each in the width the layout gives it: a table
     * of offsets and destinations shared with the other header readers
     * would hide those widths, and the fields differ from reader to reader. */
    img->arcs_offset = mp_get32(d + HDR_OFF(arcs_offset), img->big);
    img->arcs_capacity = mp_get32(d + HDR_OFF(arcs_capacity), img->big);
    img->arcs_used = mp_get32(d + HDR_OFF(arcs_used), img->big);
    img->arc_record_size = mp_get16(d + HDR_OFF(arc_record_size), img->big);
    img->hash_shift = mp_get16(d + HDR_OFF(hash_shift), img->big);
    img->buckets_offset = mp_get32(d + HDR_OFF(buckets_offset), img->big);
    img->nbuckets = mp_get32(d + HDR_OFF(nbuckets), img->big);
    img->links_offset = mp_get32(d + HDR_OFF(links_offset), img->big);

    if (img->arc_record_size != expect)
        return mp_error(img->name, "arc_record_size %u does not match ptr_size %u (expected %u)",
                        (unsigned)img->arc_record_size, img->ptr_size, expect);
    /* Bucket heads and chain links are uint16 word offsets of records. */
    if ((uint64_t)img->arcs_capacity * (img->arc_record_size / 4) > UINT16_MAX)
        return mp_error(img->name,
                        "arcs_capacity %" PRIu32 " is too large: its last record lies beyond the"
                        " 65535 words a uint16 link reaches",
                        img->arcs_capacity);
    if (img->arcs_used > img->arcs_capacity)
        return mp_error(img->name, "arcs_used %" PRIu32 " exceeds arcs_capacity %" PRIu32,
                        img->arcs_used, img->arcs_capacity);
    if (check_region(img, "arcs_offset", img->arcs_offset,
                     ((uint64_t)img->arcs_capacity + 1) * img->arc_record_size,
                     "arcs_capacity + 1 records") < 0)
        return -1;
    if (check_region(img, "links_offset", img->links_offset,
                     ((uint64_t)img->arcs_capacity + 1) * 2, "arcs_capacity + 1 uint16 links") < 0)
        return -1;
    if (img->nbuckets == 0 || (img->nbuckets & (img->nbuckets - 1)) != 0)
        return mp_error(img->name, "nbuckets %" PRIu32 " is not a power of two", img->nbuckets);
    if (check_region(img, "buckets_offset", img->buckets_offset, (uint64_t)img->nbuckets * 2,
                     "nbuckets uint16 heads") < 0)
        return -1;
    /* The target reads every table with aligned loads: a misaligned offset
     * is a corrupt header, and the tables would be read shifted. */
    if (check_aligned(img, "arcs_offset", img->arcs_offset, img->ptr_size) < 0 ||
        check_aligned(img, "links_offset", img->links_offset, 2) < 0 ||
        check_aligned(img, "buckets_offset", img->buckets_offset, 2) < 0)
        return -1;
    if (img->hash_shift >= img->ptr_size * 8)
        return mp_error(img->name, "hash_shift %u is not below the %u-bit address width",
                        (unsigned)img->hash_shift, img->ptr_size * 8);
    return 0;
}

static int read_range(struct mp_image *img, const uint8_t *d, unsigned i)
{
    struct mp_range *r = &img->ranges[i];
    uint64_t bin_size = (uint64_t)1 << img->bin_shift;
    char field[48];

    r->low = mp_get64(d + RANGE_OFF(i, low), img->big);
    r->high = mp_get64(d + RANGE_OFF(i, high), img->big);
    r->hist_offset = mp_get32(d + RANGE_OFF(i, hist_offset), img->big);
    r->nbins = mp_get32(d + RANGE_OFF(i, nbins), img->big);

    if (r->low >= r->high)
        return mp_error(img->name, "ranges[%u].low 0x%" PRIx64 " is not below high 0x%" PRIx64, i,
                        r->low, r->high);
    if (r->low % bin_size != 0)
        return mp_error(img->name, "ranges[%u].low 0x%" PRIx64 " is not a multiple of the bin size %" PRIu64,
                        i, r->low, bin_size);
    /* gmon.out stores highpc in ptr_size bytes. */
    if (img->ptr_size == 4 && r->high > UINT32_MAX)
        return mp_error(img->name, "ranges[%u].high 0x%" PRIx64 " does not fit a 4-byte address", i,
                        r->high);
    if (!mp_bins_span(r->low, r->high, r->nbins, img->bin_shift))
        return mp_error(img->name,
                        "ranges[%u]: high - low = 0x%" PRIx64 " but nbins %" PRIu32 " << bin_shift %u = 0x%" PRIx64,
                        i, r->high - r->low, r->nbins, (unsigned)img->bin_shift,
                        (uint64_t)r->nbins << img->bin_shift);
    snprintf(field, sizeof(field), "ranges[%u].hist_offset", i);
    if (check_aligned(img, field, r->hist_offset, img->counter_bytes) < 0)
        return -1;
    return check_region(img, field, r->hist_offset, (uint64_t)r->nbins * img->counter_bytes,
                        "nbins counters");
}

static int read_histogram(struct mp_image *img, const uint8_t *d)
{
    unsigned i, j;

    img->sample_rate_hz = mp_get32(d + HDR_OFF(sample_rate_hz), img->big);
    img->bin_shift = d[HDR_OFF(bin_shift)];
    img->counter_bytes = d[HDR_OFF(counter_bytes)];
    img->nranges = d[HDR_OFF(nranges)];
    img->build_id_len = d[HDR_OFF(build_id_len)];

    if (img->build_id_len > MCUPROF_BUILD_ID_MAX)
        return mp_error(img->name, "build_id_len %u exceeds %u", (unsigned)img->build_id_len,
                        (unsigned)MCUPROF_BUILD_ID_MAX);
    memcpy(img->build_id, d + HDR_OFF(build_id), img->build_id_len);
    if (img->nranges > MCUPROF_MAX_RANGES)
        return mp_error(img->name, "nranges %u exceeds %u", (unsigned)img->nranges,
                        (unsigned)MCUPROF_MAX_RANGES);
    /* A firmware built without the sampler has no ranges; its bin_shift
     * and counter_bytes then describe nothing and are not checked. */
    if (img->nranges == 0)
        return 0;
    if (img->bin_shift < MP_BIN_SHIFT_MIN || img->bin_shift > MP_BIN_SHIFT_MAX)
        return mp_error(img->name, "bin_shift %u is outside %u..%u", (unsigned)img->bin_shift,
                        MP_BIN_SHIFT_MIN, MP_BIN_SHIFT_MAX);
    if (img->counter_bytes != 2 && img->counter_bytes != 4)
        return mp_error(img->name, "counter_bytes %u is neither 2 nor 4",
                        (unsigned)img->counter_bytes);
    for (i = 0; i < img->nranges; i++) {
        if (read_range(img, d, i) < 0)
            return -1;
    }
    for (i = 0; i < img->nranges; i++) {
        for (j = i + 1; j < img->nranges; j++) {
            const struct mp_range *a = &img->ranges[i], *b = &img->ranges[j];

            if (mp_ranges_overlap(a->low, a->high, b->low, b->high))
                return mp_error(img->name,
                                "ranges[%u] 0x%" PRIx64 "..0x%" PRIx64 " overlaps ranges[%u] 0x%" PRIx64 "..0x%" PRIx64,
                                i, a->low, a->high, j, b->low, b->high);
        }
    }
    return 0;
}

/* The arc table, the buckets and each range's bins are separate regions:
 * overlapping ones mean a corrupt header (or a target that counts samples
 * into its own arc records). */
static int check_overlaps(const struct mp_image *img)
{
    struct {
        char name[32];
        uint64_t off, len;
    } reg[3 + MCUPROF_MAX_RANGES + MP_EXT_MAX];
    unsigned n = 0, i, j;

    snprintf(reg[n].name, sizeof(reg[n].name), "arcs");
    reg[n].off = img->arcs_offset;
    reg[n++].len = ((uint64_t)img->arcs_capacity + 1) * img->arc_record_size;
    snprintf(reg[n].name, sizeof(reg[n].name), "links");
    reg[n].off = img->links_offset;
    reg[n++].len = ((uint64_t)img->arcs_capacity + 1) * 2;
    snprintf(reg[n].name, sizeof(reg[n].name), "buckets");
    reg[n].off = img->buckets_offset;
    reg[n++].len = (uint64_t)img->nbuckets * 2;
    for (i = 0; i < img->nranges; i++) {
        snprintf(reg[n].name, sizeof(reg[n].name), "ranges[%u] bins", i);
        reg[n].off = img->ranges[i].hist_offset;
        reg[n++].len = (uint64_t)img->ranges[i].nbins * img->counter_bytes;
    }
    for (i = 0; i < img->next; i++) {
        snprintf(reg[n].name, sizeof(reg[n].name), "extension table %u", i);
        reg[n].off = img->ext[i].offset;
        reg[n++].len = img->ext[i].size;
    }
    for (i = 0; i < n; i++) {
        for (j = i + 1; j < n; j++) {
            if (reg[i].off < reg[j].off + reg[j].len && reg[j].off < reg[i].off + reg[i].len)
                return mp_error(img->name,
                                "%s at 0x%" PRIx64 "..0x%" PRIx64 " overlap %s at 0x%" PRIx64 "..0x%" PRIx64,
                                reg[i].name, reg[i].off, reg[i].off + reg[i].len, reg[j].name,
                                reg[j].off, reg[j].off + reg[j].len);
        }
    }
    return 0;
}

const char *mp_missed_source_name(unsigned source)
{
    static const char *const names[] = {"none", "mtime", "cyccnt", "clock"};

    return source < sizeof(names) / sizeof(names[0]) ? names[source] : NULL;
}

/* The reserved words after the timing fields are ignored, not required to
 * be zero: a later format may put counters there, and this reader can
 * still convert such an image (it only would not print them). */
static int read_timing(struct mp_image *img, const uint8_t *d)
{
    img->missed_periods = mp_get32(d + HDR_OFF(missed_periods), img->big);
    img->arc_table_repairs = mp_get32(d + HDR_OFF(arc_table_repairs), img->big);
    img->timer_period = mp_get32(d + HDR_OFF(timer_period), img->big);
    img->missed_source = d[HDR_OFF(missed_source)];
    img->ext_offset = mp_get32(d + HDR_OFF(ext_offset), img->big);
    img->jitter_percent = d[HDR_OFF(jitter_percent)];
    if (!mp_missed_source_name(img->missed_source))
        return mp_error(img->name,
                        "missed_source %u is not one of 0 (none), 1 (mtime), 2 (cyccnt), 3 (clock)",
                        (unsigned)img->missed_source);
    return 0;
}

static void read_state(struct mp_image *img, const uint8_t *d)
{
    unsigned i;

    img->state = mp_get32(d + HDR_OFF(state), img->big);
    img->freeze_request = mp_get32(d + HDR_OFF(freeze_request), img->big);
    img->freeze_ack = mp_get32(d + HDR_OFF(freeze_ack), img->big);
    img->generation = mp_get32(d + HDR_OFF(generation), img->big);
    for (i = 0; i < MP_LOST_COUNT; i++)
        img->lost[i] = mp_get32(d + lost_offsets[i], img->big);
    img->samples_taken = mp_get32(d + HDR_OFF(samples_taken), img->big);
}

/* The runtime counts every sample in samples_taken before it bins it, so
 * the bins can never hold more, whether the image was dumped, pulled
 * while running or summed from drains (summed with it), except for the
 * missed periods a runtime charges to the bin of the late sample
 * (MCUPROF_TIMING_CHARGED), less the samples it held off and binned
 * nowhere (mp_image_bin_bound). More means a
 * corrupt or forged image, whose bins would also blow up the gmon.out
 * (each 65535 samples of one bin cost a histogram record of the whole
 * range). A saturated samples_taken bounds nothing. */
static int check_samples(const struct mp_image *img)
{
    uint64_t binned = 0, bound = mp_image_bin_bound(img);
    unsigned r;

    for (r = 0; r < img->nranges; r++)
        binned += img->ranges[r].bin_sum;
    if (binned > bound)
        return mp_error(img->name,
                        "the histogram's bins hold %" PRIu64 " samples but samples_taken is %" PRIu32 "%s%s"
                        ": the image is inconsistent (corrupt, or not written by the runtime)",
                        binned, img->samples_taken, img->held_entry.samples ? " less the samples held off" : "",
                        img->timing_flags & MCUPROF_TIMING_CHARGED ? " plus the missed periods charged to the bins"
                                                                   : "");
    return 0;
}

/* Sum, maximum and saturated bins of one range, in one pass over the
 * bytes: the loop for each counter width and byte order keeps everything
 * in registers (a store through a byte pointer would make the compiler
 * reload the image's fields on every bin). */
static void scan_bins(const struct mp_image *img, struct mp_range *range)
{
    const uint8_t *p = img->data + range->hist_offset;
    uint32_t n = range->nbins, b, max = 0, saturated = 0;
    uint64_t sum = 0;

    if (img->counter_bytes == 4) {
        for (b = 0; b < n; b++, p += 4) {
            uint32_t v = mp_get32(p, img->big);

            sum += v;
            max = v > max ? v : max;
            saturated += v == UINT32_MAX;
        }
    } else if (img->big) {
        for (b = 0; b < n; b++, p += 2) {
            uint32_t v = (uint32_t)p[0] << 8 | p[1];

            sum += v;
            max = v > max ? v : max;
            saturated += v == UINT16_MAX;
        }
    } else {
        for (b = 0; b < n; b++, p += 2) {
            uint32_t v = (uint32_t)p[1] << 8 | p[0];

            sum += v;
            max = v > max ? v : max;
            saturated += v == UINT16_MAX;
        }
    }
    range->bin_sum = sum;
    range->bin_max = max;
    range->bins_saturated = saturated;
}

int mp_image_parse(struct mp_image *img, const char *name, const uint8_t *data, size_t len)
{
    memset(img, 0, sizeof(*img));
    img->name = name;
    img->data = data;
    if (read_identity(img, data, len) < 0 || read_arcs(img, data) < 0 || read_histogram(img, data) < 0 ||
        read_timing(img, data) < 0)
        return -1;
    read_state(img, data);
    if (mp_image_read_timing(img, data) < 0 || mp_image_read_ext(img) < 0 || mp_image_check_timing(img) < 0 ||
        check_overlaps(img) < 0)
        return -1;
    for (unsigned r = 0; r < img->nranges; r++)
        scan_bins(img, &img->ranges[r]);
    if (mp_image_read_spill(img) < 0)
        return -1;
    return check_samples(img);
}

void mp_image_arc(const struct mp_image *img, uint32_t index, struct mp_arc *arc)
{
    const uint8_t *rec = img->data + img->arcs_offset + (size_t)index * img->arc_record_size;

    if (img->ptr_size == 8) {
        arc->frompc = mp_get64(rec + offsetof(struct mcuprof_arc64, frompc), img->big);
        arc->selfpc = mp_get64(rec + offsetof(struct mcuprof_arc64, selfpc), img->big);
        arc->count = mp_get32(rec + offsetof(struct mcuprof_arc64, count), img->big);
    } else {
        arc->frompc = mp_get32(rec + offsetof(struct mcuprof_arc32, frompc), img->big);
        arc->selfpc = mp_get32(rec + offsetof(struct mcuprof_arc32, selfpc), img->big);
        arc->count = mp_get32(rec + offsetof(struct mcuprof_arc32, count), img->big);
    }
}

uint32_t mp_image_bin_max(const struct mp_image *img)
{
    return img->counter_bytes == 4 ? UINT32_MAX : UINT16_MAX;
}

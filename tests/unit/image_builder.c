#include "image_builder.h"

#include <stdio.h>
#include <string.h>

#include <mcuprof/image.h>

static void put(uint8_t *buf, size_t off, uint64_t v, unsigned n, int big)
{
    unsigned i;

    for (i = 0; i < n; i++)
        buf[off + i] = (uint8_t)(v >> (8 * (big ? n - 1 - i : i)));
}

void tb_put16(uint8_t *buf, size_t off, uint16_t v, int big) { put(buf, off, v, 2, big); }
void tb_put32(uint8_t *buf, size_t off, uint32_t v, int big) { put(buf, off, v, 4, big); }
void tb_put64(uint8_t *buf, size_t off, uint64_t v, int big) { put(buf, off, v, 8, big); }

static size_t align4(size_t v) { return (v + 3) & ~(size_t)3; }
static size_t align8(size_t v) { return (v + 7) & ~(size_t)7; }

static unsigned path_entry(const struct tb_image *d)
{
    return d->path_entry_size ? d->path_entry_size : (d->task_paths ? 16u : 8u) + d->path_depth_max * d->ptr_size;
}

/* The histogram's end: where the path table goes, 8-aligned. */
static size_t hist_end(const struct tb_image *d)
{
    unsigned rec = d->ptr_size == 8 ? 24 : 12;
    uint32_t capacity = d->arcs_capacity ? d->arcs_capacity : d->narcs + 2;
    uint32_t nbuckets = d->nbuckets ? d->nbuckets : 8;
    size_t links_off = TB_HEADER_SIZE + (size_t)(capacity + 1) * rec;
    size_t size = align4(align4(links_off + (size_t)(capacity + 1) * 2) + 2 * (size_t)nbuckets);
    unsigned r;

    for (r = 0; r < d->nranges; r++)
        size = align4(size + (size_t)d->ranges[r].nbins * d->counter_bytes);
    return size;
}

size_t tb_paths_offset(const struct tb_image *d)
{
    return align8(hist_end(d));
}

static size_t paths_size(const struct tb_image *d)
{
    return d->path_depth_max ? align8(TB_EXT_HEADER + (size_t)d->npaths * path_entry(d)) : 0;
}

size_t tb_late_offset(const struct tb_image *d)
{
    return tb_paths_offset(d) + paths_size(d);
}

static size_t late_size(const struct tb_image *d)
{
    return d->has_late ? TB_EXT_HEADER + (size_t)d->nlate * 16 : 0;
}

size_t tb_blockers_offset(const struct tb_image *d)
{
    return tb_late_offset(d) + late_size(d);
}

static size_t blockers_size(const struct tb_image *d)
{
    return d->has_blockers ? align8(TB_EXT_HEADER + (size_t)d->nblockers * 8) : 0;
}

size_t tb_held_offset(const struct tb_image *d)
{
    return tb_blockers_offset(d) + blockers_size(d);
}

static size_t held_size(const struct tb_image *d)
{
    return d->has_held ? TB_EXT_HEADER + 16 : 0;
}

/* Any table of the sampler's timing. */
static int has_timing(const struct tb_image *d)
{
    return d->has_late || d->has_blockers || d->has_held;
}

static void put_ext_header(const struct tb_image *d, uint8_t *buf, size_t off, unsigned kind, unsigned entry,
                           size_t size, unsigned n, uint32_t lost, uint32_t invalid)
{
    tb_put16(buf, off + TB_EXT_KIND, (uint16_t)kind, d->big);
    tb_put16(buf, off + TB_EXT_ENTRY_SIZE, (uint16_t)entry, d->big);
    tb_put32(buf, off + TB_EXT_SIZE, (uint32_t)size, d->big);
    tb_put32(buf, off + TB_EXT_CAPACITY, n, d->big);
    tb_put32(buf, off + TB_EXT_USED, n, d->big);
    tb_put32(buf, off + TB_EXT_LOST, lost, d->big);
    tb_put32(buf, off + TB_EXT_INVALID, invalid, d->big);
}

/* The late-sample and blocker tables, where tb_late_offset and
 * tb_blockers_offset say. */
static void put_timing(const struct tb_image *d, uint8_t *buf)
{
    size_t off = tb_late_offset(d);
    unsigned i;

    if (d->has_late) {
        put_ext_header(d, buf, off, TB_EXT_LATE, 16, late_size(d), d->nlate, d->late_lost, 0);
        for (i = 0; i < d->nlate; i++) {
            size_t at = off + TB_EXT_HEADER + (size_t)i * 16;

            tb_put64(buf, at, d->late[i].pc, d->big);
            tb_put32(buf, at + 8, d->late[i].samples, d->big);
            tb_put32(buf, at + 12, d->late[i].missed, d->big);
        }
    }
    off = tb_blockers_offset(d);
    if (d->has_blockers) {
        put_ext_header(d, buf, off, TB_EXT_BLOCKERS, 8, blockers_size(d), d->nblockers, d->blockers_lost, 0);
        for (i = 0; i < d->nblockers; i++) {
            size_t at = off + TB_EXT_HEADER + (size_t)i * 8;

            tb_put32(buf, at, d->blockers[i].source, d->big);
            buf[at + 4] = d->blockers[i].priority;
            buf[at + 5] = d->blockers[i].sampler_priority;
            tb_put16(buf, at + 6, d->blockers[i].flags, d->big);
        }
    }
    off = tb_held_offset(d);
    if (d->has_held) {
        put_ext_header(d, buf, off, TB_EXT_HELD, 16, held_size(d), 1, 0, 0);
        tb_put32(buf, off + TB_EXT_HEADER, d->held.samples, d->big);
        tb_put32(buf, off + TB_EXT_HEADER + 4, d->held.periods, d->big);
        tb_put32(buf, off + TB_EXT_HEADER + 8, d->held.threshold, d->big);
        tb_put32(buf, off + TB_EXT_HEADER + 12, d->held.scans, d->big);
    }
}

static size_t spill_size(const struct tb_image *d)
{
    return d->spill_capacity ? align8(TB_EXT_HEADER + (size_t)d->spill_capacity * 8) : 0;
}

size_t tb_spill_offset(const struct tb_image *d)
{
    return tb_held_offset(d) + held_size(d);
}

/* The spill table at OFF (the end marker after it is already zero);
 * returns the samples its carries add. */
static uint64_t put_spill(const struct tb_image *d, uint8_t *buf, size_t off, const size_t *hist_offs)
{
    uint64_t sum = 0, unit = d->counter_bytes == 4 ? (uint64_t)1 << 32 : 65536u;
    unsigned i;

    tb_put16(buf, off + TB_EXT_KIND, TB_EXT_SPILL, d->big);
    tb_put16(buf, off + TB_EXT_ENTRY_SIZE, 8, d->big);
    tb_put32(buf, off + TB_EXT_SIZE, (uint32_t)spill_size(d), d->big);
    tb_put32(buf, off + TB_EXT_CAPACITY, d->spill_capacity, d->big);
    tb_put32(buf, off + TB_EXT_USED, d->nspill, d->big);
    tb_put32(buf, off + TB_EXT_LOST, d->spill_lost, d->big);
    for (i = 0; i < d->nspill; i++) {
        const struct tb_spill *e = &d->spill[i];
        size_t at = off + TB_EXT_HEADER + 8 * (size_t)i;

        tb_put32(buf, at, (uint32_t)(hist_offs[e->range] + (size_t)e->bin * d->counter_bytes), d->big);
        tb_put32(buf, at + 4, e->carries, d->big);
        sum += e->carries * unit;
    }
    return sum;
}

/* The path table at OFF and its end marker; returns the samples it holds
 * with its lost count. */
static uint64_t put_paths(const struct tb_image *d, uint8_t *buf, size_t off)
{
    unsigned entry = path_entry(d), i, k;
    size_t size = align8(TB_EXT_HEADER + (size_t)d->npaths * entry);
    uint64_t sum = d->paths_lost;

    unsigned header = d->task_paths ? 16u : 8u;

    put_ext_header(d, buf, off, d->task_paths ? TB_EXT_TASK_PATHS : TB_EXT_PATHS, entry, size, d->npaths,
                   d->paths_lost, d->paths_invalid);
    for (i = 0; i < d->npaths; i++) {
        size_t at = off + TB_EXT_HEADER + (size_t)i * entry;

        tb_put32(buf, at, d->paths[i].samples, d->big);
        tb_put16(buf, at + 4, d->paths[i].depth, d->big);
        tb_put16(buf, at + 6, d->paths[i].flags, d->big);
        if (d->task_paths) {
            tb_put32(buf, at + 8, d->path_contexts ? d->path_contexts[i] : MCUPROF_PATH_NO_CONTEXT, d->big);
            tb_put16(buf, at + 12, d->path_tasks ? d->path_tasks[i] : MCUPROF_PATH_NO_TASK, d->big);
        }
        for (k = 0; k < d->paths[i].depth && k < d->path_depth_max && k < TB_PATH_FRAMES_MAX &&
                    header + (k + 1) * d->ptr_size <= entry;
             k++)
            put(buf, at + header + (size_t)k * d->ptr_size, d->paths[i].frames[k], d->ptr_size, d->big);
        sum += d->paths[i].samples;
    }
    tb_put32(buf, TB_OFF_EXT_OFFSET, (uint32_t)off, d->big);
    return sum; /* the end marker after it is already zero */
}

static size_t tasks_size(const struct tb_image *d)
{
    return d->ntasks ? TB_EXT_HEADER + (size_t)d->ntasks * 32 : 0;
}

/* The task table at OFF (the end marker after it is already zero);
 * returns the samples it holds. */
static uint64_t put_tasks(const struct tb_image *d, uint8_t *buf, size_t off)
{
    uint64_t sum = 0;
    unsigned i;

    put_ext_header(d, buf, off, TB_EXT_TASKS, 32, tasks_size(d), d->ntasks, 0, 0);
    for (i = 0; i < d->ntasks; i++) {
        size_t at = off + TB_EXT_HEADER + (size_t)i * 32;
        const char *name = d->task_names[i];

        tb_put64(buf, at, name ? 0x20001000u + 0x100u * i : 0, d->big);
        if (d->task_samples) {
            tb_put32(buf, at + 8, d->task_samples[i], d->big);
            sum += d->task_samples[i];
        }
        if (name)
            memcpy(buf + at + 16, name, strlen(name) < 16 ? strlen(name) : 16);
    }
    return sum;
}

static size_t contexts_size(const struct tb_image *d)
{
    return d->ncontexts ? TB_EXT_HEADER + (size_t)d->ncontexts * 8 : 0;
}

/* The context table at OFF (the end marker after it is already zero);
 * returns the samples it holds with its lost count. */
static uint64_t put_contexts(const struct tb_image *d, uint8_t *buf, size_t off)
{
    uint64_t sum = d->contexts_lost;
    unsigned i;

    put_ext_header(d, buf, off, TB_EXT_CONTEXTS, 8, contexts_size(d), d->ncontexts, d->contexts_lost, 0);
    for (i = 0; i < d->ncontexts; i++) {
        tb_put32(buf, off + TB_EXT_HEADER + (size_t)i * 8, d->contexts[i].key, d->big);
        tb_put32(buf, off + TB_EXT_HEADER + (size_t)i * 8 + 4, d->contexts[i].samples, d->big);
        sum += d->contexts[i].samples;
    }
    return sum;
}

/* Any extension table. */
static int has_ext(const struct tb_image *d)
{
    return d->path_depth_max || has_timing(d) || d->spill_capacity || d->ntasks || d->ncontexts;
}

size_t tb_build(const struct tb_image *d, uint8_t *buf, size_t cap)
{
    unsigned rec = d->ptr_size == 8 ? 24 : 12;
    uint32_t capacity = d->arcs_capacity ? d->arcs_capacity : d->narcs + 2;
    uint32_t nbuckets = d->nbuckets ? d->nbuckets : 8;
    size_t arcs_off = TB_HEADER_SIZE;
    size_t links_off = arcs_off + (size_t)(capacity + 1) * rec;
    size_t buckets_off = align4(links_off + (size_t)(capacity + 1) * 2);
    size_t hist_off = align4(buckets_off + 2 * (size_t)nbuckets);
    size_t size = hist_off;
    unsigned r, i;

    for (r = 0; r < d->nranges; r++)
        size = align4(size + (size_t)d->ranges[r].nbins * d->counter_bytes);
    if (has_ext(d))
        size = align8(size) + paths_size(d) + late_size(d) + blockers_size(d) + held_size(d) + spill_size(d) +
               tasks_size(d) + contexts_size(d) + 8;
    if (size > cap)
        return 0;
    memset(buf, 0, size);

    memcpy(buf + TB_OFF_MAGIC, d->big ? MCUPROF_IMAGE_MAGIC_BE : MCUPROF_IMAGE_MAGIC_LE, 4);
    tb_put16(buf, TB_OFF_VERSION, 1, d->big);
    buf[TB_OFF_BYTE_ORDER] = d->big ? 2 : 1;
    buf[TB_OFF_PTR_SIZE] = (uint8_t)d->ptr_size;
    tb_put16(buf, TB_OFF_MACHINE, d->machine, d->big);
    tb_put16(buf, TB_OFF_HEADER_SIZE, TB_HEADER_SIZE, d->big);
    tb_put32(buf, TB_OFF_IMAGE_SIZE, (uint32_t)size, d->big);
    tb_put64(buf, TB_OFF_IMAGE_ADDR, d->image_addr, d->big);
    tb_put32(buf, TB_OFF_ARCS_OFFSET, (uint32_t)arcs_off, d->big);
    tb_put32(buf, TB_OFF_ARCS_CAPACITY, capacity, d->big);
    tb_put32(buf, TB_OFF_ARCS_USED, d->narcs, d->big);
    tb_put16(buf, TB_OFF_ARC_RECORD_SIZE, (uint16_t)rec, d->big);
    tb_put16(buf, TB_OFF_HASH_SHIFT, d->hash_shift, d->big);
    tb_put32(buf, TB_OFF_BUCKETS_OFFSET, (uint32_t)buckets_off, d->big);
    tb_put32(buf, TB_OFF_NBUCKETS, nbuckets, d->big);
    tb_put32(buf, TB_OFF_LINKS_OFFSET, (uint32_t)links_off, d->big);
    tb_put32(buf, TB_OFF_SAMPLE_RATE, d->rate, d->big);
    buf[TB_OFF_BIN_SHIFT] = d->bin_shift;
    buf[TB_OFF_COUNTER_BYTES] = d->counter_bytes;
    buf[TB_OFF_NRANGES] = (uint8_t)d->nranges;
    buf[TB_OFF_BUILD_ID_LEN] = d->build_id_len;
    if (d->build_id_len)
        memcpy(buf + TB_OFF_BUILD_ID, d->build_id, d->build_id_len);

    /* arc records 1..narcs, chained into their buckets like the target
     * does (newest at the head); buckets hold a record's distance from
     * record 0 in words, links a record index */
    for (i = 0; i < d->narcs; i++) {
        size_t at = arcs_off + (size_t)(i + 1) * rec;
        uint32_t bucket = (uint32_t)(d->arcs[i].frompc >> d->hash_shift) & (nbuckets - 1);
        size_t head = buckets_off + 2 * (size_t)bucket;
        uint16_t link = (uint16_t)(d->big ? buf[head] << 8 | buf[head + 1] : buf[head + 1] << 8 | buf[head]);

        put(buf, at, d->arcs[i].frompc, d->ptr_size, d->big);
        put(buf, at + d->ptr_size, d->arcs[i].selfpc, d->ptr_size, d->big);
        tb_put32(buf, at + 2 * d->ptr_size, d->arcs[i].count, d->big);
        tb_put16(buf, links_off + 2 * (size_t)(i + 1), (uint16_t)(link * 4 / rec), d->big);
        tb_put16(buf, head, (uint16_t)((i + 1) * rec / 4), d->big);
    }

    uint64_t binned = 0, need;
    size_t total = size, hist_offs[4] = {0, 0, 0, 0};
    size = hist_off;
    for (r = 0; r < d->nranges; r++) {
        const struct tb_range *rg = &d->ranges[r];

        hist_offs[r & 3] = size;
        tb_put64(buf, TB_RANGE_OFF(r, TB_R_LOW), rg->low, d->big);
        tb_put64(buf, TB_RANGE_OFF(r, TB_R_HIGH), rg->low + ((uint64_t)rg->nbins << d->bin_shift), d->big);
        tb_put32(buf, TB_RANGE_OFF(r, TB_R_HIST_OFFSET), (uint32_t)size, d->big);
        tb_put32(buf, TB_RANGE_OFF(r, TB_R_NBINS), rg->nbins, d->big);
        for (i = 0; i < rg->nbins; i++) {
            put(buf, size + (size_t)i * d->counter_bytes, rg->bins ? rg->bins[i] : 0, d->counter_bytes, d->big);
            binned += rg->bins ? rg->bins[i] : 0;
        }
        size = align4(size + (size_t)rg->nbins * d->counter_bytes);
    }

    tb_put32(buf, TB_OFF_STATE, d->state, d->big);
    tb_put32(buf, TB_OFF_FREEZE_REQUEST, d->freeze_request, d->big);
    tb_put32(buf, TB_OFF_FREEZE_ACK, d->freeze_ack, d->big);
    tb_put32(buf, TB_OFF_GENERATION, d->generation, d->big);
    for (i = 0; i < 6; i++)
        tb_put32(buf, TB_OFF_LOST + 4 * i, d->lost[i], d->big);
    need = binned;
    if (d->path_depth_max) {
        uint64_t in_paths = put_paths(d, buf, align8(size));

        need = in_paths > need ? in_paths : need;
    }
    if (has_timing(d))
        put_timing(d, buf);
    if (d->spill_capacity)
        need += put_spill(d, buf, tb_spill_offset(d), hist_offs);
    if (d->ntasks) {
        uint64_t in_tasks = put_tasks(d, buf, tb_spill_offset(d) + spill_size(d));

        need = in_tasks > need ? in_tasks : need;
    }
    if (d->ncontexts) {
        uint64_t in_contexts = put_contexts(d, buf, tb_spill_offset(d) + spill_size(d) + tasks_size(d));

        need = in_contexts > need ? in_contexts : need;
    }
    tb_put16(buf, TB_OFF_TIMING_FLAGS, d->timing_flags, d->big);
    tb_put32(buf, TB_OFF_DEFERRED_SAMPLES, d->deferred_samples, d->big);
    if (has_ext(d)) {
        tb_put32(buf, TB_OFF_EXT_OFFSET, (uint32_t)tb_paths_offset(d), d->big);
        size = total;
    }
    if (d->samples_exact || need <= d->samples_taken)
        tb_put32(buf, TB_OFF_SAMPLES_TAKEN, d->samples_taken, d->big);
    else
        tb_put32(buf, TB_OFF_SAMPLES_TAKEN, need > UINT32_MAX ? UINT32_MAX : (uint32_t)need, d->big);
    tb_put32(buf, TB_OFF_MISSED_PERIODS, d->missed_periods, d->big);
    tb_put32(buf, TB_OFF_TIMER_PERIOD, d->timer_period, d->big);
    buf[TB_OFF_MISSED_SOURCE] = d->missed_source;
    buf[TB_OFF_JITTER_PERCENT] = d->jitter_percent;
    return size;
}

void tb_arm(struct tb_image *d)
{
    memset(d, 0, sizeof(*d));
    d->ptr_size = 4;
    d->machine = 40;
    d->rate = 1000;
    d->bin_shift = 2;
    d->counter_bytes = 2;
}

void tb_small(struct tb_image *d, uint64_t image_addr, uint32_t arcs_capacity)
{
    static const struct tb_arc arcs[] = {{0x1011, 0x1021, 5}, {0x1031, 0x1041, 7000}};
    static const uint32_t bins[64] = {1, 2, 3, [40] = 65000};

    tb_arm(d);
    d->image_addr = image_addr;
    d->bin_shift = 4;
    d->nranges = 1;
    d->ranges[0].low = 0x1000;
    d->ranges[0].nbins = 64;
    d->ranges[0].bins = bins;
    d->narcs = 2;
    d->arcs = arcs;
    d->arcs_capacity = arcs_capacity;
    d->state = 3;
}

int tb_write_file(const char *path, const uint8_t *buf, size_t len)
{
    FILE *f = fopen(path, "wb");
    int ok;

    if (!f)
        return -1;
    ok = fwrite(buf, 1, len, f) == len;
    return fclose(f) == 0 && ok ? 0 : -1;
}

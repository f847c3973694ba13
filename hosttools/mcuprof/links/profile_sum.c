#include "profile_sum.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"

void mp_sum_init(struct mp_sum *s)
{
    memset(s, 0, sizeof(*s));
}

void mp_sum_free(struct mp_sum *s)
{
    unsigned r;
    size_t i;

    for (r = 0; r < MCUPROF_MAX_RANGES; r++)
        free(s->bins[r]);
    free(s->arcs);
    free(s->used);
    free(s->contexts);
    free(s->tasks);
    for (i = 0; i < s->npaths; i++)
        free(s->paths[i].frames);
    free(s->paths);
    free(s->path_slots);
    free(s->task_map);
    free(s->timing.late);
    free(s->timing.blockers);
    mp_sum_init(s);
}

static size_t slot_of(const struct mp_sum *s, uint64_t frompc, uint64_t selfpc)
{
    uint64_t h = frompc * 0x9E3779B97F4A7C15u ^ selfpc * 0xC2B2AE3D27D4EB4Fu;
    size_t i = (size_t)(h >> 17) & (s->cap - 1);

    while (s->used[i] && (s->arcs[i].frompc != frompc || s->arcs[i].selfpc != selfpc))
        i = (i + 1) & (s->cap - 1);
    return i;
}

/* Keep the table at most half full. */
static int grow(struct mp_sum *s)
{
    struct mp_sum_arc *old = s->arcs;
    uint8_t *old_used = s->used;
    size_t old_cap = s->cap, i;

    s->cap = old_cap ? old_cap * 2 : 256;
    s->arcs = calloc(s->cap, sizeof(*s->arcs));
    s->used = calloc(s->cap, 1);
    if (!s->arcs || !s->used) {
        free(s->arcs);
        free(s->used);
        s->arcs = old;
        s->used = old_used;
        s->cap = old_cap;
        return mp_error(NULL, "out of memory summing %zu arcs", s->narcs);
    }
    for (i = 0; i < old_cap; i++) {
        if (old_used[i]) {
            size_t j = slot_of(s, old[i].frompc, old[i].selfpc);

            s->arcs[j] = old[i];
            s->used[j] = 1;
        }
    }
    free(old);
    free(old_used);
    return 0;
}

static int add_arc(struct mp_sum *s, const struct mp_arc *a)
{
    size_t i;

    if (2 * (s->narcs + 1) > s->cap && grow(s) < 0)
        return -1;
    i = slot_of(s, a->frompc, a->selfpc);
    if (!s->used[i]) {
        s->used[i] = 1;
        s->arcs[i].frompc = a->frompc;
        s->arcs[i].selfpc = a->selfpc;
        s->arcs[i].count = 0;
        s->narcs++;
    }
    /* 2^64 calls would take millennia at any clock rate: no overflow. */
    s->arcs[i].count += a->count;
    return 0;
}

uint64_t mp_sum_arc_count(const struct mp_sum *s, uint64_t frompc, uint64_t selfpc)
{
    size_t i;

    if (s->cap == 0)
        return 0;
    i = slot_of(s, frompc, selfpc);
    return s->used[i] ? s->arcs[i].count : 0;
}

static int same_geometry(const struct mp_sum *s, const struct mp_image *img)
{
    const struct mp_image *f = &s->first;
    unsigned r;

    if (img->big != f->big || img->ptr_size != f->ptr_size || img->machine != f->machine)
        return mp_error(img->name, "byte order, pointer size or machine differ from the first "
                                   "snapshot: the firmware was replaced");
    if (img->build_id_len != f->build_id_len ||
        memcmp(img->build_id, f->build_id, f->build_id_len) != 0)
        return mp_error(img->name, "build-id differs from the first snapshot: the firmware was replaced");
    if (img->nranges != f->nranges || (img->nranges && img->bin_shift != f->bin_shift))
        return mp_error(img->name, "histogram layout differs from the first snapshot: "
                                   "the firmware was replaced");
    for (r = 0; r < img->nranges; r++) {
        if (img->ranges[r].low != f->ranges[r].low || img->ranges[r].nbins != f->ranges[r].nbins)
            return mp_error(img->name, "ranges[%u] differs from the first snapshot: "
                                       "the firmware was replaced", r);
    }
    return 0;
}

/* Context entries by key; few (the tables hold a handful each). */
static int add_contexts(struct mp_sum *s, const struct mp_image *img)
{
    uint32_t i, used;

    if (img->contexts < 0)
        return 0;
    s->has_contexts = 1;
    s->contexts_lost += img->ext[img->contexts].lost;
    used = img->ext[img->contexts].used;
    for (i = 0; i < used; i++) {
        uint32_t key, samples;
        size_t k;

        mp_image_context(img, i, &key, &samples);
        for (k = 0; k < s->ncontexts && s->contexts[k].key != key; k++)
            ;
        if (k == s->ncontexts) {
            struct mp_sum_context *n = realloc(s->contexts, (k + 1) * sizeof(*n));

            if (!n)
                return mp_error(img->name, "out of memory for the context table");
            s->contexts = n;
            n[k].key = key;
            n[k].samples = 0;
            s->ncontexts++;
        }
        s->contexts[k].samples += samples;
    }
    return 0;
}

/* Task entries by handle and name: a handle reused by another task (the
 * runtime forgets nothing, but a reset firmware may) stays apart. */
static int add_tasks(struct mp_sum *s, const struct mp_image *img)
{
    uint32_t i, used;

    if (img->tasks < 0)
        return 0;
    s->has_tasks = 1;
    s->tasks_lost += img->ext[img->tasks].lost;
    s->tasks_invalid += img->ext[img->tasks].invalid;
    used = img->ext[img->tasks].used;
    if (used > s->task_map_cap) {
        uint32_t *map = realloc(s->task_map, used * sizeof(*map));

        if (!map)
            return mp_error(img->name, "out of memory for the task table");
        s->task_map = map;
        s->task_map_cap = used;
    }
    for (i = 0; i < used; i++) {
        char name[MCUPROF_TASK_NAME_MAX + 1];
        uint64_t handle;
        uint32_t samples, flags;
        size_t k;

        mp_image_task(img, i, &handle, &samples, &flags, name);
        for (k = 0; k < s->ntasks; k++)
            if (s->tasks[k].handle == handle && strncmp(s->tasks[k].name, name, MCUPROF_TASK_NAME_MAX) == 0)
                break;
        if (k == s->ntasks) {
            struct mp_sum_task *n = realloc(s->tasks, (k + 1) * sizeof(*n));

            if (!n)
                return mp_error(img->name, "out of memory for the task table");
            s->tasks = n;
            memset(&n[k], 0, sizeof(n[k]));
            n[k].handle = handle;
            memcpy(n[k].name, name, MCUPROF_TASK_NAME_MAX);
            s->ntasks++;
        }
        s->tasks[k].samples += samples;
        s->tasks[k].flags |= flags;
        s->task_map[i] = (uint32_t)k;
    }
    return 0;
}

/* ---- the sampler's timing: late samples by PC, blockers by source ---- */

static int add_late(struct mp_sum_timing *t, const struct mp_image *img)
{
    uint32_t i;

    t->has_late = 1;
    t->late_lost += img->ext[img->late].lost;
    for (i = 0; i < img->ext[img->late].used; i++) {
        uint32_t samples, missed;
        uint64_t pc;
        size_t k;

        mp_image_late(img, i, &pc, &samples, &missed);
        if (!samples) /* drained: nothing since */
            continue;
        for (k = 0; k < t->nlate && t->late[k].pc != pc; k++)
            ;
        if (k == t->nlate) {
            struct mp_sum_late *n = realloc(t->late, (k + 1) * sizeof(*n));

            if (!n)
                return mp_error(img->name, "out of memory for the late-sample table");
            t->late = n;
            memset(&t->late[k], 0, sizeof(t->late[k]));
            t->late[k].pc = pc;
            t->nlate++;
        }
        t->late[k].samples += samples;
        t->late[k].missed += missed;
    }
    return 0;
}

static int add_blockers(struct mp_sum_timing *t, const struct mp_image *img)
{
    uint32_t i;

    t->has_blockers = 1;
    t->blockers_lost += img->ext[img->blockers].lost;
    for (i = 0; i < img->ext[img->blockers].used; i++) {
        struct mp_sum_blocker b;
        size_t k;

        mp_image_blocker(img, i, &b.source, &b.priority, &b.sampler_priority, &b.flags);
        for (k = 0; k < t->nblockers && t->blockers[k].source != b.source; k++)
            ;
        if (k == t->nblockers) {
            struct mp_sum_blocker *n = realloc(t->blockers, (k + 1) * sizeof(*n));

            if (!n)
                return mp_error(img->name, "out of memory for the blocker table");
            t->blockers = n;
            t->nblockers++;
        } else {
            b.flags |= t->blockers[k].flags;
        }
        t->blockers[k] = b;
    }
    return 0;
}

/* The samples held off and their periods add up; so do the looks for
 * blockers (a drain zeroes them). The threshold is the first snapshot's;
 * another one is said. */
static void add_held(struct mp_sum_timing *t, const struct mp_image *img)
{
    const struct mcuprof_held *h = &img->held_entry;

    if (t->has_held && h->threshold != t->held_threshold)
        mp_warn(img->name, "its deferral threshold is %" PRIu32 " timer ticks, an earlier snapshot's %" PRIu32
                           " (the sampler's rate changed): the sum keeps %" PRIu32,
                h->threshold, t->held_threshold, t->held_threshold);
    if (!t->has_held)
        t->held_threshold = h->threshold;
    t->has_held = 1;
    t->held_samples += h->samples;
    t->held_periods += h->periods;
    t->held_scans += h->scans;
}

static int add_timing(struct mp_sum *s, const struct mp_image *img)
{
    struct mp_sum_timing *t = &s->timing;

    t->flags |= img->timing_flags;
    t->deferred_samples += img->deferred_samples;
    if (img->held >= 0)
        add_held(t, img);
    if (img->late >= 0 && add_late(t, img) < 0)
        return -1;
    return img->blockers >= 0 ? add_blockers(t, img) : 0;
}

/* ---- call paths, by (frames, flags, task, context) ------------------- */

static uint64_t path_hash(const struct mp_sum_path *k)
{
    uint64_t h = 0x9E3779B97F4A7C15u ^ ((uint64_t)k->depth << 16 | k->flags);
    unsigned i;

    h = (h ^ ((uint64_t)k->task << 32 | k->context)) * 0xC2B2AE3D27D4EB4Fu;
    for (i = 0; i < k->depth; i++)
        h = (h ^ k->frames[i]) * 0xC2B2AE3D27D4EB4Fu;
    return h ^ h >> 29;
}

/* The slot of the path K, or of the free slot where it would go. */
static size_t path_slot(const struct mp_sum *s, const struct mp_sum_path *k)
{
    size_t i = (size_t)path_hash(k) & (s->path_slots_cap - 1);

    for (;; i = (i + 1) & (s->path_slots_cap - 1)) {
        const struct mp_sum_path *p;

        if (!s->path_slots[i])
            return i;
        p = &s->paths[s->path_slots[i] - 1];
        if (p->depth == k->depth && p->flags == k->flags && p->task == k->task && p->context == k->context &&
            memcmp(p->frames, k->frames, k->depth * sizeof(*k->frames)) == 0)
            return i;
    }
}

/* Room for one more path: the array doubled, the index kept at most half
 * full (rebuilt when it grows). */
static int path_room(struct mp_sum *s, const char *name)
{
    size_t i;

    if (s->npaths == s->paths_cap) {
        size_t cap = s->paths_cap ? 2 * s->paths_cap : 64;
        struct mp_sum_path *n = realloc(s->paths, cap * sizeof(*n));

        if (!n)
            return mp_error(name, "out of memory summing %zu call paths", s->npaths);
        s->paths = n;
        s->paths_cap = cap;
    }
    if (2 * (s->npaths + 1) > s->path_slots_cap) {
        size_t cap = s->path_slots_cap ? 2 * s->path_slots_cap : 128;
        size_t *slots = calloc(cap, sizeof(*slots));

        if (!slots)
            return mp_error(name, "out of memory summing %zu call paths", s->npaths);
        free(s->path_slots);
        s->path_slots = slots;
        s->path_slots_cap = cap;
        for (i = 0; i < s->npaths; i++)
            s->path_slots[path_slot(s, &s->paths[i])] = i + 1;
    }
    return 0;
}

uint64_t mp_sum_path_samples(const struct mp_sum *s, const struct mp_sum_path *key)
{
    size_t i;

    if (!s->path_slots_cap)
        return 0;
    i = path_slot(s, key);
    return s->path_slots[i] ? s->paths[s->path_slots[i] - 1].samples : 0;
}

/* Paths with samples, added by their frames as recorded and their task
 * as the summed task table numbers it (add_tasks() ran first); a drained
 * table keeps its paths with no samples, which add nothing. */
static int add_paths(struct mp_sum *s, const struct mp_image *img)
{
    uint64_t *frames;
    uint32_t i, used;
    int ret = -1;

    if (img->paths < 0)
        return 0;
    if (s->has_paths && img->path_depth_max != s->path_depth_max)
        return mp_error(img->name, "path table of %u frames per path differs from the first snapshot's %u:"
                                   " the firmware was replaced",
                        img->path_depth_max, s->path_depth_max);
    s->has_paths = 1;
    s->path_depth_max = img->path_depth_max;
    s->paths_lost += img->ext[img->paths].lost;
    s->paths_invalid += img->ext[img->paths].invalid;
    used = img->ext[img->paths].used;
    if (!(frames = malloc(img->path_depth_max * sizeof(*frames))))
        return mp_error(img->name, "out of memory for a %u-frame path", img->path_depth_max);
    for (i = 0; i < used; i++) {
        struct mp_sum_path key = {frames, 0, 0, 0, 0, 0};
        unsigned k;
        uint32_t samples;
        size_t slot;

        mp_image_path(img, i, &samples, &key.depth, &key.flags);
        if (!samples)
            continue;
        mp_image_path_key(img, i, &key.task, &key.context);
        if (key.task != MCUPROF_PATH_NO_TASK) /* an entry of its image's table (image_ext.c) */
            key.task = s->task_map[key.task];
        for (k = 0; k < key.depth; k++)
            frames[k] = mp_image_path_frame(img, i, k);
        if (path_room(s, img->name) < 0)
            goto out;
        slot = path_slot(s, &key);
        if (!s->path_slots[slot]) {
            struct mp_sum_path *p = &s->paths[s->npaths];

            *p = key;
            if (!(p->frames = malloc((key.depth ? key.depth : 1) * sizeof(*frames)))) {
                mp_error(img->name, "out of memory summing %zu call paths", s->npaths);
                goto out;
            }
            memcpy(p->frames, frames, key.depth * sizeof(*frames));
            s->path_slots[slot] = ++s->npaths;
        }
        s->paths[s->path_slots[slot] - 1].samples += samples;
    }
    ret = 0;
out:
    free(frames);
    return ret;
}

int mp_sum_add(struct mp_sum *s, const struct mp_image *img)
{
    uint32_t i, b;
    unsigned r;

    if (s->snapshots == 0) {
        s->first = *img;
        s->first.data = NULL;
        for (r = 0; r < img->nranges; r++) {
            s->bins[r] = calloc(img->ranges[r].nbins ? img->ranges[r].nbins : 1, sizeof(uint64_t));
            if (!s->bins[r])
                return mp_error(img->name, "out of memory for %" PRIu32 " bins", img->ranges[r].nbins);
        }
    } else if (same_geometry(s, img) < 0) {
        return -1;
    }
    for (i = 1; i <= img->arcs_used; i++) {
        struct mp_arc a;

        mp_image_arc(img, i, &a);
        if (a.count == UINT32_MAX)
            s->saturated_arcs++;
        if (add_arc(s, &a) < 0)
            return -1;
    }
    for (r = 0; r < img->nranges; r++) {
        for (b = 0; b < img->ranges[r].nbins; b++)
            s->bins[r][b] += mp_image_bin(img, r, b);
        mp_image_spill_add(img, r, s->bins[r]); /* the carries: the sum's 4-byte bins hold them */
    }
    if (add_contexts(s, img) < 0 || add_tasks(s, img) < 0 || add_paths(s, img) < 0 || add_timing(s, img) < 0)
        return -1;
    for (i = 0; i < MP_LOST_COUNT; i++)
        s->lost[i] += img->lost[i];
    s->samples_taken += img->samples_taken;
    s->missed_periods += img->missed_periods;
    s->arc_table_repairs += img->arc_table_repairs;
    /* The timing fields describe the sampler, not a count: keep the last
     * image's (a drain run may start the sampler after the first pull). */
    if (img->timer_period)
        s->first.timer_period = img->timer_period;
    if (img->missed_source)
        s->first.missed_source = img->missed_source;
    if (img->jitter_percent)
        s->first.jitter_percent = img->jitter_percent;
    s->generation = img->generation;
    if (img->sample_rate_hz)
        s->first.sample_rate_hz = img->sample_rate_hz;
    s->snapshots++;
    return 0;
}

static void put16(uint8_t *p, uint16_t v, int big)
{
    p[big ? 1 : 0] = (uint8_t)v;
    p[big ? 0 : 1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v, int big)
{
    put16(p + (big ? 2 : 0), (uint16_t)v, big);
    put16(p + (big ? 0 : 2), (uint16_t)(v >> 16), big);
}

static void put64(uint8_t *p, uint64_t v, int big)
{
    put32(p + (big ? 4 : 0), (uint32_t)v, big);
    put32(p + (big ? 0 : 4), (uint32_t)(v >> 32), big);
}

static void put_ptr(uint8_t *p, uint64_t v, unsigned size, int big)
{
    if (size == 8)
        put64(p, v, big);
    else
        put32(p, (uint32_t)v, big);
}

static uint32_t clamp32(uint64_t v)
{
    return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

#define OFF(field) offsetof(struct mcuprof_header, field)
#define EXT(field) offsetof(struct mcuprof_ext, field)

static void put_ext_header(uint8_t *p, uint16_t kind, uint16_t entry_size, size_t n, uint64_t lost,
                           uint64_t invalid, int big)
{
    put16(p + EXT(kind), kind, big);
    put16(p + EXT(entry_size), entry_size, big);
    put32(p + EXT(size), (uint32_t)(sizeof(struct mcuprof_ext) + n * entry_size), big);
    put32(p + EXT(capacity), (uint32_t)n, big);
    put32(p + EXT(used), (uint32_t)n, big);
    put32(p + EXT(lost), clamp32(lost), big);
    put32(p + EXT(invalid), clamp32(invalid), big);
}

static unsigned path_entry_size(const struct mp_sum *s)
{
    return (unsigned)sizeof(struct mcuprof_task_path) + s->path_depth_max * s->first.ptr_size;
}

/* Bytes of the summed path table: a multiple of 8, as every table is. */
static uint64_t path_table_size(const struct mp_sum *s)
{
    return (sizeof(struct mcuprof_ext) + (uint64_t)s->npaths * path_entry_size(s) + 7) / 8 * 8;
}

/* The summed path table at P: frames as recorded, samples clamped like
 * every count of the image (a sum above 2^32 - 1 only with samples_taken
 * saturated too, which the reader then does not check against). */
static void put_paths(const struct mp_sum *s, uint8_t *p, int big)
{
    unsigned entry = path_entry_size(s), k;
    size_t i;

    put_ext_header(p, MCUPROF_EXT_TASK_PATHS, (uint16_t)entry, s->npaths, s->paths_lost, s->paths_invalid, big);
    put32(p + EXT(size), (uint32_t)path_table_size(s), big);
    for (i = 0, p += sizeof(struct mcuprof_ext); i < s->npaths; i++, p += entry) {
        put32(p + offsetof(struct mcuprof_task_path, samples), clamp32(s->paths[i].samples), big);
        put16(p + offsetof(struct mcuprof_task_path, depth), (uint16_t)s->paths[i].depth, big);
        put16(p + offsetof(struct mcuprof_task_path, flags), (uint16_t)s->paths[i].flags, big);
        put32(p + offsetof(struct mcuprof_task_path, context), s->paths[i].context, big);
        put16(p + offsetof(struct mcuprof_task_path, task), (uint16_t)s->paths[i].task, big);
        for (k = 0; k < s->paths[i].depth; k++)
            put_ptr(p + sizeof(struct mcuprof_task_path) + (size_t)k * s->first.ptr_size, s->paths[i].frames[k],
                    s->first.ptr_size, big);
    }
}

/* The summed context and task tables, counts clamped like the header's. */
static void put_ext(const struct mp_sum *s, uint8_t *d, uint64_t ctx_off, uint64_t task_off, int big)
{
    size_t i;

    if (s->has_contexts) {
        uint8_t *p = d + ctx_off;

        put_ext_header(p, MCUPROF_EXT_CONTEXTS, sizeof(struct mcuprof_context), s->ncontexts, s->contexts_lost, 0,
                       big);
        for (i = 0, p += sizeof(struct mcuprof_ext); i < s->ncontexts; i++, p += sizeof(struct mcuprof_context)) {
            put32(p + offsetof(struct mcuprof_context, key), s->contexts[i].key, big);
            put32(p + offsetof(struct mcuprof_context, samples), clamp32(s->contexts[i].samples), big);
        }
    }
    if (s->has_tasks) {
        uint8_t *p = d + task_off;

        put_ext_header(p, MCUPROF_EXT_TASKS, sizeof(struct mcuprof_task), s->ntasks, s->tasks_lost,
                       s->tasks_invalid, big);
        for (i = 0, p += sizeof(struct mcuprof_ext); i < s->ntasks; i++, p += sizeof(struct mcuprof_task)) {
            put64(p + offsetof(struct mcuprof_task, handle), s->tasks[i].handle, big);
            put32(p + offsetof(struct mcuprof_task, samples), clamp32(s->tasks[i].samples), big);
            put32(p + offsetof(struct mcuprof_task, flags), s->tasks[i].flags, big);
            memcpy(p + offsetof(struct mcuprof_task, name), s->tasks[i].name, MCUPROF_TASK_NAME_MAX);
        }
    }
}

/* Bytes of the summed late-sample and blocker tables. */
static uint64_t timing_size(const struct mp_sum_timing *t)
{
    uint64_t size = 0;

    if (t->has_late)
        size += sizeof(struct mcuprof_ext) + t->nlate * sizeof(struct mcuprof_late);
    if (t->has_blockers)
        size += (sizeof(struct mcuprof_ext) + t->nblockers * sizeof(struct mcuprof_blocker) + 7) / 8 * 8;
    if (t->has_held)
        size += sizeof(struct mcuprof_ext) + sizeof(struct mcuprof_held);
    return size;
}

/* The summed timing tables at P, counts clamped like the header's. */
static void put_timing(const struct mp_sum_timing *t, uint8_t *p, int big)
{
    size_t i;

    if (t->has_late) {
        put_ext_header(p, MCUPROF_EXT_LATE, sizeof(struct mcuprof_late), t->nlate, t->late_lost, 0, big);
        for (i = 0, p += sizeof(struct mcuprof_ext); i < t->nlate; i++, p += sizeof(struct mcuprof_late)) {
            put64(p + offsetof(struct mcuprof_late, pc), t->late[i].pc, big);
            put32(p + offsetof(struct mcuprof_late, samples), clamp32(t->late[i].samples), big);
            put32(p + offsetof(struct mcuprof_late, missed), clamp32(t->late[i].missed), big);
        }
    }
    if (t->has_blockers) {
        uint64_t size = (sizeof(struct mcuprof_ext) + t->nblockers * sizeof(struct mcuprof_blocker) + 7) / 8 * 8;

        put_ext_header(p, MCUPROF_EXT_BLOCKERS, sizeof(struct mcuprof_blocker), t->nblockers, t->blockers_lost, 0,
                       big);
        put32(p + EXT(size), (uint32_t)size, big);
        for (i = 0, p += sizeof(struct mcuprof_ext); i < t->nblockers; i++, p += sizeof(struct mcuprof_blocker)) {
            put32(p + offsetof(struct mcuprof_blocker, source), t->blockers[i].source, big);
            p[offsetof(struct mcuprof_blocker, priority)] = (uint8_t)t->blockers[i].priority;
            p[offsetof(struct mcuprof_blocker, sampler_priority)] = (uint8_t)t->blockers[i].sampler_priority;
            put16(p + offsetof(struct mcuprof_blocker, flags), (uint16_t)t->blockers[i].flags, big);
        }
        p += size - sizeof(struct mcuprof_ext) - t->nblockers * sizeof(struct mcuprof_blocker);
    }
    if (t->has_held) {
        put_ext_header(p, MCUPROF_EXT_HELD, sizeof(struct mcuprof_held), 1, 0, 0, big);
        p += sizeof(struct mcuprof_ext);
        put32(p + offsetof(struct mcuprof_held, samples), clamp32(t->held_samples), big);
        put32(p + offsetof(struct mcuprof_held, periods), clamp32(t->held_periods), big);
        put32(p + offsetof(struct mcuprof_held, threshold), t->held_threshold, big);
        put32(p + offsetof(struct mcuprof_held, scans), clamp32(t->held_scans), big);
    }
}

int mp_sum_image(const struct mp_sum *s, uint8_t **data, size_t *len)
{
    const struct mp_image *f = &s->first;
    unsigned rec = f->ptr_size == 8 ? MCUPROF_ARC64_SIZE : MCUPROF_ARC32_SIZE;
    unsigned count_off = f->ptr_size == 8 ? MCUPROF_ARC64_OFF_COUNT : MCUPROF_ARC32_OFF_COUNT;
    uint64_t records = 0, size, hist_off[MCUPROF_MAX_RANGES];
    uint64_t arcs_off = MCUPROF_HEADER_SIZE, links_off, buckets_off, ctx_off, task_off, path_off, timing_off, end_off;
    uint64_t ext_off;
    uint8_t *d, *p;
    size_t i;
    unsigned r;
    uint32_t b;
    int big = f->big;

    if (s->snapshots == 0)
        return mp_error(NULL, "no snapshot to write");
    for (i = 0; i < s->cap; i++) {
        if (s->used[i])
            records += s->arcs[i].count ? (s->arcs[i].count - 1) / MP_SUM_ARC_CHUNK + 1 : 1;
    }
    /* Record links are uint16 word offsets in the format. */
    if (records * (rec / 4) > UINT16_MAX)
        return mp_error(NULL, "%" PRIu64 " arc records in the sum: more than one image holds (%u)",
                        records, (unsigned)(UINT16_MAX / (rec / 4)));
    /* No chains: the host never follows them; links and the one bucket stay
     * zero (empty). */
    links_off = arcs_off + (records + 1) * rec;
    buckets_off = links_off + ((records + 1) * 2 + 3) / 4 * 4;
    size = buckets_off + 4; /* one bucket, padded to 4 */
    size = (size + 7) / 8 * 8;
    ext_off = size; /* the tables follow each other from here */
    ctx_off = s->has_contexts ? size : 0;
    if (s->has_contexts)
        size += sizeof(struct mcuprof_ext) + s->ncontexts * sizeof(struct mcuprof_context);
    task_off = s->has_tasks ? size : 0;
    if (s->has_tasks)
        size += sizeof(struct mcuprof_ext) + s->ntasks * sizeof(struct mcuprof_task);
    path_off = s->has_paths ? size : 0;
    if (s->has_paths)
        size += path_table_size(s);
    timing_off = size;
    size += timing_size(&s->timing);
    end_off = size;
    if (end_off > ext_off)
        size += sizeof(struct mcuprof_ext);
    for (r = 0; r < f->nranges; r++) {
        hist_off[r] = size;
        size += (uint64_t)f->ranges[r].nbins * 4;
    }
    if (size > UINT32_MAX)
        return mp_error(NULL, "the summed image would exceed 4 GiB");
    d = calloc(1, (size_t)size);
    if (!d)
        return mp_error(NULL, "out of memory for a %" PRIu64 "-byte image", size);

    memcpy(d + OFF(magic), big ? MCUPROF_IMAGE_MAGIC_BE : MCUPROF_IMAGE_MAGIC_LE, 4);
    put16(d + OFF(version), MCUPROF_IMAGE_VERSION, big);
    d[OFF(byte_order)] = big ? MCUPROF_ORDER_BIG : MCUPROF_ORDER_LITTLE;
    d[OFF(ptr_size)] = (uint8_t)f->ptr_size;
    put16(d + OFF(machine), f->machine, big);
    put16(d + OFF(header_size), MCUPROF_HEADER_SIZE, big);
    put32(d + OFF(image_size), (uint32_t)size, big);
    put64(d + OFF(image_addr), f->image_addr, big);
    put32(d + OFF(arcs_offset), (uint32_t)arcs_off, big);
    put32(d + OFF(arcs_capacity), (uint32_t)records, big);
    put32(d + OFF(arcs_used), (uint32_t)records, big);
    put16(d + OFF(arc_record_size), (uint16_t)rec, big);
    put16(d + OFF(hash_shift), f->hash_shift, big);
    put32(d + OFF(buckets_offset), (uint32_t)buckets_off, big);
    put32(d + OFF(nbuckets), 1, big);
    put32(d + OFF(links_offset), (uint32_t)links_off, big);
    put32(d + OFF(sample_rate_hz), f->sample_rate_hz, big);
    d[OFF(bin_shift)] = f->bin_shift;
    d[OFF(counter_bytes)] = 4;
    d[OFF(nranges)] = f->nranges;
    d[OFF(build_id_len)] = f->build_id_len;
    memcpy(d + OFF(build_id), f->build_id, f->build_id_len);
    for (r = 0; r < f->nranges; r++) {
        uint8_t *rg = d + OFF(ranges) + r * sizeof(struct mcuprof_range);

        put64(rg + offsetof(struct mcuprof_range, low), f->ranges[r].low, big);
        put64(rg + offsetof(struct mcuprof_range, high), f->ranges[r].high, big);
        put32(rg + offsetof(struct mcuprof_range, hist_offset), (uint32_t)hist_off[r], big);
        put32(rg + offsetof(struct mcuprof_range, nbins), f->ranges[r].nbins, big);
        for (b = 0; b < f->ranges[r].nbins; b++)
            put32(d + hist_off[r] + 4 * (uint64_t)b, clamp32(s->bins[r][b]), big);
    }
    put32(d + OFF(generation), s->generation, big);
    put32(d + OFF(lost_arcs_table_full), clamp32(s->lost[MP_LOST_ARCS_TABLE_FULL]), big);
    put32(d + OFF(lost_calls_reentrant), clamp32(s->lost[MP_LOST_CALLS_REENTRANT]), big);
    put32(d + OFF(lost_calls_frozen), clamp32(s->lost[MP_LOST_CALLS_FROZEN]), big);
    put32(d + OFF(lost_samples_out_of_range), clamp32(s->lost[MP_LOST_SAMPLES_OUT_OF_RANGE]), big);
    put32(d + OFF(lost_samples_saturated), clamp32(s->lost[MP_LOST_SAMPLES_SATURATED]), big);
    put32(d + OFF(lost_samples_frozen), clamp32(s->lost[MP_LOST_SAMPLES_FROZEN]), big);
    put32(d + OFF(samples_taken), clamp32(s->samples_taken), big);
    put32(d + OFF(missed_periods), clamp32(s->missed_periods), big);
    put32(d + OFF(arc_table_repairs), clamp32(s->arc_table_repairs), big);
    put32(d + OFF(timer_period), f->timer_period, big);
    d[OFF(missed_source)] = f->missed_source;
    d[OFF(jitter_percent)] = f->jitter_percent;
    put16(d + OFF(timing_flags), (uint16_t)s->timing.flags, big);
    put32(d + OFF(deferred_samples), clamp32(s->timing.deferred_samples), big);
    if (end_off > ext_off) {
        put32(d + OFF(ext_offset), (uint32_t)ext_off, big);
        put_ext(s, d, ctx_off, task_off, big);
        if (s->has_paths)
            put_paths(s, d + path_off, big);
        put_timing(&s->timing, d + timing_off, big);
        /* the end marker after end_off stays zero: kind MCUPROF_EXT_END */
    }

    /* Record 0 stays the zero sentinel; the arcs follow, each count cut
     * into pieces gprof adds back together. */
    p = d + arcs_off + rec;
    for (i = 0; i < s->cap; i++) {
        uint64_t left;

        if (!s->used[i])
            continue;
        left = s->arcs[i].count;
        do {
            uint32_t piece = left > MP_SUM_ARC_CHUNK ? MP_SUM_ARC_CHUNK : (uint32_t)left;

            put_ptr(p, s->arcs[i].frompc, f->ptr_size, big);
            put_ptr(p + f->ptr_size, s->arcs[i].selfpc, f->ptr_size, big);
            put32(p + count_off, piece, big);
            p += rec;
            left -= piece;
        } while (left > 0);
    }
    *data = d;
    *len = (size_t)size;
    return 0;
}

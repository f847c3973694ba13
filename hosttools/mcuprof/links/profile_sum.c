#include "profile_sum.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "diag.h"
#include "grow.h"
#include "net.h"

/* ---- keyed tables (profile_sum.h: bounded by design) ----------------- */

/* The finaliser of MurmurHash3: every bit of V moves every bit out. */
static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v;
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDu;
    h ^= h >> 33;
    h *= 0xC4CEB9FE1A85EC53u;
    return h ^ h >> 33;
}

/* One keyed table: its entries (SIZE bytes each) in the order first
 * seen, their count and room, its index; HASH hashes an entry's key from
 * the seed, SAME says whether an entry has the key of another. */
struct table {
    void **items;
    size_t *n, *cap, size;
    struct mp_sum_index *index;
    uint64_t (*hash)(uint64_t seed, const void *entry);
    int (*same)(const void *entry, const void *key);
};

#define TABLE(items, n, cap, index, hash, same) \
    ((struct table){(void **)(items), (n), (cap), sizeof(**(items)), (index), (hash), (same)})

static const void *entry_at(const struct table *t, size_t i)
{
    return (const char *)*t->items + i * t->size;
}

/* The entry with KEY's key: its index, or *t->n if there is none, and
 * then *SLOT is the free slot where it goes. */
static size_t table_find(const struct table *t, uint64_t seed, const void *key, size_t *slot)
{
    size_t mask = t->index->cap - 1, i;

    if (t->index->cap == 0)
        return *t->n;
    for (i = (size_t)t->hash(seed, key) & mask;; i = (i + 1) & mask) {
        size_t e = t->index->slots[i];

        if (e == 0) {
            *slot = i;
            return *t->n;
        }
        if (t->same(entry_at(t, e - 1), key))
            return e - 1;
    }
}

/* Room for one more entry: the array doubled when full, the index
 * rebuilt at twice the size when it would be more than half full. */
static int table_room(const struct table *t, uint64_t seed, const char *name, const char *what)
{
    size_t i, failed, slot;

    if (*t->n == *t->cap && (failed = mp_grow(t->items, t->cap, t->size, 64)) != 0)
        return mp_error(name, "out of memory for %zu %s", failed, what);
    if (2 * (*t->n + 1) > t->index->cap) {
        struct mp_sum_index old = *t->index;
        size_t cap = old.cap ? 2 * old.cap : 128;

        if (!(t->index->slots = calloc(cap, sizeof(size_t)))) {
            *t->index = old;
            return mp_error(name, "out of memory indexing %zu %s", *t->n, what);
        }
        t->index->cap = cap;
        for (i = 0; i < *t->n; i++) {
            table_find(t, seed, entry_at(t, i), &slot);
            t->index->slots[slot] = i + 1;
        }
        free(old.slots);
    }
    return 0;
}

/* ENTRY added at SLOT (from table_find, after table_room); its index. */
static size_t table_insert(const struct table *t, size_t slot, const void *entry)
{
    size_t i = (*t->n)++;

    memcpy((char *)*t->items + i * t->size, entry, t->size);
    t->index->slots[slot] = i + 1;
    return i;
}

/* The entry with KEY's key, a copy of KEY added if there is none: its
 * index, or -1 (reported) when memory runs out. */
static int table_get(const struct table *t, uint64_t seed, const void *key, const char *name, const char *what,
                     size_t *at)
{
    size_t slot = 0;

    if (table_room(t, seed, name, what) < 0)
        return -1;
    *at = table_find(t, seed, key, &slot);
    if (*at == *t->n)
        *at = table_insert(t, slot, key);
    return 0;
}

/* Asked to stop (looked at every 65536 entries of a table)? Then the
 * snapshot is not drained: the error says so. */
static int stopped(const struct mp_sum *s, uint32_t i, const char *name)
{
    if ((i & 0xFFFFu) != 0 || !s->stop || !s->stop())
        return 0;
    return mp_error(name, "interrupted while summing: this snapshot was not drained");
}

static void index_free(struct mp_sum_index *x)
{
    free(x->slots);
    x->slots = NULL;
    x->cap = 0;
}

/* A seed no input can know: the time of day, the monotonic clock to the
 * microsecond and where the sum lives (timespec_get is missing from
 * Windows' msvcrt). */
void mp_sum_init(struct mp_sum *s)
{
    memset(s, 0, sizeof(*s));
    s->seed = mix(mix((uint64_t)time(NULL), mp_now_us()), (uint64_t)(uintptr_t)s);
}

void mp_sum_free(struct mp_sum *s)
{
    unsigned r;
    size_t i;

    for (r = 0; r < MCUPROF_MAX_RANGES; r++)
        free(s->bins[r]);
    free(s->arcs);
    free(s->contexts);
    free(s->tasks);
    for (i = 0; i < s->npaths; i++)
        free(s->paths[i].frames);
    free(s->paths);
    free(s->task_map);
    free(s->timing.late);
    free(s->timing.blockers);
    index_free(&s->arc_index);
    index_free(&s->context_index);
    index_free(&s->task_index);
    index_free(&s->path_index);
    index_free(&s->timing.late_index);
    index_free(&s->timing.blocker_index);
    mp_sum_init(s);
}

/* ---- arcs, by (frompc, selfpc) --------------------------------------- */

static uint64_t arc_hash(uint64_t seed, const void *e)
{
    const struct mp_sum_arc *a = e;

    return mix(mix(seed, a->frompc), a->selfpc);
}

static int arc_same(const void *e, const void *k)
{
    const struct mp_sum_arc *a = e, *b = k;

    return a->frompc == b->frompc && a->selfpc == b->selfpc;
}

static struct table arc_table(const struct mp_sum *s)
{
    struct mp_sum *m = (struct mp_sum *)(uintptr_t)s; /* lookups only read it */

    return TABLE(&m->arcs, &m->narcs, &m->arcs_cap, &m->arc_index, arc_hash, arc_same);
}

static int add_arc(struct mp_sum *s, const struct mp_arc *a, const char *name)
{
    const struct mp_sum_arc key = {a->frompc, a->selfpc, 0};
    struct table t = arc_table(s);
    size_t i;

    if (table_get(&t, s->seed, &key, name, "arcs", &i) < 0)
        return -1;
    /* 2^64 calls would take millennia at any clock rate: no overflow. */
    s->arcs[i].count += a->count;
    return 0;
}

uint64_t mp_sum_arc_count(const struct mp_sum *s, uint64_t frompc, uint64_t selfpc)
{
    const struct mp_sum_arc key = {frompc, selfpc, 0};
    struct table t = arc_table(s);
    size_t slot, i = table_find(&t, s->seed, &key, &slot);

    return i < s->narcs ? s->arcs[i].count : 0;
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

/* ---- contexts by key, tasks by handle and name ----------------------- */

static uint64_t context_hash(uint64_t seed, const void *e)
{
    return mix(seed, ((const struct mp_sum_context *)e)->key);
}

static int context_same(const void *e, const void *k)
{
    return ((const struct mp_sum_context *)e)->key == ((const struct mp_sum_context *)k)->key;
}

static int add_contexts(struct mp_sum *s, const struct mp_image *img)
{
    struct table t = TABLE(&s->contexts, &s->ncontexts, &s->contexts_cap, &s->context_index, context_hash,
                           context_same);
    uint32_t i, used;

    if (img->contexts < 0)
        return 0;
    s->has_contexts = 1;
    s->contexts_lost += img->ext[img->contexts].lost;
    used = img->ext[img->contexts].used;
    for (i = 0; i < used; i++) {
        struct mp_sum_context key = {0, 0};
        uint32_t samples;
        size_t k;

        if (stopped(s, i, img->name) < 0)
            return -1;
        mp_image_context(img, i, &key.key, &samples);
        if (table_get(&t, s->seed, &key, img->name, "contexts", &k) < 0)
            return -1;
        s->contexts[k].samples += samples;
    }
    return 0;
}

_Static_assert(MCUPROF_TASK_NAME_MAX % 8 == 0, "a task's name is hashed in 8-byte words");

static uint64_t task_hash(uint64_t seed, const void *e)
{
    const struct mp_sum_task *t = e;
    uint64_t h = mix(seed, t->handle), w;
    unsigned i;

    for (i = 0; i < MCUPROF_TASK_NAME_MAX; i += sizeof(w)) {
        memcpy(&w, t->name + i, sizeof(w));
        h = mix(h, w);
    }
    return h;
}

static int task_same(const void *e, const void *k)
{
    const struct mp_sum_task *a = e, *b = k;

    return a->handle == b->handle && memcmp(a->name, b->name, MCUPROF_TASK_NAME_MAX) == 0;
}

/* Task entries by handle and name: a handle reused by another task (the
 * runtime forgets nothing, but a reset firmware may) stays apart. */
static int add_tasks(struct mp_sum *s, const struct mp_image *img)
{
    struct table t = TABLE(&s->tasks, &s->ntasks, &s->tasks_cap, &s->task_index, task_hash, task_same);
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
        struct mp_sum_task key;
        uint32_t samples, flags;
        size_t k;

        if (stopped(s, i, img->name) < 0)
            return -1;
        memset(&key, 0, sizeof(key));
        mp_image_task(img, i, &key.handle, &samples, &flags, name);
        /* as strncmp compared them: what follows a NUL is not the name */
        memcpy(key.name, name, strlen(name));
        if (table_get(&t, s->seed, &key, img->name, "tasks", &k) < 0)
            return -1;
        s->tasks[k].samples += samples;
        s->tasks[k].flags |= flags;
        s->task_map[i] = (uint32_t)k;
    }
    return 0;
}

/* ---- the sampler's timing: late samples by PC, blockers by source ---- */

static uint64_t late_hash(uint64_t seed, const void *e)
{
    return mix(seed, ((const struct mp_sum_late *)e)->pc);
}

static int late_same(const void *e, const void *k)
{
    return ((const struct mp_sum_late *)e)->pc == ((const struct mp_sum_late *)k)->pc;
}

static int add_late(const struct mp_sum *s, struct mp_sum_timing *tm, uint64_t seed, const struct mp_image *img)
{
    struct table t = TABLE(&tm->late, &tm->nlate, &tm->late_cap, &tm->late_index, late_hash, late_same);
    uint32_t i;

    tm->has_late = 1;
    tm->late_lost += img->ext[img->late].lost;
    for (i = 0; i < img->ext[img->late].used; i++) {
        struct mp_sum_late key = {0, 0, 0};
        uint32_t samples, missed;
        size_t k;

        if (stopped(s, i, img->name) < 0)
            return -1;
        mp_image_late(img, i, &key.pc, &samples, &missed);
        if (!samples) /* drained: nothing since */
            continue;
        if (table_get(&t, seed, &key, img->name, "late-sample PCs", &k) < 0)
            return -1;
        tm->late[k].samples += samples;
        tm->late[k].missed += missed;
    }
    return 0;
}

static uint64_t blocker_hash(uint64_t seed, const void *e)
{
    return mix(seed, ((const struct mp_sum_blocker *)e)->source);
}

static int blocker_same(const void *e, const void *k)
{
    return ((const struct mp_sum_blocker *)e)->source == ((const struct mp_sum_blocker *)k)->source;
}

/* The last snapshot's priorities, the flags of any. */
static int add_blockers(struct mp_sum_timing *tm, uint64_t seed, const struct mp_image *img)
{
    struct table t = TABLE(&tm->blockers, &tm->nblockers, &tm->blockers_cap, &tm->blocker_index, blocker_hash,
                           blocker_same);
    uint32_t i;

    tm->has_blockers = 1;
    tm->blockers_lost += img->ext[img->blockers].lost;
    for (i = 0; i < img->ext[img->blockers].used; i++) {
        struct mp_sum_blocker b;
        size_t k;

        mp_image_blocker(img, i, &b.source, &b.priority, &b.sampler_priority, &b.flags);
        if (table_get(&t, seed, &b, img->name, "blockers", &k) < 0)
            return -1;
        b.flags |= tm->blockers[k].flags;
        tm->blockers[k] = b;
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
    if (img->late >= 0 && add_late(s, t, s->seed, img) < 0)
        return -1;
    return img->blockers >= 0 ? add_blockers(t, s->seed, img) : 0;
}

/* ---- call paths, by (frames, flags, task, context) ------------------- */

static uint64_t path_hash(uint64_t seed, const void *e)
{
    const struct mp_sum_path *k = e;
    uint64_t h = mix(seed, (uint64_t)k->depth << 16 | k->flags);
    unsigned i;

    h = mix(h, (uint64_t)k->task << 32 | k->context);
    for (i = 0; i < k->depth; i++)
        h = mix(h, k->frames[i]);
    return h;
}

static int path_same(const void *e, const void *k)
{
    const struct mp_sum_path *p = e, *q = k;

    return p->depth == q->depth && p->flags == q->flags && p->task == q->task && p->context == q->context &&
           memcmp(p->frames, q->frames, p->depth * sizeof(*p->frames)) == 0;
}

static struct table path_table(const struct mp_sum *s)
{
    struct mp_sum *m = (struct mp_sum *)(uintptr_t)s; /* lookups only read it */

    return TABLE(&m->paths, &m->npaths, &m->paths_cap, &m->path_index, path_hash, path_same);
}

uint64_t mp_sum_path_samples(const struct mp_sum *s, const struct mp_sum_path *key)
{
    struct table t = path_table(s);
    size_t slot, i = table_find(&t, s->seed, key, &slot);

    return i < s->npaths ? s->paths[i].samples : 0;
}

/* Paths with samples, added by their frames as recorded and their task
 * as the summed task table numbers it (add_tasks() ran first); a drained
 * table keeps its paths with no samples, which add nothing. */
static int add_paths(struct mp_sum *s, const struct mp_image *img)
{
    struct table t = path_table(s);
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
        size_t slot = 0, at;

        if (stopped(s, i, img->name) < 0)
            goto out;
        mp_image_path(img, i, &samples, &key.depth, &key.flags);
        if (!samples)
            continue;
        mp_image_path_key(img, i, &key.task, &key.context);
        if (key.task != MCUPROF_PATH_NO_TASK) /* an entry of its image's table (image_ext.c) */
            key.task = s->task_map[key.task];
        for (k = 0; k < key.depth; k++)
            frames[k] = mp_image_path_frame(img, i, k);
        if (table_room(&t, s->seed, img->name, "call paths") < 0)
            goto out;
        at = table_find(&t, s->seed, &key, &slot);
        if (at == s->npaths) { /* a new path keeps a copy of its frames */
            if (!(key.frames = malloc((key.depth ? key.depth : 1) * sizeof(*frames)))) {
                mp_error(img->name, "out of memory summing %zu call paths", s->npaths);
                goto out;
            }
            memcpy(key.frames, frames, key.depth * sizeof(*frames));
            at = table_insert(&t, slot, &key);
        }
        s->paths[at].samples += samples;
    }
    ret = 0;
out:
    free(frames);
    return ret;
}

/* ---- the sum ---------------------------------------------------------- */

static uint64_t summed_image_size(const struct mp_sum *s);

int mp_sum_add(struct mp_sum *s, const struct mp_image *img)
{
    uint32_t i, b;
    unsigned r;
    uint64_t size;

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
        if (add_arc(s, &a, img->name) < 0)
            return -1;
    }
    for (r = 0; r < img->nranges; r++) {
        for (b = 0; b < img->ranges[r].nbins; b++)
            s->bins[r][b] += mp_image_bin(img, r, b);
        mp_image_spill_add(img, r, s->bins[r]); /* the carries: the sum's 4-byte bins hold them */
    }
    if (add_contexts(s, img) < 0 || add_tasks(s, img) < 0 || add_paths(s, img) < 0 || add_timing(s, img) < 0)
        return -1;
    if ((size = summed_image_size(s)) > MP_SUM_MAX_IMAGE)
        return mp_error(img->name, "the sum of the snapshots would take %" PRIu64 " bytes, more than %u MiB: "
                                   "its tables get new keys at every pull",
                        size, MP_SUM_MAX_IMAGE >> 20);
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

/* Where everything goes in the summed image. */
struct layout {
    uint64_t records, arcs_off, links_off, buckets_off, ext_off, ctx_off, task_off, path_off, timing_off, end_off;
    uint64_t hist_off[MCUPROF_MAX_RANGES], size;
};

/* Records of the arcs: each count cut into pieces gprof adds back. */
static uint64_t arc_records(const struct mp_sum *s)
{
    uint64_t records = 0;
    size_t i;

    for (i = 0; i < s->narcs; i++)
        records += s->arcs[i].count ? (s->arcs[i].count - 1) / MP_SUM_ARC_CHUNK + 1 : 1;
    return records;
}

static void lay_out(const struct mp_sum *s, struct layout *l)
{
    const struct mp_image *f = &s->first;
    unsigned rec = f->ptr_size == 8 ? MCUPROF_ARC64_SIZE : MCUPROF_ARC32_SIZE, r;
    uint64_t size;

    l->records = arc_records(s);
    l->arcs_off = MCUPROF_HEADER_SIZE;
    /* No chains: the host never follows them; links and the one bucket stay
     * zero (empty). */
    l->links_off = l->arcs_off + (l->records + 1) * rec;
    l->buckets_off = l->links_off + ((l->records + 1) * 2 + 3) / 4 * 4;
    size = l->buckets_off + 4; /* one bucket, padded to 4 */
    size = (size + 7) / 8 * 8;
    l->ext_off = size; /* the tables follow each other from here */
    l->ctx_off = s->has_contexts ? size : 0;
    if (s->has_contexts)
        size += sizeof(struct mcuprof_ext) + s->ncontexts * sizeof(struct mcuprof_context);
    l->task_off = s->has_tasks ? size : 0;
    if (s->has_tasks)
        size += sizeof(struct mcuprof_ext) + s->ntasks * sizeof(struct mcuprof_task);
    l->path_off = s->has_paths ? size : 0;
    if (s->has_paths)
        size += path_table_size(s);
    l->timing_off = size;
    size += timing_size(&s->timing);
    l->end_off = size;
    if (l->end_off > l->ext_off)
        size += sizeof(struct mcuprof_ext);
    for (r = 0; r < f->nranges; r++) {
        l->hist_off[r] = size;
        size += (uint64_t)f->ranges[r].nbins * 4;
    }
    l->size = size;
}

/* O(arcs): the other tables' sizes are their counts. */
static uint64_t summed_image_size(const struct mp_sum *s)
{
    struct layout l;

    lay_out(s, &l);
    return l.size;
}

int mp_sum_image(const struct mp_sum *s, uint8_t **data, size_t *len)
{
    const struct mp_image *f = &s->first;
    unsigned rec = f->ptr_size == 8 ? MCUPROF_ARC64_SIZE : MCUPROF_ARC32_SIZE;
    unsigned count_off = f->ptr_size == 8 ? MCUPROF_ARC64_OFF_COUNT : MCUPROF_ARC32_OFF_COUNT;
    struct layout l;
    uint64_t size;
    uint8_t *d, *p;
    size_t i;
    unsigned r;
    uint32_t b;
    int big = f->big;

    if (s->snapshots == 0)
        return mp_error(NULL, "no snapshot to write");
    lay_out(s, &l);
    /* Record links are uint16 word offsets in the format. */
    if (l.records * (rec / 4) > UINT16_MAX)
        return mp_error(NULL, "%" PRIu64 " arc records in the sum: more than one image holds (%u)",
                        l.records, (unsigned)(UINT16_MAX / (rec / 4)));
    size = l.size;
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
    put32(d + OFF(arcs_offset), (uint32_t)l.arcs_off, big);
    put32(d + OFF(arcs_capacity), (uint32_t)l.records, big);
    put32(d + OFF(arcs_used), (uint32_t)l.records, big);
    put16(d + OFF(arc_record_size), (uint16_t)rec, big);
    put16(d + OFF(hash_shift), f->hash_shift, big);
    put32(d + OFF(buckets_offset), (uint32_t)l.buckets_off, big);
    put32(d + OFF(nbuckets), 1, big);
    put32(d + OFF(links_offset), (uint32_t)l.links_off, big);
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
        put32(rg + offsetof(struct mcuprof_range, hist_offset), (uint32_t)l.hist_off[r], big);
        put32(rg + offsetof(struct mcuprof_range, nbins), f->ranges[r].nbins, big);
        for (b = 0; b < f->ranges[r].nbins; b++)
            put32(d + l.hist_off[r] + 4 * (uint64_t)b, clamp32(s->bins[r][b]), big);
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
    if (l.end_off > l.ext_off) {
        put32(d + OFF(ext_offset), (uint32_t)l.ext_off, big);
        put_ext(s, d, l.ctx_off, l.task_off, big);
        if (s->has_paths)
            put_paths(s, d + l.path_off, big);
        put_timing(&s->timing, d + l.timing_off, big);
        /* the end marker after l.end_off stays zero: kind MCUPROF_EXT_END */
    }

    /* Record 0 stays the zero sentinel; the arcs follow, each count cut
     * into pieces gprof adds back together. */
    p = d + l.arcs_off + rec;
    for (i = 0; i < s->narcs; i++) {
        uint64_t left = s->arcs[i].count;

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

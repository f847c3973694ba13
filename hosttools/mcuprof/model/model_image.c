/*
 * model_image.c - a profile model from a validated image (model.h): the
 * bins widened to 64 bits, the arcs with gprof's call-site addresses,
 * every counter and word of the header, and how full its tables are. The
 * one place that reads an image's profile: everything after reads the
 * model.
 */
#include <string.h>

#include "callsite.h"
#include "model.h"

/* The counters as 64-bit counts, a loop per width and byte order so each
 * stays a few instructions a bin: convert reads every bin of an image of
 * any size through here. */
static void widen_bins(uint64_t *d, const uint8_t *p, uint32_t n, unsigned counter_bytes, int big)
{
    uint32_t b;

    if (counter_bytes == 4) {
        for (b = 0; b < n; b++, p += 4)
            d[b] = mp_get32(p, big);
    } else if (big) {
        for (b = 0; b < n; b++, p += 2)
            d[b] = (uint32_t)p[0] << 8 | p[1];
    } else {
        for (b = 0; b < n; b++, p += 2)
            d[b] = (uint32_t)p[1] << 8 | p[0];
    }
}

static int copy_ranges(struct mp_model *m, const struct mp_image *img)
{
    unsigned r;

    m->nranges = img->nranges;
    if (!img->nranges)
        return 0;
    if (!(m->ranges = mp_model_alloc(m, img->nranges * sizeof(*m->ranges))))
        return -1;
    for (r = 0; r < img->nranges; r++) {
        struct mp_model_range *d = &m->ranges[r];
        const struct mp_range *s = &img->ranges[r];

        d->low = s->low;
        d->high = s->high;
        d->nbins = s->nbins;
        d->samples = s->bin_sum;
        d->max_bin = s->bin_max;
        if (!(d->bins = mp_model_alloc(m, (size_t)s->nbins * sizeof(*d->bins))))
            return -1;
        widen_bins(d->bins, img->data + s->hist_offset, s->nbins, img->counter_bytes, img->big);
        mp_image_spill_add(img, r, d->bins); /* bins that passed the counter's maximum */
        m->c.binned += s->bin_sum;
        m->c.saturated_bins += s->bins_saturated;
    }
    return 0;
}

static int copy_arcs(struct mp_model *m, const struct mp_image *img)
{
    uint32_t i;

    m->narcs = img->arcs_used;
    if (!img->arcs_used)
        return 0;
    if (!(m->arcs = mp_model_alloc(m, (size_t)img->arcs_used * sizeof(*m->arcs))))
        return -1;
    for (i = 0; i < img->arcs_used; i++) {
        struct mp_model_arc *d = &m->arcs[i];
        struct mp_arc arc;

        mp_image_arc(img, i + 1, &arc);
        d->callsite = mp_callsite(img->machine, arc.frompc);
        d->callee = mp_selfpc(img->machine, arc.selfpc);
        d->count = arc.count;
        d->saturated = arc.count == UINT32_MAX;
        d->caller = d->callee_fn = -1;
        m->c.total_calls += arc.count;
        m->c.saturated_arcs += d->saturated;
        if (mp_frompc_outside_code(img->machine, arc.frompc)) {
            m->c.outside_arcs++;
            m->c.outside_calls += arc.count;
        }
    }
    return 0;
}

static int copy_contexts(struct mp_model *m, const struct mp_image *img)
{
    const struct mp_ext *e;
    uint32_t i;

    if (img->contexts < 0)
        return 0;
    e = &img->ext[img->contexts];
    m->has_contexts = 1;
    m->contexts_lost = e->lost;
    m->ncontexts = e->used;
    if (!(m->contexts = mp_model_alloc(m, (e->used ? e->used : 1) * sizeof(*m->contexts))))
        return -1;
    for (i = 0; i < e->used; i++) {
        uint32_t key, samples;

        mp_image_context(img, i, &key, &samples);
        m->contexts[i].key = key;
        m->contexts[i].samples = samples;
    }
    return 0;
}

static int copy_tasks(struct mp_model *m, const struct mp_image *img)
{
    const struct mp_ext *e;
    uint32_t i;

    if (img->tasks < 0)
        return 0;
    e = &img->ext[img->tasks];
    m->has_tasks = 1;
    m->tasks_lost = e->lost;
    m->tasks_invalid = e->invalid;
    m->ntasks = e->used;
    if (!(m->tasks = mp_model_alloc(m, (e->used ? e->used : 1) * sizeof(*m->tasks))))
        return -1;
    for (i = 0; i < e->used; i++) {
        char name[MCUPROF_TASK_NAME_MAX + 1];
        uint32_t samples, flags;

        mp_image_task(img, i, &m->tasks[i].handle, &samples, &flags, name);
        m->tasks[i].samples = samples;
        m->tasks[i].deleted = (flags & MCUPROF_TASK_DELETED) != 0;
        if (!(m->tasks[i].name = mp_model_strdup(m, name)))
            return -1;
    }
    return 0;
}

/* The paths with samples: a drained table keeps its paths with their
 * counts zeroed, and a path nobody sampled since says nothing. Frames are
 * the callee addresses arcs have (Thumb bit cleared). */
static int copy_paths(struct mp_model *m, const struct mp_image *img)
{
    const struct mp_ext *e;
    uint64_t *frames;
    size_t nframes = 0;
    uint32_t i;

    if (img->paths < 0)
        return 0;
    e = &img->ext[img->paths];
    m->has_paths = 1;
    m->tables.paths_used = e->used;
    m->tables.paths_capacity = e->capacity;
    m->tables.path_depth_max = img->path_depth_max;
    m->paths_lost = e->lost;
    m->paths_truncated = e->invalid;
    for (i = 0; i < e->used; i++) {
        unsigned depth, flags;
        uint32_t samples;

        mp_image_path(img, i, &samples, &depth, &flags);
        nframes += samples ? depth : 0;
    }
    if (!(m->paths = mp_model_alloc(m, (e->used ? e->used : 1) * sizeof(*m->paths))) ||
        !(frames = mp_model_alloc(m, (nframes ? nframes : 1) * sizeof(*frames))))
        return -1;
    for (i = 0; i < e->used; i++) {
        struct mp_model_path *d = &m->paths[m->npaths];
        unsigned depth, flags, k;
        uint32_t samples, task;

        mp_image_path(img, i, &samples, &depth, &flags);
        if (!samples)
            continue;
        for (k = 0; k < depth; k++)
            frames[k] = mp_selfpc(img->machine, mp_image_path_frame(img, i, k));
        d->frames = frames;
        d->depth = depth;
        d->flags = flags;
        d->samples = samples;
        mp_image_path_key(img, i, &task, &d->context);
        d->task = task == MCUPROF_PATH_NO_TASK ? -1 : (long)task; /* an entry of the table (image_ext.c) */
        frames += depth;
        m->npaths++;
    }
    return 0;
}

/* How full the spill table is. */
static void copy_spill(struct mp_model_tables *t, const struct mp_image *img)
{
    const struct mp_ext *e;

    if (img->spill < 0)
        return;
    e = &img->ext[img->spill];
    t->has_spill = 1;
    t->spill_used = e->used;
    t->spill_capacity = e->capacity;
    t->spill_lost = e->lost;
    t->spill_samples = img->spill_samples;
}

/* The header's words the rest of the model does not hold. */
static void copy_header(struct mp_model *m, const struct mp_image *img)
{
    struct mp_model_header *h = &m->header;
    unsigned r;

    m->has_header = 1;
    h->image_addr = img->image_addr;
    h->image_size = img->image_size;
    h->header_size = img->header_size;
    h->state = img->state;
    h->freeze_request = img->freeze_request;
    h->freeze_ack = img->freeze_ack;
    h->arcs_offset = img->arcs_offset;
    h->arcs_capacity = img->arcs_capacity;
    h->arcs_used = img->arcs_used;
    h->arc_record_size = img->arc_record_size;
    h->hash_shift = img->hash_shift;
    h->buckets_offset = img->buckets_offset;
    h->nbuckets = img->nbuckets;
    h->links_offset = img->links_offset;
    h->ext_offset = img->ext_offset;
    for (r = 0; r < img->nranges; r++)
        h->hist_offset[r] = img->ranges[r].hist_offset;
}

int mp_model_from_image(struct mp_model *m, const struct mp_image *img)
{
    unsigned i;

    mp_model_init(m, img->name, MP_MODEL_IMAGE);
    m->machine = img->machine;
    m->ptr_size = img->ptr_size;
    m->big = img->big;
    m->image_version = img->version;
    m->build_id_len = img->build_id_len;
    memcpy(m->build_id, img->build_id, img->build_id_len);
    m->sample_rate_hz = img->sample_rate_hz;
    /* Without ranges they describe nothing and the image reader does not
     * check them: unknown, as every output then says. */
    m->bin_shift = img->nranges ? img->bin_shift : 0;
    m->counter_bytes = img->nranges ? img->counter_bytes : 0;
    m->c.samples_taken = img->samples_taken;
    for (i = 0; i < MP_LOST_COUNT; i++)
        m->c.lost[i] = img->lost[i];
    m->c.missed_periods = img->missed_periods;
    m->c.missed_source = img->missed_source;
    m->c.arc_table_repairs = img->arc_table_repairs;
    m->c.timer_period = img->timer_period;
    m->c.jitter_percent = img->jitter_percent;
    m->c.generation = img->generation;
    copy_header(m, img);
    copy_spill(&m->tables, img);
    if (copy_ranges(m, img) < 0 || copy_arcs(m, img) < 0 || copy_contexts(m, img) < 0 ||
        copy_tasks(m, img) < 0 || copy_paths(m, img) < 0 || mp_model_timing_from_image(m, img) < 0) {
        mp_model_free(m);
        return -1;
    }
    return 0;
}

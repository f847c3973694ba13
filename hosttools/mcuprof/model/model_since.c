/*
 * model_since.c - the later model of a running target minus an earlier
 * one (model_since.h).
 *
 * Everything is checked before anything is changed: a count that went
 * down anywhere leaves END as it was read. Keyed tables (contexts by key,
 * tasks by handle and name, paths by frames, flags, task and context)
 * are matched through a sorted copy of START's entries, so an interval
 * costs n log n in the entries whatever their order.
 */
#include "model_since.h"

#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "model_probe.h"
#include "sort.h"

static int cmp_context(const void *pa, const void *pb)
{
    const struct mp_model_context *a = pa, *b = pb;

    return a->key < b->key ? -1 : a->key > b->key;
}

static int cmp_task(const void *pa, const void *pb)
{
    const struct mp_model_task *a = pa, *b = pb;

    if (a->handle != b->handle)
        return a->handle < b->handle ? -1 : 1;
    return strcmp(a->name, b->name);
}

static int cmp_path(const void *pa, const void *pb)
{
    const struct mp_model_path *a = pa, *b = pb;
    unsigned k;

    if (a->depth != b->depth)
        return a->depth < b->depth ? -1 : 1;
    if (a->flags != b->flags)
        return a->flags < b->flags ? -1 : 1;
    if (a->task != b->task)
        return a->task < b->task ? -1 : 1;
    if (a->context != b->context)
        return a->context < b->context ? -1 : 1;
    for (k = 0; k < a->depth; k++)
        if (a->frames[k] != b->frames[k])
            return a->frames[k] < b->frames[k] ? -1 : 1;
    return 0;
}

/* START's entries of one table, sorted for lookups (in END's arena). */
struct sorted {
    void *items;
    size_t n, size;
    int (*cmp)(const void *, const void *);
};

static int sort_copy(struct mp_model *end, struct sorted *s, const void *items, size_t n, size_t size,
                     int (*cmp)(const void *, const void *))
{
    s->n = n;
    s->size = size;
    s->cmp = cmp;
    s->items = NULL;
    if (n == 0)
        return 0;
    if (!(s->items = mp_model_alloc(end, n * size)))
        return -1;
    memcpy(s->items, items, n * size);
    mp_sort(s->items, n, size, cmp);
    return 0;
}

static const void *find(const struct sorted *s, const void *key)
{
    return mp_bsearch(key, s->items, s->n, s->size, s->cmp);
}

/* The samples of KEY's entry in S, 0 when absent (it came later). The
 * three tables keep their samples at different places. */
static uint64_t context_before(const struct sorted *s, const struct mp_model_context *key)
{
    const struct mp_model_context *c = find(s, key);

    return c ? c->samples : 0;
}

static uint64_t task_before(const struct sorted *s, const struct mp_model_task *key)
{
    const struct mp_model_task *t = find(s, key);

    return t ? t->samples : 0;
}

static uint64_t path_before(const struct sorted *s, const struct mp_model_path *key)
{
    const struct mp_model_path *p = find(s, key);

    return p ? p->samples : 0;
}

/* Every entry of START must be in END with at least its samples: a
 * table that forgot one was emptied. */
static int table_kept(const struct sorted *s, const struct sorted *end, uint64_t (*samples)(const void *))
{
    size_t i;

    for (i = 0; i < s->n; i++) {
        const void *e = (const char *)s->items + i * s->size;

        if (samples(e) && !find(end, e))
            return 0;
    }
    return 1;
}

static uint64_t context_samples(const void *p) { return ((const struct mp_model_context *)p)->samples; }
static uint64_t task_samples(const void *p) { return ((const struct mp_model_task *)p)->samples; }
static uint64_t path_samples(const void *p) { return ((const struct mp_model_path *)p)->samples; }

/* The counters outside the tables, each of which only grows. */
static int counters_grew(const struct mp_model *end, const struct mp_model *start)
{
    const struct mp_model_counters *e = &end->c, *s = &start->c;
    unsigned j;

    for (j = 0; j < MP_LOST_COUNT; j++)
        if (e->lost[j] < s->lost[j])
            return 0;
    return e->samples_taken >= s->samples_taken && e->binned >= s->binned &&
           e->missed_periods >= s->missed_periods && e->deferred_samples >= s->deferred_samples &&
           e->arc_table_repairs >= s->arc_table_repairs && end->held.samples >= start->held.samples &&
           end->held.periods >= start->held.periods && end->contexts_lost >= start->contexts_lost &&
           end->tasks_lost >= start->tasks_lost && end->tasks_invalid >= start->tasks_invalid &&
           end->paths_lost >= start->paths_lost && end->paths_truncated >= start->paths_truncated;
}

static int same_layout(const struct mp_model *end, const struct mp_model *start)
{
    size_t r;

    if (end->nranges != start->nranges || end->machine != start->machine || end->bin_shift != start->bin_shift ||
        end->has_contexts != start->has_contexts || end->has_tasks != start->has_tasks ||
        end->has_paths != start->has_paths)
        return 0;
    for (r = 0; r < end->nranges; r++)
        if (end->ranges[r].low != start->ranges[r].low || end->ranges[r].high != start->ranges[r].high ||
            end->ranges[r].nbins != start->ranges[r].nbins)
            return 0;
    return 1;
}

static int bins_grew(const struct mp_model *end, const struct mp_model *start)
{
    size_t r;
    uint64_t b;

    for (r = 0; r < end->nranges; r++)
        for (b = 0; b < end->ranges[r].nbins; b++)
            if (end->ranges[r].bins[b] < start->ranges[r].bins[b])
                return 0;
    return 1;
}

static void subtract_bins(struct mp_model *end, const struct mp_model *start)
{
    size_t r;
    uint64_t b;

    end->c.binned = 0;
    for (r = 0; r < end->nranges; r++) {
        struct mp_model_range *d = &end->ranges[r];

        d->samples = d->max_bin = 0;
        for (b = 0; b < d->nbins; b++) {
            d->bins[b] -= start->ranges[r].bins[b];
            d->samples += d->bins[b];
            if (d->bins[b] > d->max_bin)
                d->max_bin = d->bins[b];
        }
        end->c.binned += d->samples;
    }
}

/* The sample losses and the sampler's timing counters; the call losses
 * are mp_model_arcs_since's. */
static void subtract_counters(struct mp_model *end, const struct mp_model *start)
{
    unsigned j;

    for (j = MP_LOST_SAMPLES_OUT_OF_RANGE; j < MP_LOST_COUNT; j++)
        end->c.lost[j] -= start->c.lost[j];
    end->c.samples_taken -= start->c.samples_taken;
    end->c.missed_periods -= start->c.missed_periods;
    end->c.deferred_samples -= start->c.deferred_samples;
    end->c.arc_table_repairs -= start->c.arc_table_repairs;
    end->held.samples -= start->held.samples;
    end->held.periods -= start->held.periods;
    end->contexts_lost -= start->contexts_lost;
    end->tasks_lost -= start->tasks_lost;
    end->tasks_invalid -= start->tasks_invalid;
    end->paths_lost -= start->paths_lost;
    end->paths_truncated -= start->paths_truncated;
}

int mp_model_since(struct mp_model *end, const struct mp_model *start)
{
    struct sorted ctx, task, path, ectx, etask, epath;
    size_t i, k;
    int r;

    if (end->c.generation != start->c.generation)
        return MP_SINCE_DRAINED;
    if (!same_layout(end, start))
        return mp_error(end->name, "the image's layout changed between two snapshots: another firmware?");
    if (!counters_grew(end, start) || !bins_grew(end, start))
        return MP_SINCE_WENT_DOWN;
    if (sort_copy(end, &ctx, start->contexts, start->ncontexts, sizeof(*start->contexts), cmp_context) < 0 ||
        sort_copy(end, &task, start->tasks, start->ntasks, sizeof(*start->tasks), cmp_task) < 0 ||
        sort_copy(end, &path, start->paths, start->npaths, sizeof(*start->paths), cmp_path) < 0)
        return -1;
    for (i = 0; i < end->ncontexts; i++)
        if (end->contexts[i].samples < context_before(&ctx, &end->contexts[i]))
            return MP_SINCE_WENT_DOWN;
    for (i = 0; i < end->ntasks; i++)
        if (end->tasks[i].samples < task_before(&task, &end->tasks[i]))
            return MP_SINCE_WENT_DOWN;
    for (i = 0; i < end->npaths; i++)
        if (end->paths[i].samples < path_before(&path, &end->paths[i]))
            return MP_SINCE_WENT_DOWN;
    /* every entry of START still there: END's entries sorted alike (in
     * copies: a path's task is an index into END's task table) */
    if (sort_copy(end, &ectx, end->contexts, end->ncontexts, sizeof(*end->contexts), cmp_context) < 0 ||
        sort_copy(end, &etask, end->tasks, end->ntasks, sizeof(*end->tasks), cmp_task) < 0 ||
        sort_copy(end, &epath, end->paths, end->npaths, sizeof(*end->paths), cmp_path) < 0)
        return -1;
    if (!table_kept(&ctx, &ectx, context_samples) || !table_kept(&task, &etask, task_samples) ||
        !table_kept(&path, &epath, path_samples))
        return MP_SINCE_WENT_DOWN;
    /* the arcs and the call losses: checked, then subtracted */
    r = mp_model_arcs_since(end, start);
    if (r != 0)
        return r < 0 ? -1 : MP_SINCE_WENT_DOWN;
    subtract_bins(end, start);
    subtract_counters(end, start);
    for (i = 0; i < end->ncontexts; i++)
        end->contexts[i].samples -= context_before(&ctx, &end->contexts[i]);
    for (i = 0; i < end->ntasks; i++)
        end->tasks[i].samples -= task_before(&task, &end->tasks[i]);
    /* a path not sampled in the interval is no path of it (as an image's
     * drained entries are left out) */
    for (i = k = 0; i < end->npaths; i++) {
        end->paths[i].samples -= path_before(&path, &end->paths[i]);
        if (end->paths[i].samples)
            end->paths[k++] = end->paths[i];
    }
    end->npaths = k;
    return MP_SINCE_OK;
}

void mp_model_drained(struct mp_model *m)
{
    size_t i;

    for (i = 0; i < m->nranges; i++) {
        memset(m->ranges[i].bins, 0, (size_t)m->ranges[i].nbins * sizeof(*m->ranges[i].bins));
        m->ranges[i].samples = m->ranges[i].max_bin = 0;
    }
    for (i = 0; i < m->ncontexts; i++)
        m->contexts[i].samples = 0;
    for (i = 0; i < m->ntasks; i++)
        m->tasks[i].samples = 0;
    m->narcs = m->npaths = 0;
    memset(m->c.lost, 0, sizeof(m->c.lost));
    m->c.samples_taken = m->c.binned = m->c.missed_periods = m->c.deferred_samples = 0;
    m->c.arc_table_repairs = m->c.total_calls = m->c.outside_calls = m->c.outside_arcs = 0;
    m->c.saturated_arcs = m->c.saturated_bins = 0;
    m->held.samples = m->held.periods = 0;
    m->contexts_lost = m->tasks_lost = m->tasks_invalid = m->paths_lost = m->paths_truncated = 0;
    m->c.generation++;
}

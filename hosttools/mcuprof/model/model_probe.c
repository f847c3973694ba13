/*
 * model_probe.c - a model of probe-sampled PCs and window arcs
 * (model_probe.h).
 */
#include "model_probe.h"

#include <string.h>

#include "arch.h"
#include "sort.h"

int mp_model_probe_ranges(struct mp_model *m, const struct mp_code_range *ranges, size_t n, uint32_t rate_hz)
{
    uint64_t span = 0;
    unsigned shift = MP_PROBE_BIN_SHIFT;
    size_t i;

    for (i = 0; i < n; i++)
        span += ranges[i].high - ranges[i].low + 2;
    while ((span >> shift) > MP_PROBE_BINS_MAX)
        shift++;
    if (!(m->ranges = mp_model_alloc(m, (n ? n : 1) * sizeof(*m->ranges))))
        return -1;
    m->nranges = n;
    for (i = 0; i < n; i++) {
        struct mp_model_range *d = &m->ranges[i];
        uint64_t size = (uint64_t)1 << shift;

        d->low = ranges[i].low & ~(size - 1);
        d->high = (ranges[i].high + size - 1) & ~(size - 1);
        d->nbins = (d->high - d->low) >> shift;
        if (!(d->bins = mp_model_alloc(m, (size_t)d->nbins * sizeof(*d->bins))))
            return -1;
    }
    m->bin_shift = shift;
    m->counter_bytes = 0;
    m->sample_rate_hz = rate_hz;
    /* Nothing the target's own sampler counted describes these bins. */
    memset(m->c.lost + MP_LOST_SAMPLES_OUT_OF_RANGE, 0,
           (MP_LOST_COUNT - MP_LOST_SAMPLES_OUT_OF_RANGE) * sizeof(m->c.lost[0]));
    m->c.samples_taken = m->c.binned = 0;
    m->c.missed_periods = m->c.deferred_samples = m->c.saturated_bins = 0;
    m->c.missed_source = 0;
    m->c.timing_flags = 0;
    m->c.timer_period = 0;
    m->c.jitter_percent = 0;
    m->has_contexts = m->has_tasks = m->has_paths = 0;
    m->has_late = m->has_blockers = m->has_held = 0;
    m->ncontexts = m->ntasks = m->npaths = m->nlate = m->nblockers = 0;
    memset(&m->held, 0, sizeof(m->held));
    memset(&m->tables, 0, sizeof(m->tables));
    /* The header's table offsets are the target's histogram's, not these. */
    m->has_header = 0;
    return 0;
}

int mp_model_probe_add(struct mp_model *m, uint64_t pc)
{
    size_t i;

    pc = mp_code_addr(m->machine, pc);
    m->c.samples_taken++;
    for (i = 0; i < m->nranges; i++) {
        struct mp_model_range *r = &m->ranges[i];

        if (pc >= r->low && pc < r->high) {
            uint64_t *b = &r->bins[(pc - r->low) >> m->bin_shift];

            if (++*b > r->max_bin)
                r->max_bin = *b;
            r->samples++;
            m->c.binned++;
            return 1;
        }
    }
    m->c.lost[MP_LOST_SAMPLES_OUT_OF_RANGE]++;
    return 0;
}

static int cmp_arc(const void *pa, const void *pb)
{
    const struct mp_model_arc *a = pa, *b = pb;

    if (a->callsite != b->callsite)
        return a->callsite < b->callsite ? -1 : 1;
    return a->callee < b->callee ? -1 : a->callee > b->callee;
}

int mp_model_arcs_since(struct mp_model *end, const struct mp_model *start)
{
    struct mp_model_arc *before;
    size_t i, k = 0;
    unsigned j;

    for (j = 0; j < MP_LOST_SAMPLES_OUT_OF_RANGE; j++)
        if (end->c.lost[j] < start->c.lost[j])
            return 1;
    if (start->narcs == 0)
        return 0;
    if (!(before = mp_model_alloc(end, start->narcs * sizeof(*before))))
        return -1;
    memcpy(before, start->arcs, start->narcs * sizeof(*before));
    mp_sort(before, start->narcs, sizeof(*before), cmp_arc);
    /* First only look: a count that went down leaves END untouched. */
    for (i = 0; i < end->narcs; i++) {
        const struct mp_model_arc *s = mp_bsearch(&end->arcs[i], before, start->narcs, sizeof(*before), cmp_arc);

        if (s && s->count > end->arcs[i].count)
            return 1;
    }
    mp_sort(end->arcs, end->narcs, sizeof(*end->arcs), cmp_arc);
    for (i = 0; i < start->narcs; i++)
        if (before[i].count && !mp_bsearch(&before[i], end->arcs, end->narcs, sizeof(*end->arcs), cmp_arc))
            return 1; /* an arc the target forgot: its tables were emptied */
    for (j = 0; j < MP_LOST_SAMPLES_OUT_OF_RANGE; j++)
        end->c.lost[j] -= start->c.lost[j];
    end->c.total_calls = end->c.outside_calls = end->c.outside_arcs = end->c.saturated_arcs = 0;
    for (i = 0; i < end->narcs; i++) {
        struct mp_model_arc a = end->arcs[i];
        const struct mp_model_arc *s = mp_bsearch(&a, before, start->narcs, sizeof(*before), cmp_arc);

        if (s) {
            a.count -= s->count;
            /* saturated at the start: nothing is known of the window */
            a.saturated = a.saturated || s->saturated;
        }
        if (a.count == 0 && !a.saturated)
            continue;
        end->arcs[k++] = a;
        end->c.total_calls += a.count;
        end->c.saturated_arcs += a.saturated;
        if (a.callsite == 0) {
            end->c.outside_arcs++;
            end->c.outside_calls += a.count;
        }
    }
    end->narcs = k;
    return 0;
}

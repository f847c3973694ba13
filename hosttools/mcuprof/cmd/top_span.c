/*
 * top_span.c - an interval's figures and the run's sums (top_span.h).
 */
#include "top_span.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "path_incl.h"
#include "wilson.h"

int top_span_init(struct top_span *s, size_t nfn)
{
    memset(s, 0, sizeof(*s));
    s->nfn = nfn;
    if (!(s->fn = calloc(nfn ? nfn : 1, sizeof(*s->fn))))
        return mp_error(NULL, "top: out of memory for %zu functions", nfn);
    return 0;
}

void top_span_clear(struct top_span *s)
{
    struct top_fn *fn = s->fn;
    size_t n = s->nfn;

    memset(fn, 0, (n ? n : 1) * sizeof(*fn));
    memset(s, 0, sizeof(*s));
    s->fn = fn;
    s->nfn = n;
}

void top_span_free(struct top_span *s)
{
    free(s->fn);
    s->fn = NULL;
}

/* Add N samples to the part NAME of PS: its entry, a new one, or with the
 * table full the last one, which then stands for all the others. */
static void part_add(struct top_parts *ps, const char *name, uint64_t n)
{
    size_t i;

    for (i = 0; i < ps->n; i++)
        if (strcmp(ps->p[i].name, name) == 0)
            break;
    if (i == ps->n) {
        if (ps->n == TOP_PARTS) {
            i = TOP_PARTS - 1;
            snprintf(ps->p[i].name, sizeof(ps->p[i].name), "(others)");
        } else {
            snprintf(ps->p[ps->n++].name, sizeof(ps->p[i].name), "%s", name);
        }
    }
    ps->p[i].samples += n;
    ps->total += n;
}

static void contexts_from(struct top_parts *ps, const struct mp_model *m)
{
    char name[64];
    size_t i;

    for (i = 0; i < m->ncontexts; i++)
        part_add(ps, mp_context_name(m->machine, m->contexts[i].key, name, sizeof(name)), m->contexts[i].samples);
    if (m->contexts_lost)
        part_add(ps, "(no room in the table)", m->contexts_lost);
}

static void tasks_from(struct top_parts *ps, const struct mp_model *m)
{
    size_t i;

    for (i = 0; i < m->ntasks; i++)
        part_add(ps, mp_model_task_label(m, (long)i), m->tasks[i].samples);
    if (m->tasks_lost)
        part_add(ps, "(no room in the table)", m->tasks_lost);
    if (m->tasks_invalid)
        part_add(ps, "(invalid handle)", m->tasks_invalid);
}

static int incl_from(struct top_span *s, const struct mp_model *m)
{
    struct mp_path_incl pi;
    size_t i;

    if (mp_path_incl_compute(&pi, m) < 0)
        return -1;
    for (i = 0; i < s->nfn && i < m->nfuncs; i++)
        s->fn[i].incl = pi.incl[i];
    s->path_total = pi.total;
    mp_path_incl_free(&pi);
    return 0;
}

static uint64_t minus(uint64_t a, uint64_t b)
{
    return a > b ? a - b : 0;
}

int top_span_from(struct top_span *s, const struct mp_model *m, double wall_s)
{
    const struct mp_model_counters *c = &m->c;
    struct mp_time_seen seen;
    size_t i;

    if (top_span_init(s, m->nfuncs) < 0)
        return -1;
    s->intervals = 1;
    s->wall_s = wall_s;
    s->rate_hz = m->sample_rate_hz;
    mp_model_time_seen(m, &seen);
    /* The samples the target counted as lost while frozen are top's own
     * cost (a freeze every snapshot, longer over a slow link): nothing
     * says where they fell, and with them every share would shrink by
     * what the link costs. The shares are of the time not frozen. */
    s->total = minus(seen.taken, c->lost[MP_LOST_SAMPLES_FROZEN]);
    s->draws = minus(seen.draws, c->lost[MP_LOST_SAMPLES_FROZEN]);
    s->outside = m->outside;
    s->samples_taken = c->samples_taken;
    memcpy(s->lost, c->lost, sizeof(s->lost));
    s->missed_known = c->missed_source != MCUPROF_MISSED_NONE;
    s->missed = s->missed_known ? c->missed_periods : 0;
    s->periods = c->samples_taken + s->missed;
    s->deferred_known = (c->timing_flags & MCUPROF_TIMING_DEFERRED) != 0;
    s->deferred = c->deferred_samples;
    s->held = m->held.samples;
    s->table_lost = m->contexts_lost + m->tasks_lost + m->paths_lost;
    s->saturated_arcs = c->saturated_arcs;
    s->calls = c->total_calls;
    for (i = 0; i < m->nfuncs; i++) {
        s->fn[i].self = m->funcs[i].self;
        s->fn[i].calls = m->funcs[i].calls;
    }
    s->has_contexts = m->has_contexts;
    s->has_tasks = m->has_tasks;
    contexts_from(&s->ctx, m);
    tasks_from(&s->task, m);
    s->has_paths = m->has_paths;
    if (m->has_paths && incl_from(s, m) < 0) {
        top_span_free(s);
        return -1;
    }
    return 0;
}

static void parts_add(struct top_parts *run, const struct top_parts *i)
{
    size_t k;

    for (k = 0; k < i->n; k++)
        part_add(run, i->p[k].name, i->p[k].samples);
}

void top_span_add(struct top_span *run, const struct top_span *i)
{
    size_t k;

    for (k = 0; k < run->nfn && k < i->nfn; k++) {
        run->fn[k].self += i->fn[k].self;
        run->fn[k].calls += i->fn[k].calls;
        run->fn[k].incl += i->fn[k].incl;
    }
    run->intervals += i->intervals;
    run->wall_s += i->wall_s;
    run->rate_hz = i->rate_hz;
    run->periods += i->periods;
    run->total += i->total;
    run->draws += i->draws;
    run->outside += i->outside;
    run->samples_taken += i->samples_taken;
    for (k = 0; k < MP_LOST_COUNT; k++)
        run->lost[k] += i->lost[k];
    run->missed += i->missed;
    run->missed_known |= i->missed_known;
    run->deferred += i->deferred;
    run->deferred_known |= i->deferred_known;
    run->held += i->held;
    run->table_lost += i->table_lost;
    run->saturated_arcs += i->saturated_arcs;
    run->calls += i->calls;
    run->has_paths |= i->has_paths;
    run->path_total += i->path_total;
    run->has_contexts |= i->has_contexts;
    run->has_tasks |= i->has_tasks;
    parts_add(&run->ctx, &i->ctx);
    parts_add(&run->task, &i->task);
}

double top_span_seconds(const struct top_span *s)
{
    /* the calls made while frozen are lost too: calls per second are of
     * the time not frozen */
    uint64_t periods = minus(s->periods, s->lost[MP_LOST_SAMPLES_FROZEN]);

    if (s->rate_hz && periods)
        return (double)periods / s->rate_hz;
    return s->wall_s;
}

uint64_t top_span_calls_lost(const struct top_span *s)
{
    return s->lost[MP_LOST_ARCS_TABLE_FULL] + s->lost[MP_LOST_CALLS_REENTRANT] + s->lost[MP_LOST_CALLS_FROZEN];
}

uint64_t top_span_samples_lost(const struct top_span *s)
{
    return s->lost[MP_LOST_SAMPLES_OUT_OF_RANGE] + s->lost[MP_LOST_SAMPLES_SATURATED] +
           s->lost[MP_LOST_SAMPLES_FROZEN];
}

double top_share(double k, uint64_t total, uint64_t draws, double *lo, double *hi)
{
    mp_wilson_draws(k, (double)total, (double)draws, lo, hi);
    *lo *= 100.0;
    *hi *= 100.0;
    return total ? 100.0 * k / (double)total : 0.0;
}

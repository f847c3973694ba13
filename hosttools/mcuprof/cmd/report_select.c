/*
 * report_select.c - which functions each section of a report shows, in
 * gprof's orders, and the calls counted for them (report.h): shared by
 * `report` and the flat profile `record` prints.
 */
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "report.h"
#include "sort.h"

static int cmp_name(const struct mp_model *m, long a, long b)
{
    int c = strcmp(m->funcs[a].name, m->funcs[b].name);

    return c ? c : (a < b ? -1 : a > b);
}

/* qsort has no context argument in C11: a file-scope pointer, set only
 * around the calls. */
static const struct mp_report *sort_report;

/* gprof's flat order: self time, then calls, then name. */
static int cmp_flat(const void *x, const void *y)
{
    const struct mp_report *r = sort_report;
    long a = *(const long *)x, b = *(const long *)y;

    if (r->m->funcs[a].self != r->m->funcs[b].self)
        return r->m->funcs[a].self < r->m->funcs[b].self ? 1 : -1;
    if (r->calls[a] != r->calls[b])
        return r->calls[a] < r->calls[b] ? 1 : -1;
    return cmp_name(r->m, a, b);
}

/* gprof's call-graph order: inclusive time, then every call, then name. */
static int cmp_graph(const void *x, const void *y)
{
    const struct mp_report *r = sort_report;
    long a = *(const long *)x, b = *(const long *)y;
    uint64_t ca = r->calls[a] + r->self_calls[a], cb = r->calls[b] + r->self_calls[b];

    if (r->g->inclusive[a] != r->g->inclusive[b])
        return r->g->inclusive[a] < r->g->inclusive[b] ? 1 : -1;
    if (ca != cb)
        return ca < cb ? 1 : -1;
    return cmp_name(r->m, a, b);
}

static int count_calls(struct mp_report *r, unsigned char *calls_out)
{
    const struct mp_model *m = r->m;
    size_t n = m->nfuncs ? m->nfuncs : 1, i;

    r->calls = calloc(n, sizeof(*r->calls));
    r->self_calls = calloc(n, sizeof(*r->self_calls));
    r->outside_calls = calloc(n, sizeof(*r->outside_calls));
    r->flat = calloc(n, sizeof(*r->flat));
    r->graph = calloc(n, sizeof(*r->graph));
    if (!r->calls || !r->self_calls || !r->outside_calls || !r->flat || !r->graph)
        return mp_error(m->name, "out of memory for %zu functions", m->nfuncs);
    for (i = 0; i < m->narcs; i++) {
        const struct mp_model_arc *a = &m->arcs[i];

        if (a->callee_fn < 0)
            continue;
        if (a->caller < 0)
            r->outside_calls[a->callee_fn] += a->count;
        else if (a->caller == a->callee_fn)
            r->self_calls[a->callee_fn] += a->count;
        else
            r->calls[a->callee_fn] += a->count;
        if (a->caller >= 0)
            calls_out[a->caller] = 1;
    }
    return 0;
}

/* The functions each section shows: those gprof shows, with time or
 * calls, matching --function; the first --top N of each order. */
int mp_report_select(struct mp_report *r, const struct mp_name_regex *re, uint64_t top)
{
    const struct mp_model *m = r->m;
    unsigned char *calls_out = calloc(m->nfuncs ? m->nfuncs : 1, 1);
    size_t i;

    if (!calls_out)
        return mp_error(m->name, "out of memory for %zu functions", m->nfuncs);
    if (count_calls(r, calls_out) < 0) {
        free(calls_out);
        return -1;
    }
    for (i = 0; i < m->nfuncs; i++) {
        const struct mp_model_func *f = &m->funcs[i];
        int called = r->calls[i] || r->self_calls[i] || r->outside_calls[i];

        if (f->hidden || !mp_report_matches(re, f))
            continue;
        if (f->self > 0.0 || called)
            r->flat[r->nflat++] = (long)i;
        if (r->g->inclusive[i] > 0.0 || called || calls_out[i])
            r->graph[r->ngraph++] = (long)i;
    }
    free(calls_out);
    sort_report = r;
    mp_sort(r->flat, r->nflat, sizeof(*r->flat), cmp_flat);
    mp_sort(r->graph, r->ngraph, sizeof(*r->graph), cmp_graph);
    sort_report = NULL;
    if (top && r->nflat > top)
        r->nflat = (size_t)top;
    if (top && r->ngraph > top)
        r->ngraph = (size_t)top;
    return 0;
}

int mp_report_begin(struct mp_report *r, struct mp_callgraph *g, struct mp_path_incl *pi, const struct mp_model *m)
{
    memset(r, 0, sizeof(*r));
    memset(g, 0, sizeof(*g));
    memset(pi, 0, sizeof(*pi));
    if (mp_callgraph_compute(g, m) < 0)
        return -1;
    if (m->has_paths && mp_path_incl_compute(pi, m) < 0) {
        mp_callgraph_free(g);
        return -1;
    }
    r->m = m;
    r->g = g;
    r->pi = m->has_paths ? pi : NULL;
    return 0;
}

static void report_free(struct mp_report *r)
{
    free(r->calls);
    free(r->self_calls);
    free(r->outside_calls);
    free(r->flat);
    free(r->graph);
}

void mp_report_end(struct mp_report *r, struct mp_callgraph *g, struct mp_path_incl *pi)
{
    report_free(r);
    mp_callgraph_free(g);
    mp_path_incl_free(pi);
}

int mp_report_flat_top(FILE *f, const struct mp_model *m, uint64_t top)
{
    struct mp_callgraph g;
    struct mp_path_incl pi;
    struct mp_report r;
    int ret = -1;

    if (mp_report_begin(&r, &g, &pi, m) < 0)
        return -1;
    if (mp_report_select(&r, NULL, top) == 0) {
        mp_report_flat(f, &r);
        ret = 0;
    }
    mp_report_end(&r, &g, &pi);
    return ret;
}

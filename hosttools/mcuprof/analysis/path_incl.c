/*
 * path_incl.c - inclusive time from the recorded call paths (path_incl.h).
 *
 * Functions: one pass over the paths, a per-function mark of the last
 * path that counted it keeps recursion from counting a path twice.
 * Edges: every adjacent (caller, callee) pair of every path, sorted, then
 * summed once per path, so an edge recursion repeats within one path
 * counts once too.
 */
#include "path_incl.h"

#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "sort.h"

/* One occurrence of an edge in a path. */
struct hit {
    long caller, callee;
    size_t path;
    uint64_t samples;
};

static int cmp_hit(const void *x, const void *y)
{
    const struct hit *a = x, *b = y;

    if (a->caller != b->caller)
        return a->caller < b->caller ? -1 : 1;
    if (a->callee != b->callee)
        return a->callee < b->callee ? -1 : 1;
    return a->path < b->path ? -1 : a->path > b->path;
}

static int cmp_edge(const void *x, const void *y)
{
    const struct mp_path_edge *a = x, *b = y;

    if (a->caller != b->caller)
        return a->caller < b->caller ? -1 : 1;
    return a->callee < b->callee ? -1 : a->callee > b->callee;
}

/* Adjacent frames in functions, as (caller, callee) hits into H. */
static size_t path_hits(const struct mp_model *m, size_t i, struct hit *h)
{
    const struct mp_model_path *p = &m->paths[i];
    long prev = p->depth ? mp_model_path_func(m, p, 0) : -1;
    size_t n = 0;
    unsigned k;

    for (k = 1; k < p->depth; k++) {
        long fn = mp_model_path_func(m, p, k);

        if (prev >= 0 && fn >= 0) { /* (none across the gap) */
            h[n].caller = prev;
            h[n].callee = fn;
            h[n].path = i;
            h[n].samples = p->samples;
            n++;
        }
        prev = fn;
    }
    return n;
}

static int compute_edges(struct mp_path_incl *pi, const struct mp_model *m)
{
    struct hit *h;
    size_t nhits = 0, n = 0, i;

    for (i = 0; i < m->npaths; i++)
        nhits += m->paths[i].depth ? m->paths[i].depth - 1 : 0;
    if (!(h = malloc((nhits ? nhits : 1) * sizeof(*h))) ||
        !(pi->edges = malloc((nhits ? nhits : 1) * sizeof(*pi->edges)))) {
        free(h);
        return mp_error(m->name, "out of memory for %zu call-path edges", nhits);
    }
    for (i = 0; i < m->npaths; i++)
        n += path_hits(m, i, h + n);
    mp_sort(h, n, sizeof(*h), cmp_hit);
    for (i = 0; i < n; i++) {
        struct mp_path_edge *e = pi->nedges ? &pi->edges[pi->nedges - 1] : NULL;

        if (!e || e->caller != h[i].caller || e->callee != h[i].callee) {
            e = &pi->edges[pi->nedges++];
            e->caller = h[i].caller;
            e->callee = h[i].callee;
            e->samples = 0;
        } else if (h[i - 1].path == h[i].path) {
            continue; /* recursion repeats the edge within this path */
        }
        e->samples += h[i].samples;
    }
    free(h);
    return 0;
}

int mp_path_incl_compute(struct mp_path_incl *pi, const struct mp_model *m)
{
    size_t *mark, i;

    memset(pi, 0, sizeof(*pi));
    pi->incl = calloc(m->nfuncs ? m->nfuncs : 1, sizeof(*pi->incl));
    mark = calloc(m->nfuncs ? m->nfuncs : 1, sizeof(*mark));
    if (!pi->incl || !mark) {
        free(mark);
        mp_path_incl_free(pi);
        return mp_error(m->name, "out of memory for %zu functions", m->nfuncs);
    }
    for (i = 0; i < m->npaths; i++) {
        const struct mp_model_path *p = &m->paths[i];
        unsigned k;

        pi->recorded += p->samples;
        for (k = 0; k < p->depth; k++) {
            long fn = mp_model_path_func(m, p, k);

            if (fn >= 0 && mark[fn] != i + 1) {
                mark[fn] = i + 1;
                pi->incl[fn] += p->samples;
            }
        }
    }
    free(mark);
    pi->total = pi->recorded + m->paths_lost;
    if (compute_edges(pi, m) < 0) {
        mp_path_incl_free(pi);
        return -1;
    }
    return 0;
}

void mp_path_incl_free(struct mp_path_incl *pi)
{
    free(pi->incl);
    free(pi->edges);
    memset(pi, 0, sizeof(*pi));
}

uint64_t mp_path_incl_edge(const struct mp_path_incl *pi, long caller, long callee)
{
    struct mp_path_edge key, *e;

    if (!pi->nedges)
        return 0;
    key.caller = caller;
    key.callee = callee;
    e = mp_bsearch(&key, pi->edges, pi->nedges, sizeof(key), cmp_edge);
    return e ? e->samples : 0;
}

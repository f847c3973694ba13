/*
 * report_graph.c - the call graph of `mcuprof report` (report.h): gprof
 * -q's content, one block per function: its callers with their calls,
 * its callees with their calls and the time each passes up to it. With
 * call paths, beside gprof's estimate, the time measured on each edge:
 * the samples of the paths in which the caller called the callee.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "report.h"
#include "sort.h"
#include "text_safe.h"

/* Arcs between one function and another, summed over call sites. */
struct peer {
    long fn;       /* -1: outside code (callers) or no function (callees) */
    uint64_t calls;
    double time;   /* samples the arcs carry (callees) */
};

static int cmp_peer_fn(const void *x, const void *y)
{
    const struct peer *a = x, *b = y;

    return a->fn < b->fn ? -1 : a->fn > b->fn;
}

static const struct mp_model *sort_model;

/* Most time first, then most calls, then by name. */
static int cmp_peer_rank(const void *x, const void *y)
{
    const struct peer *a = x, *b = y;

    if (a->time != b->time)
        return a->time < b->time ? 1 : -1;
    if (a->calls != b->calls)
        return a->calls < b->calls ? 1 : -1;
    if (a->fn < 0 || b->fn < 0)
        return a->fn < b->fn ? -1 : a->fn > b->fn;
    return strcmp(sort_model->funcs[a->fn].name, sort_model->funcs[b->fn].name);
}

/* The callers (CALLERS non-zero) or callees of function K, self arcs
 * left out (the block's "called" says them), merged and ranked. */
static size_t peers(const struct mp_report *r, long k, int callers, struct peer *p)
{
    const struct mp_model *m = r->m;
    size_t i, n = 0, out = 0;

    for (i = 0; i < m->narcs; i++) {
        const struct mp_model_arc *a = &m->arcs[i];
        long self = callers ? a->callee_fn : a->caller, other = callers ? a->caller : a->callee_fn;

        if (self != k || other == k)
            continue;
        p[n].fn = other;
        p[n].calls = a->count;
        p[n].time = callers ? 0.0 : r->g->arc_time[i];
        n++;
    }
    mp_sort(p, n, sizeof(*p), cmp_peer_fn);
    for (i = 0; i < n; i++) {
        if (out && p[out - 1].fn == p[i].fn) {
            p[out - 1].calls += p[i].calls;
            p[out - 1].time += p[i].time;
        } else {
            p[out++] = p[i];
        }
    }
    sort_model = m;
    mp_sort(p, out, sizeof(*p), cmp_peer_rank);
    sort_model = NULL;
    return out;
}

static const char *peer_name(const struct mp_model *m, long fn, int callers, char *buf, size_t cap)
{
    if (fn < 0)
        return callers ? "<spontaneous>" : "(no function)";
    if (m->funcs[fn].hidden)
        snprintf(buf, cap, "%s (hidden by gprof)", m->funcs[fn].name);
    else
        return m->funcs[fn].name;
    return buf;
}

/* The measured share of the edge CALLER -> CALLEE, as a column: blank
 * when the caller is no function (the paths name none). */
static void path_column(FILE *f, const struct mp_report *r, long caller, long callee)
{
    if (caller < 0 || callee < 0)
        fprintf(f, "  %9s", "");
    else
        fprintf(f, "  %7.2f %%", mp_report_path_pct(r, mp_path_incl_edge(r->pi, caller, callee)));
}

static void print_block(FILE *f, const struct mp_report *r, long k, struct peer *p)
{
    const struct mp_model *m = r->m;
    char called[48], cycle[24] = "", buf[160];
    size_t n, i;

    if (r->g->cycle[k])
        snprintf(cycle, sizeof(cycle), " <cycle %u>", r->g->cycle[k]);
    if (r->self_calls[k])
        snprintf(called, sizeof(called), "%" PRIu64 "+%" PRIu64, r->calls[k] + r->outside_calls[k],
                 r->self_calls[k]);
    else
        snprintf(called, sizeof(called), "%" PRIu64, r->calls[k] + r->outside_calls[k]);
    fprintf(f, "\n%s%s: %.2f %% inclusive, %.2f %% self, called %s", mp_esc(m->funcs[k].name), cycle,
            mp_report_pct(r, r->g->inclusive[k]), mp_report_pct(r, m->funcs[k].self), called);
    if (r->pi)
        fprintf(f, "; %.2f %% inclusive (paths)", mp_report_path_pct(r, r->pi->incl[k]));
    fputc('\n', f);
    n = peers(r, k, 1, p);
    for (i = 0; i < n; i++) {
        fprintf(f, "    <- %-36s %10" PRIu64, mp_esc(peer_name(m, p[i].fn, 1, buf, sizeof(buf))), p[i].calls);
        if (r->pi) {
            fprintf(f, "  %9s", "");
            path_column(f, r, p[i].fn, k);
        }
        fputc('\n', f);
    }
    n = peers(r, k, 0, p);
    for (i = 0; i < n; i++) {
        fprintf(f, "    -> %-36s %10" PRIu64 "  %7.2f %%", mp_esc(peer_name(m, p[i].fn, 0, buf, sizeof(buf))),
                p[i].calls, mp_report_pct(r, p[i].time));
        if (r->pi)
            path_column(f, r, k, p[i].fn);
        fputc('\n', f);
    }
}

int mp_report_graph(FILE *f, const struct mp_report *r)
{
    struct peer *p = malloc((r->m->narcs ? r->m->narcs : 1) * sizeof(*p));
    size_t i;

    if (!p)
        return mp_error(r->m->name, "out of memory for %zu arcs", r->m->narcs);
    fprintf(f, "\ncall graph (as gprof -q: a callee's inclusive time is shared among its callers"
               " in proportion to their calls)\n"
               "  <- callers and their calls (<spontaneous>: code that is no function, such as an"
               " interrupt entry)\n"
               "  -> callees, their calls and the time they pass up\n");
    if (r->pi)
        fprintf(f, "  with call paths, a last column measures each edge: the time spent in the callee"
                   " while called by that caller\n"
                   "  (%% of the samples the path table counted); the first line's '(paths)' likewise\n");
    for (i = 0; i < r->ngraph; i++)
        print_block(f, r, r->graph[i], p);
    if (!r->ngraph)
        fprintf(f, "  (no function)\n");
    free(p);
    return 0;
}

/*
 * format_dot.c - the call graph for graphviz (`dot -Tsvg`): one node per
 * function with samples or calls, one edge per caller and callee with the
 * exact number of calls, the functions of a cycle in a box of their own.
 *
 * A node shows the function's self and inclusive share of every sample;
 * its size and colour grow with the inclusive share, so the expensive
 * subtrees stand out. Inclusive times come from callgraph.h, which shares
 * a callee's time among its callers by call count: that assumes every
 * call of a function costs the same (gprof), and the graph's caption
 * says so.
 */
#include <stdlib.h>

#include "callgraph.h"
#include "diag.h"
#include "formats.h"
#include "sort.h"
#include "text_safe.h"

#define SPONTANEOUS "spontaneous"
#define AT_LEAST "\xe2\x89\xa5" /* U+2265, UTF-8 */

/* S inside a DOT double-quoted string, as a label shows it literally:
 * first escaped by the rule of text_safe.h (no control character, no byte
 * that is not UTF-8: graphviz warns about those, and a reader may print
 * the file), then quote and backslash escaped (a backslash would start
 * \n, \l, \N...) and '&' as an entity (graphviz decodes entities in
 * labels). */
static void put_escaped(FILE *f, const char *str)
{
    const char *s;

    for (s = mp_esc(str); *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', f);
        if (*s == '&')
            fputs("&amp;", f);
        else
            fputc(*s, f);
    }
}

/* One edge: every arc between one caller (or none) and one callee. */
struct edge {
    long caller, callee;
    uint64_t count;
    int saturated;
    double time;
};

static int cmp_edge(const void *a, const void *b)
{
    const struct edge *x = a, *y = b;

    if (x->caller != y->caller)
        return x->caller < y->caller ? -1 : 1;
    return x->callee < y->callee ? -1 : x->callee > y->callee;
}

/* The arcs summed per (caller, callee); *N is set to the edges made. */
static struct edge *make_edges(const struct mp_model *m, const struct mp_callgraph *g, size_t *n)
{
    struct edge *e = calloc(m->narcs + 1, sizeof(*e));
    size_t i, k = 0, out = 0;

    if (!e) {
        mp_error(m->name, "dot: out of memory (%zu arcs)", m->narcs);
        return NULL;
    }
    for (i = 0; i < m->narcs; i++) {
        const struct mp_model_arc *a = &m->arcs[i];

        if (a->callee_fn < 0)
            continue;
        e[k].caller = a->caller;
        e[k].callee = a->callee_fn;
        e[k].count = a->count;
        e[k].saturated = a->saturated;
        e[k++].time = g->arc_time[i];
    }
    mp_sort(e, k, sizeof(*e), cmp_edge);
    for (i = 0; i < k; i++) {
        if (out && e[out - 1].caller == e[i].caller && e[out - 1].callee == e[i].callee) {
            struct edge *d = &e[out - 1];

            d->count = d->count > UINT64_MAX - e[i].count ? UINT64_MAX : d->count + e[i].count;
            d->saturated |= e[i].saturated;
            d->time += e[i].time;
        } else {
            e[out++] = e[i];
        }
    }
    *n = out;
    return e;
}

static double share(double part, double total)
{
    double s = total > 0 ? part / total : 0;

    return !(s > 0) ? 0 : s > 1 ? 1 : s; /* NaN as 0 */
}

static void put_node(FILE *f, const struct mp_model *m, const struct mp_callgraph *g, size_t v, double total,
                     const char *indent)
{
    const struct mp_model_func *fn = &m->funcs[v];
    double t = share(g->inclusive[v], total);

    fprintf(f, "%sf%zu [label=\"", indent, v);
    put_escaped(f, fn->name);
    fprintf(f, "\\nself %.2f %%\\ntotal %.2f %%", 100 * share(fn->self, total), 100 * t);
    if (fn->calls)
        fprintf(f, "\\n%llu call%s", (unsigned long long)fn->calls, fn->calls == 1 ? "" : "s");
    if (g->cycle[v])
        fprintf(f, "\\n<cycle %u>", g->cycle[v]);
    /* Hot is red and large, cold is pale blue and small. */
    fputc('"', f);
    if (fn->symbol) {
        /* the ELF symbol of a demangled name, for a reader matching
         * nodes to symbols (and a viewer's hover text) */
        fputs(", tooltip=\"", f);
        put_escaped(f, fn->symbol);
        fputc('"', f);
    }
    fprintf(f, ", fontsize=%.1f, fillcolor=\"%.3f %.3f 1.000\"];\n", 10 + 14 * t, 0.6 * (1 - t), 0.1 + 0.7 * t);
}

static void put_edge(FILE *f, const struct edge *e, double total)
{
    if (e->caller >= 0)
        fprintf(f, "  f%ld -> f%ld", e->caller, e->callee);
    else
        fprintf(f, "  " SPONTANEOUS " -> f%ld", e->callee);
    fprintf(f, " [label=\"%s%llu\", penwidth=%.2f];\n", e->saturated ? AT_LEAST : "",
            (unsigned long long)e->count, 1 + 4 * share(e->time, total));
}

static void put_caption(FILE *f, const struct mp_model *m, double total, uint64_t lost_calls)
{
    char view[128];

    fputs("  label=\"", f);
    put_escaped(f, m->elf_path ? m->elf_path : m->name);
    fprintf(f, ": %.0f samples", total);
    if (m->sample_rate_hz)
        fprintf(f, " at %lu Hz", (unsigned long)m->sample_rate_hz);
    if (m->outside > 0)
        fprintf(f, ", %.0f in no function", m->outside);
    if (lost_calls)
        fprintf(f, ", %llu calls to code in no function not shown", (unsigned long long)lost_calls);
    if (mp_model_clone_view(m, view, sizeof(view))) {
        fputs("\\nclones: ", f);
        put_escaped(f, view);
    }
    fputs("\\ntotal: self + the callees' time shared among their callers by call count,"
          " as if every call of a function cost the same (gprof)\";\n",
          f);
}

static int write_dot(const struct mp_model *m, FILE *f)
{
    struct mp_callgraph g;
    struct edge *e = NULL;
    unsigned char *shown = NULL;
    size_t *first = NULL, *members = NULL; /* functions by cycle */
    double total = m->outside;
    uint64_t lost_calls = 0;
    size_t i, v, n = 0;
    unsigned c;
    int ret = -1;

    if (mp_callgraph_compute(&g, m) < 0)
        return -1;
    if (!(e = make_edges(m, &g, &n)))
        goto out;
    if (!(shown = calloc(m->nfuncs + 1, 1)) || !(first = calloc(g.ncycles + 2, sizeof(size_t))) ||
        !(members = calloc(m->nfuncs + 1, sizeof(size_t)))) {
        mp_error(m->name, "dot: out of memory (%zu functions)", m->nfuncs);
        goto out;
    }
    for (v = 0; v < m->nfuncs; v++) {
        total += m->funcs[v].self;
        shown[v] = m->funcs[v].self > 0;
    }
    for (i = 0; i < n; i++) {
        shown[e[i].callee] = 1;
        if (e[i].caller >= 0)
            shown[e[i].caller] = 1;
    }
    for (i = 0; i < m->narcs; i++)
        if (m->arcs[i].callee_fn < 0)
            lost_calls += m->arcs[i].count;

    fputs("digraph mcuprof {\n  charset=\"UTF-8\";\n  labelloc=b;\n", f);
    put_caption(f, m, total, lost_calls);
    fputs("  node [shape=box, style=filled, fontname=\"Helvetica\"];\n"
          "  edge [fontname=\"Helvetica\", fontsize=10];\n",
          f);
    if (n && e[0].caller < 0)
        fputs("  " SPONTANEOUS " [label=\"<spontaneous>\", shape=ellipse, style=dashed];\n", f);
    for (v = 0; v < m->nfuncs; v++)
        if (shown[v] && !g.cycle[v])
            put_node(f, m, &g, v, total, "  ");
    /* The functions of a cycle share one time: one box around them. */
    for (v = 0; v < m->nfuncs; v++)
        if (g.cycle[v])
            first[g.cycle[v] + 1]++;
    for (c = 1; c <= g.ncycles; c++)
        first[c + 1] += first[c];
    for (v = 0; v < m->nfuncs; v++)
        if (g.cycle[v])
            members[first[g.cycle[v]]++] = v; /* first[c] moves to the next cycle's start */
    for (c = 1, i = 0; c <= g.ncycles; c++) {
        fprintf(f, "  subgraph cluster_cycle%u {\n    label=\"<cycle %u>: total %.2f %%\";\n    style=dashed;\n",
                c, c, 100 * share(g.cycle_time[c], total));
        for (; i < first[c]; i++)
            put_node(f, m, &g, members[i], total, "    ");
        fputs("  }\n", f);
    }
    for (i = 0; i < n; i++)
        put_edge(f, &e[i], total);
    fputs("}\n", f);
    ret = 0;
out:
    free(e);
    free(shown);
    free(first);
    free(members);
    mp_callgraph_free(&g);
    return ret;
}

const struct mp_format mp_format_dot = {
    "dot", "mcuprof.dot", "call graph for graphviz: calls per arc, self and inclusive share per function",
    MP_NEEDS_ELF, NULL, write_dot, .rank = 50,
};

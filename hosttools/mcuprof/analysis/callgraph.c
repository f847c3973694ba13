/*
 * callgraph.c - gprof's propagation of time along the call graph
 * (callgraph.h).
 *
 * 1. The functions that call each other in a loop are found as strongly
 *    connected components (Tarjan). Tarjan's algorithm emits a component
 *    only after every component it calls, so its output order is already
 *    the order the propagation needs: callees first.
 * 2. Each component's time is its members' self time plus what the arcs
 *    leaving it carry. An arc into a component carries the component's
 *    time times the arc's share of the calls that enter the component
 *    from outside it (from other functions or from code that is no
 *    function); arcs inside a component carry nothing, because their
 *    time is already part of the component's.
 *
 * The search keeps its own stack: a call chain thousands of functions
 * deep must not overflow the tool's.
 */
#include "callgraph.h"

#include <stdlib.h>
#include <string.h>

#include "diag.h"

#define UNVISITED ((size_t)-1)

/* The graph between functions: for each function the model arcs it
 * makes to another function, as a compressed adjacency list. */
struct graph {
    size_t n;
    size_t *first; /* n + 1 entries: arcs of v are out[first[v] .. first[v + 1]) */
    size_t *out;   /* model arc indices */
};

/* The strongly connected components, numbered in Tarjan's output order. */
struct components {
    size_t count;
    size_t *of;     /* per function: its component */
    size_t *first;  /* count + 1 entries: members of c are member[first[c] ..) */
    size_t *member; /* function indices */
};

/* Tarjan's bookkeeping, and the explicit stack that replaces recursion. */
struct search {
    size_t *index, *low;
    unsigned char *on_stack;
    size_t *stack, depth;     /* functions of components not yet emitted */
    size_t *frame_v, *frame_pos, frames; /* the simulated call stack */
    size_t next_index;
};

static void *alloc_array(const struct mp_model *m, size_t n, size_t size)
{
    void *p;

    if (n > SIZE_MAX / size - 1 || !(p = calloc(n + 1, size))) {
        mp_error(m->name, "call graph: out of memory (%zu entries)", n);
        return NULL;
    }
    return p;
}

/* An arc between two functions of the model, a self-call included. */
static int between_funcs(const struct mp_model_arc *a)
{
    return a->caller >= 0 && a->callee_fn >= 0;
}

/* A model from any reader must name functions that exist: a bad index
 * would send the propagation out of its arrays. */
static int check_arcs(const struct mp_model *m)
{
    size_t i;

    for (i = 0; i < m->narcs; i++) {
        const struct mp_model_arc *a = &m->arcs[i];

        if (a->caller >= (long)m->nfuncs || a->callee_fn >= (long)m->nfuncs || a->caller < -1 ||
            a->callee_fn < -1)
            return mp_error(m->name, "arc %zu (call site 0x%llx): function index %ld or %ld outside the %zu functions",
                            i, (unsigned long long)a->callsite, a->caller, a->callee_fn, m->nfuncs);
    }
    return 0;
}

static int build_graph(struct graph *gr, const struct mp_model *m)
{
    size_t i, *fill;

    gr->n = m->nfuncs;
    if (!(gr->first = alloc_array(m, m->nfuncs + 1, sizeof(size_t))) ||
        !(gr->out = alloc_array(m, m->narcs, sizeof(size_t))))
        return -1;
    for (i = 0; i < m->narcs; i++)
        if (between_funcs(&m->arcs[i]))
            gr->first[m->arcs[i].caller + 1]++;
    for (i = 0; i < m->nfuncs; i++)
        gr->first[i + 1] += gr->first[i];
    if (!(fill = alloc_array(m, m->nfuncs, sizeof(size_t))))
        return -1;
    memcpy(fill, gr->first, m->nfuncs * sizeof(size_t));
    for (i = 0; i < m->narcs; i++)
        if (between_funcs(&m->arcs[i]))
            gr->out[fill[m->arcs[i].caller]++] = i;
    free(fill);
    return 0;
}

static void graph_free(struct graph *gr)
{
    free(gr->first);
    free(gr->out);
}

static void visit(struct search *s, size_t v)
{
    s->index[v] = s->low[v] = s->next_index++;
    s->stack[s->depth++] = v;
    s->on_stack[v] = 1;
    s->frame_v[s->frames] = v;
    s->frame_pos[s->frames++] = 0;
}

/* V is the root of a component: the functions above it on the stack. */
static void emit(struct search *s, struct components *c, size_t v)
{
    size_t w;

    do {
        w = s->stack[--s->depth];
        s->on_stack[w] = 0;
        c->of[w] = c->count;
    } while (w != v);
    c->count++;
}

/* Tarjan's algorithm from ROOT, with the recursion as a loop over frames:
 * each frame is a function and the position of its next arc. */
static void search_from(struct search *s, struct components *c, const struct graph *gr,
                        const struct mp_model *m, size_t root)
{
    visit(s, root);
    while (s->frames) {
        size_t v = s->frame_v[s->frames - 1], *pos = &s->frame_pos[s->frames - 1];

        if (gr->first[v] + *pos < gr->first[v + 1]) {
            size_t w = (size_t)m->arcs[gr->out[gr->first[v] + (*pos)++]].callee_fn;

            if (s->index[w] == UNVISITED)
                visit(s, w);
            else if (s->on_stack[w] && s->index[w] < s->low[v])
                s->low[v] = s->index[w];
            continue;
        }
        s->frames--;
        if (s->low[v] == s->index[v])
            emit(s, c, v);
        if (s->frames) {
            size_t u = s->frame_v[s->frames - 1];

            if (s->low[v] < s->low[u])
                s->low[u] = s->low[v];
        }
    }
}

static int find_components(struct components *c, const struct graph *gr, const struct mp_model *m)
{
    struct search s;
    size_t v, n = gr->n, *fill = NULL;
    int ret = -1;

    memset(&s, 0, sizeof(s));
    if (!(s.index = alloc_array(m, n, sizeof(size_t))) || !(s.low = alloc_array(m, n, sizeof(size_t))) ||
        !(s.on_stack = alloc_array(m, n, 1)) || !(s.stack = alloc_array(m, n, sizeof(size_t))) ||
        !(s.frame_v = alloc_array(m, n, sizeof(size_t))) || !(s.frame_pos = alloc_array(m, n, sizeof(size_t))) ||
        !(c->of = alloc_array(m, n, sizeof(size_t))) || !(c->first = alloc_array(m, n + 1, sizeof(size_t))) ||
        !(c->member = alloc_array(m, n, sizeof(size_t))) || !(fill = alloc_array(m, n + 1, sizeof(size_t))))
        goto out;
    for (v = 0; v < n; v++)
        s.index[v] = UNVISITED;
    for (v = 0; v < n; v++)
        if (s.index[v] == UNVISITED)
            search_from(&s, c, gr, m, v);
    /* Members grouped by component, each group in address order. */
    for (v = 0; v < n; v++)
        c->first[c->of[v] + 1]++;
    for (v = 0; v < c->count; v++)
        c->first[v + 1] += c->first[v];
    memcpy(fill, c->first, (c->count + 1) * sizeof(size_t));
    for (v = 0; v < n; v++)
        c->member[fill[c->of[v]]++] = v;
    ret = 0;
out:
    free(fill);
    free(s.index);
    free(s.low);
    free(s.on_stack);
    free(s.stack);
    free(s.frame_v);
    free(s.frame_pos);
    return ret;
}

static void components_free(struct components *c)
{
    free(c->of);
    free(c->first);
    free(c->member);
}

static size_t members(const struct components *c, size_t comp)
{
    return c->first[comp + 1] - c->first[comp];
}

/* Cycles are the components of two or more functions, numbered 1.. in
 * the order of their lowest address, so a number stays the same from one
 * run of the same firmware to the next. */
static int number_cycles(struct mp_callgraph *g, const struct components *c, const struct mp_model *m)
{
    size_t v, *number;

    if (!(number = alloc_array(m, c->count, sizeof(size_t))))
        return -1;
    for (v = 0; v < m->nfuncs; v++) {
        size_t comp = c->of[v];

        if (members(c, comp) < 2)
            continue;
        if (!number[comp])
            number[comp] = ++g->ncycles;
        g->cycle[v] = (unsigned)number[comp];
    }
    if (!(g->cycle_time = alloc_array(m, g->ncycles + 1, sizeof(double)))) {
        free(number);
        return -1;
    }
    for (v = 0; v < m->nfuncs; v++)
        if (g->cycle[v])
            g->cycle_time[g->cycle[v]] = g->inclusive[v];
    free(number);
    return 0;
}

/* Whether arc A enters its callee's component from outside it: only those
 * calls share the component's time (self calls and calls between members
 * of a cycle are part of it). */
static int enters(const struct mp_model_arc *a, const struct components *c)
{
    return a->callee_fn >= 0 && (a->caller < 0 || c->of[a->caller] != c->of[a->callee_fn]);
}

static void propagate(struct mp_callgraph *g, const struct components *c, const struct graph *gr,
                      const struct mp_model *m, double *comp_time, double *comp_calls)
{
    size_t i, comp, k;

    for (i = 0; i < m->narcs; i++)
        if (enters(&m->arcs[i], c))
            comp_calls[c->of[m->arcs[i].callee_fn]] += (double)m->arcs[i].count;
    /* Components in Tarjan's order: every callee's time is final before a
     * caller reads it. */
    for (comp = 0; comp < c->count; comp++) {
        double t = 0;

        for (k = c->first[comp]; k < c->first[comp + 1]; k++) {
            size_t v = c->member[k], e;

            t += m->funcs[v].self;
            for (e = gr->first[v]; e < gr->first[v + 1]; e++) {
                const struct mp_model_arc *a = &m->arcs[gr->out[e]];
                size_t to = c->of[a->callee_fn];

                if (to == comp || comp_calls[to] <= 0)
                    continue;
                g->arc_time[gr->out[e]] = comp_time[to] * (double)a->count / comp_calls[to];
                t += g->arc_time[gr->out[e]];
            }
        }
        comp_time[comp] = t;
        for (k = c->first[comp]; k < c->first[comp + 1]; k++)
            g->inclusive[c->member[k]] = t;
    }
    /* Calls from code that is no function take their share too; it is
     * charged to no function. */
    for (i = 0; i < m->narcs; i++) {
        const struct mp_model_arc *a = &m->arcs[i];
        size_t to;

        if (a->caller >= 0 || a->callee_fn < 0)
            continue;
        to = c->of[a->callee_fn];
        if (comp_calls[to] > 0) {
            g->arc_time[i] = comp_time[to] * (double)a->count / comp_calls[to];
            g->spontaneous += g->arc_time[i];
        }
    }
}

int mp_callgraph_compute(struct mp_callgraph *g, const struct mp_model *m)
{
    struct graph gr;
    struct components c;
    double *comp_time = NULL, *comp_calls = NULL;
    int ret = -1;

    memset(g, 0, sizeof(*g));
    memset(&gr, 0, sizeof(gr));
    memset(&c, 0, sizeof(c));
    if (check_arcs(m) < 0)
        return -1;
    if (!(g->inclusive = alloc_array(m, m->nfuncs, sizeof(double))) ||
        !(g->arc_time = alloc_array(m, m->narcs, sizeof(double))) ||
        !(g->cycle = alloc_array(m, m->nfuncs, sizeof(unsigned))))
        goto out;
    if (build_graph(&gr, m) < 0 || find_components(&c, &gr, m) < 0)
        goto out;
    if (!(comp_time = alloc_array(m, c.count, sizeof(double))) ||
        !(comp_calls = alloc_array(m, c.count, sizeof(double))))
        goto out;
    propagate(g, &c, &gr, m, comp_time, comp_calls);
    ret = number_cycles(g, &c, m);
out:
    free(comp_time);
    free(comp_calls);
    components_free(&c);
    graph_free(&gr);
    if (ret < 0)
        mp_callgraph_free(g);
    return ret;
}

void mp_callgraph_free(struct mp_callgraph *g)
{
    free(g->inclusive);
    free(g->arc_time);
    free(g->cycle);
    free(g->cycle_time);
    memset(g, 0, sizeof(*g));
}

/*
 * top_view.c - what `mcuprof top` shows (top_view.h).
 */
/* gmtime_r, strdup: POSIX, not C11 */
#define _POSIX_C_SOURCE 200809L

#include "top_view.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "sort.h"
#include "text_safe.h"

int top_view_init(struct top_view *v, const char **names, size_t nfn)
{
    size_t i;

    if (!(v->names = calloc(nfn ? nfn : 1, sizeof(*v->names))))
        return mp_error(NULL, "top: out of memory for %zu functions", nfn);
    v->nfn = nfn;
    for (i = 0; i < nfn; i++)
        if (!(v->names[i] = strdup(mp_esc(names[i])))) {
            top_view_free(v);
            return mp_error(NULL, "top: out of memory for %zu functions", nfn);
        }
    return top_span_init(&v->run, nfn);
}

void top_view_free(struct top_view *v)
{
    size_t i;

    for (i = 0; v->names && i < v->nfn; i++)
        free((char *)v->names[i]);
    free(v->names);
    v->names = NULL;
    top_span_free(&v->run);
    if (v->have_last)
        top_span_free(&v->last);
    v->have_last = 0;
}

const struct top_span *top_view_span(const struct top_view *v)
{
    return v->show_run || !v->have_last ? &v->run : &v->last;
}

const struct top_span *top_view_other(const struct top_view *v)
{
    return v->show_run && v->have_last ? &v->last : &v->run;
}

const char *top_sort_name(enum top_sort s)
{
    return s == TOP_SORT_CALLS ? "calls" : s == TOP_SORT_INCL ? "inclusive" : "self";
}

/* qsort has no context argument: the order's keys while it sorts. */
static const struct top_view *sort_view;
static const struct top_span *sort_span;

static double key(size_t i)
{
    const struct top_fn *f = &sort_span->fn[i];

    switch (sort_view->sort) {
    case TOP_SORT_CALLS: return (double)f->calls;
    case TOP_SORT_INCL: return (double)f->incl;
    default: return f->self;
    }
}

static int cmp_rows(const void *pa, const void *pb)
{
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    double ka = key(a), kb = key(b);

    if (ka != kb)
        return ka > kb ? -1 : 1;
    if (sort_span->fn[a].self != sort_span->fn[b].self)
        return sort_span->fn[a].self > sort_span->fn[b].self ? -1 : 1;
    return strcmp(sort_view->names[a], sort_view->names[b]);
}

size_t top_view_order(const struct top_view *v, const struct top_span *s, size_t *order)
{
    size_t i, n = 0;

    for (i = 0; i < s->nfn && i < v->nfn; i++)
        if (s->fn[i].self > 0 || s->fn[i].calls || s->fn[i].incl)
            order[n++] = i;
    sort_view = v;
    sort_span = s;
    mp_sort(order, n, sizeof(*order), cmp_rows);
    sort_view = NULL;
    sort_span = NULL;
    return n;
}

void top_view_cells(const struct top_span *s, const struct top_span *o, size_t i, struct top_cells *c)
{
    const struct top_fn *f = &s->fn[i];
    double secs = top_span_seconds(s);

    c->self = top_share(f->self, s->total, s->draws, &c->self_lo, &c->self_hi);
    c->other = top_share(o->fn[i].self, o->total, o->draws, &c->other_lo, &c->other_hi);
    c->calls = f->calls;
    c->rate = secs > 0 ? (double)f->calls / secs : 0;
    c->has_incl = s->has_paths;
    c->incl = c->incl_lo = c->incl_hi = 0;
    if (s->has_paths)
        c->incl = top_share((double)f->incl, s->path_total, s->path_total, &c->incl_lo, &c->incl_hi);
}

/* Append "SEP TEXT" to BUF at *AT. */
static void add(char *buf, size_t size, size_t *at, const char *text)
{
    int n;

    if (*at >= size)
        return;
    n = snprintf(buf + *at, size - *at, "%s%s", *at ? ", " : "", text);
    if (n > 0)
        *at += (size_t)n;
}

static const char *plural(uint64_t n)
{
    return n == 1 ? "" : "s";
}

/* "N WHAT (A frozen, B ...)" for the causes that are not 0. */
static void add_causes(char *buf, size_t size, size_t *at, const char *what, const uint64_t *n,
                       const char *const *cause, unsigned k)
{
    char t[200];
    uint64_t sum = 0;
    size_t len;
    unsigned i;

    for (i = 0; i < k; i++)
        sum += n[i];
    if (!sum)
        return;
    len = (size_t)snprintf(t, sizeof(t), "%" PRIu64 " %s%s lost (", sum, what, plural(sum));
    for (i = 0; i < k && len < sizeof(t); i++)
        if (n[i])
            len += (size_t)snprintf(t + len, sizeof(t) - len, "%s%" PRIu64 " %s", t[len - 1] == '(' ? "" : ", ",
                                    n[i], cause[i]);
    if (len < sizeof(t))
        snprintf(t + len, sizeof(t) - len, ")");
    add(buf, size, at, t);
}

int top_losses(const struct top_span *s, char *buf, size_t size)
{
    static const char *const call_causes[] = {"arc table full", "re-entered", "frozen"};
    static const char *const sample_causes[] = {"out of range", "saturated", "frozen"};
    char t[120];
    size_t at = 0;

    buf[0] = '\0';
    add_causes(buf, size, &at, "sample", s->lost + MP_LOST_SAMPLES_OUT_OF_RANGE, sample_causes, 3);
    add_causes(buf, size, &at, "call", s->lost + MP_LOST_ARCS_TABLE_FULL, call_causes, 3);
    if (s->missed) {
        snprintf(t, sizeof(t), "%" PRIu64 " period%s missed", s->missed, plural(s->missed));
        add(buf, size, &at, t);
    }
    if (s->deferred) {
        snprintf(t, sizeof(t), "%" PRIu64 " sample%s deferred", s->deferred, plural(s->deferred));
        add(buf, size, &at, t);
    }
    if (s->held) {
        snprintf(t, sizeof(t), "%" PRIu64 " sample%s held off (binned nowhere)", s->held, plural(s->held));
        add(buf, size, &at, t);
    }
    if (s->table_lost) {
        snprintf(t, sizeof(t), "%" PRIu64 " sample%s out of the context, task or path split (table full)",
                 s->table_lost, plural(s->table_lost));
        add(buf, size, &at, t);
    }
    if (s->saturated_arcs) {
        snprintf(t, sizeof(t), "%" PRIu64 " arc count%s saturated", s->saturated_arcs, plural(s->saturated_arcs));
        add(buf, size, &at, t);
    }
    if (at == 0)
        snprintf(buf, size, "nothing lost");
    if (!s->missed_known) {
        at = strlen(buf);
        add(buf, size, &at, "missed periods not measurable (no clock)");
    }
    return top_span_calls_lost(s) || top_span_samples_lost(s) || s->missed || s->held || s->table_lost ||
           s->saturated_arcs;
}

static int cmp_parts(const void *pa, const void *pb)
{
    const struct top_part *a = pa, *b = pb;

    if (a->samples != b->samples)
        return a->samples > b->samples ? -1 : 1;
    return strcmp(a->name, b->name);
}

void top_parts_line(const struct top_parts *ps, char *buf, size_t size)
{
    struct top_part p[TOP_PARTS];
    size_t i, at = 0;
    char t[120];

    buf[0] = '\0';
    memcpy(p, ps->p, ps->n * sizeof(p[0]));
    mp_sort(p, ps->n, sizeof(p[0]), cmp_parts);
    for (i = 0; i < ps->n && p[i].samples; i++) {
        double lo, hi, share = top_share((double)p[i].samples, ps->total, ps->total, &lo, &hi);

        snprintf(t, sizeof(t), "%s %.1f %% [%.1f, %.1f]", mp_esc(p[i].name), share, lo, hi);
        add(buf, size, &at, t);
    }
    if (ps->n == 0 || !p[0].samples)
        snprintf(buf, size, "no samples");
}

void top_time(time_t t, char *buf, size_t size)
{
    struct tm tm;

    if (!gmtime_r(&t, &tm) || !strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm))
        snprintf(buf, size, "%lld", (long long)t);
}

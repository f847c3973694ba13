/*
 * profile_diff.c - two profiles matched by function name and compared
 * (profile_diff.h).
 */
#include "profile_diff.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "dwarf_cu.h"
#include "image_read.h"
#include "sort.h"

/* A function of either side, while keys are made and matched. */
struct entry {
    const char *name, *key, *file;
    uint64_t addr;
    long idx;
    int side; /* 0: A, 1: B */
};

struct arc_entry {
    const char *caller, *callee;
    uint64_t count;
    int side;
    unsigned char saturated;
};

double mp_diff_ztest(double ka, double na, double kb, double nb, double *z)
{
    double p, se;

    *z = 0.0;
    if (na <= 0.0 || nb <= 0.0)
        return 1.0;
    p = (ka + kb) / (na + nb);
    se = sqrt(p * (1.0 - p) * (1.0 / na + 1.0 / nb));
    /* p is 0 or 1 only when both shares are: no change to test */
    if (!(se > 0.0))
        return 1.0;
    *z = (kb / nb - ka / na) / se;
    return erfc(fabs(*z) / sqrt(2.0));
}

double mp_diff_rate_test(double ka, double ra, double kb, double rb, double *z)
{
    double n = ka + kb, q;

    *z = 0.0;
    if (!(n > 0.0) || !(ra > 0.0) || !(rb > 0.0))
        return 1.0;
    /* equal time T: ka ~ Poisson(T ra), kb ~ Poisson(T rb); given their
     * sum n, kb ~ Binomial(n, rb / (ra + rb)) */
    q = rb / (ra + rb);
    *z = (kb - n * q) / sqrt(n * q * (1.0 - q));
    return erfc(fabs(*z) / sqrt(2.0));
}

static int cmp_str(const char *a, const char *b)
{
    return strcmp(a, b);
}

static int cmp_name(const void *pa, const void *pb)
{
    const struct entry *a = pa, *b = pb;
    int c = cmp_str(a->name, b->name);

    if (!c)
        c = a->side - b->side;
    if (!c)
        c = a->addr < b->addr ? -1 : a->addr > b->addr;
    return c;
}

static int cmp_key(const void *pa, const void *pb)
{
    const struct entry *a = pa, *b = pb;
    int c = cmp_str(a->key, b->key);

    return c ? c : a->side - b->side;
}

static int cmp_arc(const void *pa, const void *pb)
{
    const struct arc_entry *a = pa, *b = pb;
    int c = cmp_str(a->caller, b->caller);

    if (!c)
        c = cmp_str(a->callee, b->callee);
    return c ? c : a->side - b->side;
}

static const char *make_key(struct mp_model *m, const char *name, const char *file, unsigned rank)
{
    size_t n = strlen(name) + (file ? strlen(file) : 0) + 24;
    char *k = mp_model_alloc(m, n);

    if (!k)
        return NULL;
    if (file)
        snprintf(k, n, "%s (%s)", name, file);
    else
        snprintf(k, n, "%s#%u", name, rank);
    return k;
}

/* The files of the entries E[0..N-1] that share a name with another
 * function of their side, by their compilation unit (or the model's own
 * record of the file). */
static int find_files(struct mp_model *m[2], struct entry *e, size_t n)
{
    long *idx = malloc((n ? n : 1) * sizeof(*idx));
    const char **file = malloc((n ? n : 1) * sizeof(*file));
    size_t *pos = malloc((n ? n : 1) * sizeof(*pos));
    int side, ret = 0;
    size_t i, k;

    if (!idx || !file || !pos) {
        ret = mp_error(m[0]->name, "out of memory matching %zu functions by file", n);
        goto out;
    }
    for (side = 0; side < 2 && ret == 0; side++) {
        for (i = k = 0; i < n; i++) {
            if (e[i].side == side && !e[i].key) {
                idx[k] = e[i].idx;
                pos[k++] = i;
            }
        }
        if (k == 0)
            continue;
        ret = mp_dwarf_cu_files(m[side], idx, k, file);
        for (i = 0; i < k && ret == 0; i++)
            e[pos[i]].file = file[i] ? file[i] : m[side]->funcs[idx[i]].file;
    }
out:
    free(idx);
    free(file);
    free(pos);
    return ret;
}

/* Whether every entry of group G[0..N-1] has a file, distinct within its side. */
static int files_tell_apart(const struct entry *g, size_t n)
{
    size_t i, j;

    for (i = 0; i < n; i++) {
        if (!g[i].file)
            return 0;
        for (j = i + 1; j < n; j++)
            if (g[j].side == g[i].side && strcmp(g[j].file, g[i].file) == 0)
                return 0;
    }
    return 1;
}

/* Give every entry its key: the bare name unless a side has two
 * functions of that name (see profile_diff.h). E is sorted by name. */
static int make_keys(struct mp_diff *d, struct mp_model *m[2], struct entry *e, size_t n)
{
    size_t i, j, k;

    for (i = 0; i < n; i = j) {
        size_t per[2] = {0, 0};

        for (j = i; j < n && strcmp(e[j].name, e[i].name) == 0; j++)
            per[e[j].side]++;
        if (per[0] <= 1 && per[1] <= 1)
            for (k = i; k < j; k++)
                e[k].key = e[k].name;
    }
    if (find_files(m, e, n) < 0)
        return -1;
    for (i = 0; i < n; i = j) {
        unsigned rank[2] = {0, 0};
        int by_file;

        for (j = i; j < n && strcmp(e[j].name, e[i].name) == 0; j++)
            ;
        if (e[i].key)
            continue;
        by_file = files_tell_apart(e + i, j - i);
        if (by_file)
            d->by_file++;
        else
            d->by_position++;
        /* sorted by side, then address: the rank is the address order */
        for (k = i; k < j; k++) {
            e[k].key = make_key(m[e[k].side], e[k].name, by_file ? e[k].file : NULL, ++rank[e[k].side]);
            if (!e[k].key)
                return -1;
        }
    }
    return 0;
}

static void fill_stats(struct mp_diff *d, struct mp_diff_func *f)
{
    const struct mp_model *a = d->a, *b = d->b;
    double ra = a->sample_rate_hz, rb = b->sample_rate_hz;

    f->samples_a = f->fa >= 0 ? a->funcs[f->fa].self : 0.0;
    f->samples_b = f->fb >= 0 ? b->funcs[f->fb].self : 0.0;
    f->calls_a = f->fa >= 0 ? a->funcs[f->fa].calls : 0;
    f->calls_b = f->fb >= 0 ? b->funcs[f->fb].calls : 0;
    f->share_a = d->total_a > 0.0 ? f->samples_a / d->total_a : 0.0;
    f->share_b = d->total_b > 0.0 ? f->samples_b / d->total_b : 0.0;
    f->tested = f->samples_a > 0.0 || f->samples_b > 0.0;
    f->share_p = mp_diff_ztest(f->samples_a, d->total_a, f->samples_b, d->total_b, &f->share_z);
    /* without both rates, samples stand for time: the rates are taken equal */
    if (!d->seconds)
        ra = rb = 1.0;
    f->time_a = f->samples_a / ra;
    f->time_b = f->samples_b / rb;
    f->time_p = mp_diff_rate_test(f->samples_a, ra, f->samples_b, rb, &f->time_z);
}

static int match_funcs(struct mp_diff *d, struct entry *e, size_t n)
{
    size_t i, j;

    mp_sort(e, n, sizeof(*e), cmp_key);
    if (!(d->funcs = calloc(n ? n : 1, sizeof(*d->funcs))))
        return mp_error(d->a->name, "out of memory comparing %zu functions", n);
    for (i = 0; i < n; i = j) {
        struct mp_diff_func *f = &d->funcs[d->nfuncs++];

        f->key = e[i].key;
        f->fa = f->fb = -1;
        /* keys are unique within a side: at most one of each */
        for (j = i; j < n && strcmp(e[j].key, e[i].key) == 0 && (j == i || e[j].side != e[i].side); j++) {
            if (e[j].side == 0)
                f->fa = e[j].idx;
            else
                f->fb = e[j].idx;
        }
    }
    for (i = 0; i < d->nfuncs; i++) {
        fill_stats(d, &d->funcs[i]);
        d->ntested += d->funcs[i].tested;
    }
    d->alpha_each = d->alpha / (double)(d->ntested ? d->ntested : 1);
    for (i = 0; i < d->nfuncs; i++) {
        struct mp_diff_func *f = &d->funcs[i];

        f->share_sig = f->tested && f->share_p < d->alpha_each;
        f->time_sig = f->tested && f->time_p < d->alpha_each;
    }
    return 0;
}

static const char *arc_end(const char *const *keys, long fn)
{
    return fn >= 0 ? keys[fn] : MP_DIFF_NOWHERE;
}

static int match_arcs(struct mp_diff *d, const char **keys[2])
{
    const struct mp_model *m[2] = {d->a, d->b};
    size_t n = m[0]->narcs + m[1]->narcs, i, j, k = 0;
    struct arc_entry *e = malloc((n ? n : 1) * sizeof(*e));
    int side;

    if (!e || !(d->arcs = calloc(n ? n : 1, sizeof(*d->arcs)))) {
        free(e);
        return mp_error(d->a->name, "out of memory comparing %zu arcs", n);
    }
    for (side = 0; side < 2; side++) {
        for (i = 0; i < m[side]->narcs; i++, k++) {
            const struct mp_model_arc *a = &m[side]->arcs[i];

            e[k].caller = a->callsite == 0 ? MP_DIFF_SPONTANEOUS : arc_end(keys[side], a->caller);
            e[k].callee = arc_end(keys[side], a->callee_fn);
            e[k].count = a->count;
            e[k].side = side;
            e[k].saturated = a->saturated;
        }
    }
    mp_sort(e, n, sizeof(*e), cmp_arc);
    for (i = 0; i < n; i = j) {
        struct mp_diff_arc *a = &d->arcs[d->narcs++];

        a->caller = e[i].caller;
        a->callee = e[i].callee;
        /* several call sites of one caller add up into one arc */
        for (j = i; j < n && strcmp(e[j].caller, e[i].caller) == 0 && strcmp(e[j].callee, e[i].callee) == 0; j++) {
            uint64_t *c = e[j].side ? &a->count_b : &a->count_a;

            *c = e[j].count > UINT64_MAX - *c ? UINT64_MAX : *c + e[j].count;
            if (e[j].side)
                a->in_b = 1;
            else
                a->in_a = 1;
            a->saturated |= e[j].saturated;
        }
    }
    free(e);
    return 0;
}

/* A machine of 0 (a gmon.out without its ELF) matches any. */
static int same_machine(const struct mp_model *a, const struct mp_model *b)
{
    const char *an = mp_machine_name(a->machine), *bn = mp_machine_name(b->machine);

    if (a->machine && b->machine && a->machine != b->machine)
        return mp_error(b->name, "machine %u (%s) differs from %s's machine %u (%s): profiles of different "
                                 "machines are not compared",
                        (unsigned)b->machine, bn ? bn : "unknown", a->name, (unsigned)a->machine,
                        an ? an : "unknown");
    if (a->ptr_size && b->ptr_size && a->ptr_size != b->ptr_size)
        return mp_error(b->name, "%u-byte addresses differ from %s's %u-byte addresses: profiles of different "
                                 "machines are not compared",
                        b->ptr_size, a->name, a->ptr_size);
    return 0;
}

int mp_diff_compute(struct mp_diff *d, struct mp_model *a, struct mp_model *b, double alpha)
{
    struct mp_model *m[2] = {a, b};
    const char **keys[2] = {NULL, NULL};
    struct entry *e;
    size_t n = 0, i;
    int side, ret = -1;

    memset(d, 0, sizeof(*d));
    if (same_machine(a, b) < 0)
        return -1;
    d->a = a;
    d->b = b;
    d->alpha = alpha;
    d->total_a = (double)mp_model_samples_total(a);
    d->total_b = (double)mp_model_samples_total(b);
    d->seconds = a->sample_rate_hz && b->sample_rate_hz;
    if (!(e = malloc((a->nfuncs + b->nfuncs + 1) * sizeof(*e))))
        return mp_error(a->name, "out of memory comparing %zu and %zu functions", a->nfuncs, b->nfuncs);
    for (side = 0; side < 2; side++) {
        if (!(keys[side] = calloc(m[side]->nfuncs + 1, sizeof(*keys[side])))) {
            mp_error(m[side]->name, "out of memory for %zu function names", m[side]->nfuncs);
            goto out;
        }
        for (i = 0; i < m[side]->nfuncs; i++) {
            const struct mp_model_func *f = &m[side]->funcs[i];

            /* an arc may still name a hidden function (mcount): by its name */
            keys[side][i] = f->name;
            if (f->hidden)
                continue;
            memset(&e[n], 0, sizeof(e[n]));
            e[n].name = f->name;
            e[n].addr = f->addr;
            e[n].idx = (long)i;
            e[n].side = side;
            n++;
        }
    }
    mp_sort(e, n, sizeof(*e), cmp_name);
    if (make_keys(d, m, e, n) < 0)
        goto out;
    for (i = 0; i < n; i++)
        keys[e[i].side][e[i].idx] = e[i].key;
    if (match_funcs(d, e, n) < 0 || match_arcs(d, keys) < 0)
        goto out;
    ret = 0;
out:
    free(e);
    free(keys[0]);
    free(keys[1]);
    if (ret < 0)
        mp_diff_free(d);
    return ret;
}

void mp_diff_free(struct mp_diff *d)
{
    free(d->funcs);
    free(d->arcs);
    memset(d, 0, sizeof(*d));
}

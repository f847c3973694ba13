/*
 * clone_group.c - GCC's clones and cold parts shown on their own or with
 * the source function they come from (model.h: mp_model_find_groups,
 * mp_model_group_clones).
 *
 * Each clone is a function with its own code, calls and hook: shown on
 * its own, its time and calls are its own (what the ELF and a
 * disassembly say). Grouped, foo, foo.constprop.0, foo.part.0 and
 * foo.cold are one function foo, as the source has it: a call into
 * foo.part.0 from a caller that inlined foo's head is a call of foo, a
 * call into it from foo itself is foo's own body at work.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clone_names.h"
#include "diag.h"
#include "model.h"
#include "sort.h"

static int clone_view_grouped;

void mp_model_set_clone_view(int grouped)
{
    clone_view_grouped = grouped != 0;
}

int mp_model_clone_view_grouped(void)
{
    return clone_view_grouped;
}

const char *mp_model_clone_view(const struct mp_model *m, char *buf, size_t size)
{
    if (!m->nclones)
        return NULL;
    snprintf(buf, size, "%zu GCC clones and cold parts, %s", m->nclones,
             m->clones_grouped ? "grouped with their origin" : "each its own function (--group-clones: with their origin)");
    return buf;
}

long mp_model_shown(const struct mp_model *m, long i)
{
    return m->clones_grouped && i >= 0 && (size_t)i < m->nfuncs ? m->funcs[i].group : i;
}

struct entry {
    const char *name;
    size_t len; /* of the origin */
    size_t idx;
    int clone;
};

static int cmp_entry(const void *x, const void *y)
{
    const struct entry *l = x, *r = y;
    size_t n = l->len < r->len ? l->len : r->len;
    int c = strncmp(l->name, r->name, n);

    if (c)
        return c;
    if (l->len != r->len)
        return l->len < r->len ? -1 : 1;
    if (l->clone != r->clone)
        return l->clone - r->clone; /* the origin itself first */
    return l->idx < r->idx ? -1 : l->idx > r->idx;
}

int mp_model_find_groups(struct mp_model *m)
{
    struct entry *e;
    size_t i, k;

    m->nclones = 0;
    if (!m->nfuncs)
        return 0;
    if (!(e = calloc(m->nfuncs, sizeof(*e))))
        return mp_error(m->name, "out of memory grouping %zu functions", m->nfuncs);
    /* the ELF's spelling: a demangled C++ name writes the suffix its own way */
    for (i = 0; i < m->nfuncs; i++) {
        e[i].name = mp_model_func_symbol(&m->funcs[i]);
        e[i].len = mp_clone_origin_len(e[i].name);
        e[i].idx = i;
        e[i].clone = e[i].name[e[i].len] != '\0';
        m->funcs[i].group = (long)i;
        m->funcs[i].clone = (unsigned char)e[i].clone;
        m->nclones += (size_t)e[i].clone;
    }
    mp_sort(e, m->nfuncs, sizeof(*e), cmp_entry);
    for (i = 0; i < m->nfuncs; i = k) {
        size_t origins = 0, j;

        for (k = i; k < m->nfuncs && e[k].len == e[i].len && strncmp(e[k].name, e[i].name, e[i].len) == 0; k++)
            origins += (size_t)!e[k].clone;
        /* Two functions of that name (statics of two files): whose clone
         * it is cannot be told from the name, so each stays apart. */
        if (origins > 1)
            continue;
        for (j = i; j < k; j++)
            m->funcs[e[j].idx].group = (long)e[i].idx;
    }
    free(e);
    return 0;
}

/* Whether a function is named as the first LEN bytes of NAME. */
static int named_as(const struct mp_model *m, const char *name, size_t len)
{
    size_t i;

    for (i = 0; i < m->nfuncs; i++) {
        const char *s = mp_model_func_symbol(&m->funcs[i]);

        if (strncmp(s, name, len) == 0 && s[len] == '\0')
            return 1;
    }
    return 0;
}

int mp_model_group_clones(struct mp_model *m)
{
    size_t i, n = 0;

    if (m->clones_grouped || !m->nfuncs)
        return 0;
    for (i = 0; i < m->nfuncs; i++) {
        struct mp_model_func *f = &m->funcs[i], *g = &m->funcs[f->group];

        if (f->group == (long)i) {
            const char *sym = mp_model_func_symbol(f);
            size_t len = mp_clone_origin_len(sym);

            /* the origin has no code of its own left: the group is named
             * after it (a static's clone whose origin is ambiguous keeps
             * its name) */
            if (f->clone && !named_as(m, sym, len)) {
                char *origin = mp_model_alloc(m, len + 1);

                if (!origin)
                    return -1;
                memcpy(origin, sym, len);
                if (mp_model_name_func(m, f, origin) < 0)
                    return -1;
            }
            continue;
        }
        g->self += f->self;
        g->shared |= f->shared;
        f->self = 0.0;
        f->shared = 0;
    }
    for (i = 0; i < m->nfuncs; i++)
        m->funcs[i].calls = 0;
    for (i = 0; i < m->narcs; i++) {
        struct mp_model_arc a = m->arcs[i];
        long to = a.callee_fn;

        if (to >= 0 && a.caller >= 0 && m->funcs[a.caller].group == m->funcs[to].group &&
            a.caller != to && m->funcs[to].clone && mp_clone_is_piece(mp_model_func_symbol(&m->funcs[to]))) {
            m->internal_calls += a.count; /* into its own outlined body */
            continue;
        }
        a.caller = a.caller >= 0 ? m->funcs[a.caller].group : -1;
        a.callee_fn = to >= 0 ? m->funcs[to].group : -1;
        if (a.callee_fn >= 0)
            m->funcs[a.callee_fn].calls += a.count;
        m->arcs[n++] = a;
    }
    m->narcs = n;
    m->clones_grouped = 1;
    return 0;
}

int mp_model_own_piece(const struct mp_model *m, uint64_t outer, uint64_t inner)
{
    long o = mp_model_find_symbol(m, outer), i = mp_model_find_symbol(m, inner);

    return m->clones_grouped && o >= 0 && i >= 0 && o != i && m->funcs[o].group == m->funcs[i].group &&
           m->funcs[i].clone && mp_clone_is_piece(mp_model_func_symbol(&m->funcs[i]));
}

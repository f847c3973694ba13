/*
 * task_profile.c - one task's flat profile from its call paths
 * (task_profile.h). One pass over the paths; a per-function mark of the
 * last path that counted it keeps recursion from counting a path twice,
 * as path_incl.c does for the whole profile.
 */
#include "task_profile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "text_safe.h"

/* LABEL is called NAME: as the firmware spells it, or as the outputs show
 * it (text_safe.h), so a name copied from a report selects its task. */
static int called(const char *label, const char *name)
{
    return label && (strcmp(label, name) == 0 || strcmp(mp_esc(label), name) == 0);
}

static int path_in(const struct mp_model *m, const struct mp_model_path *p, const char *name)
{
    return called(mp_model_task_label(m, p->task), name);
}

int mp_task_profile_possible(const struct mp_model *m)
{
    size_t i;

    if (!m->has_paths || !m->has_tasks)
        return 0;
    for (i = 0; i < m->npaths; i++)
        if (m->paths[i].task >= 0)
            return 1;
    /* no path with a task: an older runtime's table, or nothing sampled */
    return m->ntasks > 0 && m->npaths == 0;
}

int mp_task_profile_known(const struct mp_model *m, const char *name)
{
    size_t i;

    for (i = 0; i < m->ntasks; i++)
        if (called(mp_model_task_label(m, (long)i), name))
            return 1;
    return 0;
}

void mp_task_profile_names(const struct mp_model *m, char *buf, size_t size)
{
    size_t len = 0, i, j;

    buf[0] = '\0';
    for (i = 0; i < m->ntasks && len < size; i++) {
        const char *label = mp_model_task_label(m, (long)i);

        for (j = 0; j < i && strcmp(mp_model_task_label(m, (long)j), label) != 0; j++)
            ;
        if (j < i)
            continue; /* listed already */
        len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? ", " : "", label);
    }
}

int mp_task_profile_compute(struct mp_task_profile *tp, const struct mp_model *m, const char *name)
{
    size_t n = m->nfuncs ? m->nfuncs : 1, i;
    size_t *mark;
    unsigned k;

    memset(tp, 0, sizeof(*tp));
    tp->self = calloc(n, sizeof(*tp->self));
    tp->incl = calloc(n, sizeof(*tp->incl));
    mark = calloc(n, sizeof(*mark));
    if (!tp->self || !tp->incl || !mark) {
        free(mark);
        mp_task_profile_free(tp);
        return mp_error(m->name, "out of memory for %zu functions", m->nfuncs);
    }
    for (i = 0; i < m->ntasks && !tp->label; i++)
        if (called(mp_model_task_label(m, (long)i), name))
            tp->label = mp_model_task_label(m, (long)i);
    for (i = 0; i < m->npaths; i++) {
        const struct mp_model_path *p = &m->paths[i];
        long inner = p->depth ? mp_model_find_func(m, p->frames[p->depth - 1]) : -1;

        if (!p->samples || !path_in(m, p, name))
            continue;
        tp->total += p->samples;
        if (p->context != MCUPROF_PATH_NO_CONTEXT && p->context != MCUPROF_CTX_THREAD)
            tp->in_handlers += p->samples;
        if (inner < 0)
            tp->no_function += p->samples;
        else
            tp->self[inner] += p->samples;
        for (k = 0; k < p->depth; k++) {
            long fn = mp_model_find_func(m, p->frames[k]);

            if (fn < 0 || mark[fn] == i + 1)
                continue;
            mark[fn] = i + 1;
            tp->incl[fn] += p->samples;
        }
    }
    free(mark);
    return 0;
}

void mp_task_profile_free(struct mp_task_profile *tp)
{
    free(tp->self);
    free(tp->incl);
    memset(tp, 0, sizeof(*tp));
}

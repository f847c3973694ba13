/*
 * model.c - the profile model's memory and the lookups every writer uses
 * (model.h). A model owns all its arrays and strings through one arena,
 * so a reader that fails half-way frees everything with mp_model_free.
 */
#include "model.h"

#include <stdlib.h>
#include <string.h>

#include "cxx_demangle.h"
#include "diag.h"

struct mp_arena {
    struct mp_arena *next;
    max_align_t data[];
};

int mp_model_init(struct mp_model *m, const char *name, enum mp_model_source source)
{
    memset(m, 0, sizeof(*m));
    m->name = name;
    m->source = source;
    return 0;
}

void *mp_model_alloc(struct mp_model *m, size_t size)
{
    struct mp_arena *a;

    if (size > SIZE_MAX - sizeof(*a) || !(a = calloc(1, sizeof(*a) + (size ? size : 1)))) {
        mp_error(m->name, "out of memory (%zu bytes)", size);
        return NULL;
    }
    a->next = m->arena;
    m->arena = a;
    return a->data;
}

const char *mp_model_strdup(struct mp_model *m, const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = mp_model_alloc(m, n);

    if (d)
        memcpy(d, s, n);
    return d;
}

int mp_model_name_func(struct mp_model *m, struct mp_model_func *f, const char *symbol)
{
    char *readable = mp_demangle(symbol);

    f->symbol = NULL;
    if (readable) {
        f->name = mp_model_strdup(m, readable);
        free(readable);
        if (!f->name || !(f->symbol = mp_model_strdup(m, symbol)))
            return -1;
        return 0;
    }
    return (f->name = mp_model_strdup(m, symbol)) ? 0 : -1;
}

void mp_model_free(struct mp_model *m)
{
    struct mp_arena *a = m->arena, *next;

    for (; a; a = next) {
        next = a->next;
        free(a);
    }
    memset(m, 0, sizeof(*m));
}

long mp_model_find_func(const struct mp_model *m, uint64_t addr)
{
    return mp_model_shown(m, mp_model_find_symbol(m, addr));
}

long mp_model_find_symbol(const struct mp_model *m, uint64_t addr)
{
    size_t lo = 0, hi = m->nfuncs;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (m->funcs[mid].end <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < m->nfuncs && m->funcs[lo].addr <= addr && addr < m->funcs[lo].end)
        return (long)lo;
    return -1;
}

void mp_model_time_seen(const struct mp_model *m, struct mp_time_seen *t)
{
    const struct mp_model_counters *c = &m->c;

    mp_time_seen(t, c->samples_taken, c->missed_periods, c->timing_flags, m->held.samples, m->held.periods,
                 c->binned + c->lost[MP_LOST_SAMPLES_OUT_OF_RANGE] + c->lost[MP_LOST_SAMPLES_SATURATED] +
                     c->lost[MP_LOST_SAMPLES_FROZEN]);
}

uint64_t mp_model_charged(const struct mp_model *m)
{
    struct mp_time_seen t;

    mp_model_time_seen(m, &t);
    return t.charged;
}

uint64_t mp_model_samples_total(const struct mp_model *m)
{
    struct mp_time_seen t;

    mp_model_time_seen(m, &t);
    return t.taken;
}

uint64_t mp_model_path_samples(const struct mp_model *m)
{
    uint64_t sum = m->paths_lost;
    size_t i;

    for (i = 0; i < m->npaths; i++)
        sum += m->paths[i].samples;
    return sum;
}

/*
 * strtab.c - distinct strings by index (strtab.h).
 */
#include "strtab.h"

#include <stdlib.h>
#include <string.h>

#include "grow.h"

void mp_strtab_init(struct mp_strtab *t)
{
    memset(t, 0, sizeof(*t));
}

void mp_strtab_free(struct mp_strtab *t)
{
    size_t i;

    for (i = 0; i < t->n; i++)
        free(t->s[i]);
    free(t->s);
    free(t->slot);
    mp_strtab_init(t);
}

/* FNV-1a: short, and spreads the similar names of one program well. */
static uint64_t hash(const char *s)
{
    uint64_t h = 14695981039346656037u;

    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    return h;
}

static size_t find_slot(const struct mp_strtab *t, const char *s)
{
    size_t mask = t->nslots - 1, i = (size_t)hash(s) & mask;

    while (t->slot[i] && strcmp(t->s[t->slot[i] - 1], s) != 0)
        i = (i + 1) & mask;
    return i;
}

/* Double the slots (rehashing every string) once they are half full, so
 * probes stay short. */
static int grow(struct mp_strtab *t)
{
    size_t i, nslots = t->nslots ? t->nslots * 2 : 64;
    uint32_t *old = t->slot;

    if (nslots > SIZE_MAX / sizeof(*t->slot) || !(t->slot = calloc(nslots, sizeof(*t->slot)))) {
        t->slot = old;
        return -1;
    }
    free(old);
    t->nslots = nslots;
    for (i = 0; i < t->n; i++)
        t->slot[find_slot(t, t->s[i])] = (uint32_t)(i + 1);
    return 0;
}

int64_t mp_strtab_add(struct mp_strtab *t, const char *s)
{
    size_t i, len;
    char *copy;

    if (t->nslots && t->slot[i = find_slot(t, s)])
        return (int64_t)t->slot[i] - 1;
    if (t->n >= UINT32_MAX - 1)
        return -1;
    if ((t->n + 1) * 2 > t->nslots && grow(t) < 0)
        return -1;
    if (t->n == t->cap && mp_grow(&t->s, &t->cap, sizeof(*t->s), 64))
        return -1;
    len = strlen(s) + 1;
    if (!(copy = malloc(len)))
        return -1;
    memcpy(copy, s, len);
    t->s[t->n++] = copy;
    t->slot[find_slot(t, s)] = (uint32_t)t->n;
    return (int64_t)t->n - 1;
}

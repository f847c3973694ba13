/*
 * registry.c - a table in rank order (registry.h), sorted on first use. A
 * handful of entries: an insertion sort, which needs no comparison
 * function per kind of entry.
 */
#include "registry.h"

static unsigned rank_of(const struct mp_registry *r, const void *entry)
{
    return *(const unsigned *)((const char *)entry + r->rank_offset);
}

const void *mp_registry_at(struct mp_registry *r, size_t i)
{
    size_t k, j;

    if (!r->sorted) {
        for (k = 1; k < r->n; k++) {
            const void *e = r->table[k];

            for (j = k; j > 0 && rank_of(r, r->table[j - 1]) > rank_of(r, e); j--)
                r->table[j] = r->table[j - 1];
            r->table[j] = e;
        }
        r->sorted = 1;
    }
    return i < r->n ? r->table[i] : NULL;
}

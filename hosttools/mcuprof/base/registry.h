/*
 * registry.h - a table built from one file an entry (the formats, the
 * transports): the build lists the files in the order of their names, the
 * table gives its entries in the order of the ranks they give themselves.
 */
#ifndef MCUPROF_REGISTRY_H
#define MCUPROF_REGISTRY_H

#include <stddef.h>

struct mp_registry {
    const void **table; /* pointers to the entries */
    size_t n;
    size_t rank_offset; /* of each entry's unsigned rank: offsetof */
    int sorted;
};

/* A registry of TABLE, an array of pointers to TYPE, which has a member
 * `unsigned rank`. */
#define MP_REGISTRY(table, type) {(table), sizeof(table) / sizeof((table)[0]), offsetof(type, rank), 0}

/* Entry I in rank order, lowest first (equal ranks keep the files' order),
 * or NULL past the end. */
const void *mp_registry_at(struct mp_registry *r, size_t i);

#endif /* MCUPROF_REGISTRY_H */

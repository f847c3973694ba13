/*
 * sort.h - a stable sort and a binary search for the tool's tables, the
 * same on every host (sort.c says why), which may be empty.
 *
 * C11 (7.22.5) wants a valid array pointer even for 0 items, and an empty
 * table here is often NULL (nothing allocated): qsort(NULL, 0, ...) is
 * undefined behaviour (UBSan stops on it). These do nothing for fewer
 * than 2 items (mp_sort) and find nothing in 0 (mp_bsearch).
 */
#ifndef MCUPROF_SORT_H
#define MCUPROF_SORT_H

#include <stddef.h>

void mp_sort(void *items, size_t n, size_t item_size, int (*cmp)(const void *, const void *));
void *mp_bsearch(const void *key, const void *items, size_t n, size_t item_size,
                 int (*cmp)(const void *, const void *));

#endif /* MCUPROF_SORT_H */

/*
 * sort.h - a stable sort and bsearch for the tool's tables, which may be
 * empty.
 *
 * C11 (7.22.5) wants a valid array pointer even for 0 items, and an empty
 * table here is often NULL (nothing allocated): qsort(NULL, 0, ...) is
 * undefined behaviour (UBSan stops on it). These do nothing for fewer
 * than 2 items (mp_sort) and find nothing in 0 (mp_bsearch).
 *
 * mp_sort is stable: items that compare equal keep their order, so a
 * table sorted here, and every output made from it, is the same on every
 * C library (glibc 2.36's qsort happens to be stable, Windows' and later
 * glibc's are not). It needs memory for half the table, and falls back
 * to qsort without it.
 */
#ifndef MCUPROF_SORT_H
#define MCUPROF_SORT_H

#include <stddef.h>

void mp_sort(void *items, size_t n, size_t item_size, int (*cmp)(const void *, const void *));
void *mp_bsearch(const void *key, const void *items, size_t n, size_t item_size,
                 int (*cmp)(const void *, const void *));

#endif /* MCUPROF_SORT_H */

/* sort.c - qsort and bsearch that take an empty table (sort.h). */
#include "sort.h"

#include <stdlib.h>

void mp_sort(void *items, size_t n, size_t item_size, int (*cmp)(const void *, const void *))
{
    if (n > 1)
        qsort(items, n, item_size, cmp);
}

void *mp_bsearch(const void *key, const void *items, size_t n, size_t item_size,
                 int (*cmp)(const void *, const void *))
{
    return n ? bsearch(key, items, n, item_size, cmp) : NULL;
}

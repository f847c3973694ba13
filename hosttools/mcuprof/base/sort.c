/* sort.c - a stable sort and a bsearch that take an empty table (sort.h). */
#include "sort.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Merge the sorted runs A[0..na) and A[na..n) of SIZE-byte items through
 * TMP (room for na items): the left run's item first on a tie. */
static void merge(unsigned char *a, size_t na, size_t n, size_t size, unsigned char *tmp,
                  int (*cmp)(const void *, const void *))
{
    unsigned char *left = tmp, *right = a + na * size, *end = a + n * size, *out = a;
    size_t nl = na;

    memcpy(tmp, a, na * size);
    while (nl > 0 && right < end) {
        if (cmp(right, left) < 0) {
            memmove(out, right, size);
            right += size;
        } else {
            memcpy(out, left, size);
            left += size;
            nl--;
        }
        out += size;
    }
    memcpy(out, left, nl * size); /* what is left of the right run is in place */
}

/* Sort A[0..n) by halves, each merged through TMP. */
static void merge_sort(unsigned char *a, size_t n, size_t size, unsigned char *tmp,
                       int (*cmp)(const void *, const void *))
{
    size_t half = n / 2;

    if (n < 2)
        return;
    merge_sort(a, half, size, tmp, cmp);
    merge_sort(a + half * size, n - half, size, tmp, cmp);
    if (cmp(a + (half - 1) * size, a + half * size) > 0)
        merge(a, half, n, size, tmp, cmp);
}

/* Stable: items that compare equal keep their order, so every output is
 * the same on every C library (glibc's qsort merges, Windows' and newer
 * glibc's do not). Without memory for the merge, qsort. */
void mp_sort(void *items, size_t n, size_t item_size, int (*cmp)(const void *, const void *))
{
    unsigned char *tmp;

    if (n < 2)
        return;
    tmp = n / 2 <= SIZE_MAX / item_size ? malloc(n / 2 * item_size) : NULL;
    if (!tmp) {
        qsort(items, n, item_size, cmp);
        return;
    }
    merge_sort(items, n, item_size, tmp, cmp);
    free(tmp);
}

void *mp_bsearch(const void *key, const void *items, size_t n, size_t item_size,
                 int (*cmp)(const void *, const void *))
{
    return n ? bsearch(key, items, n, item_size, cmp) : NULL;
}

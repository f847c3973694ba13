/*
 * sort.c - a stable sort and a binary search of the tool's own (sort.h),
 * so that every host orders equal items alike.
 *
 * The C library's qsort may order items that compare equal in any order:
 * glibc's merges (stable), msvcrt's and others' do not, and which of two
 * symbols at one address a report names followed. A stable sort's result
 * is fixed by the comparison alone, so this one gives what glibc gave,
 * on every host. bsearch likewise may return any of several equal items:
 * this one probes as glibc's does (the middle of what is left).
 */
#include "sort.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Sort A (N items of SIZE bytes) using TMP (as large) for the merges. */
static void merge_sort(unsigned char *a, unsigned char *tmp, size_t n, size_t size,
                       int (*cmp)(const void *, const void *))
{
    size_t n1 = n / 2, n2 = n - n1, i = 0, j = 0, k = 0;
    unsigned char *b = a + n1 * size;

    if (n < 2)
        return;
    merge_sort(a, tmp, n1, size, cmp);
    merge_sort(b, tmp, n2, size, cmp);
    if (cmp(a + (n1 - 1) * size, b) <= 0)
        return; /* already in order */
    while (i < n1 && j < n2) {
        /* <= takes the left one first: equal items keep their order */
        if (cmp(a + i * size, b + j * size) <= 0)
            memcpy(tmp + k++ * size, a + i++ * size, size);
        else
            memcpy(tmp + k++ * size, b + j++ * size, size);
    }
    memcpy(tmp + k * size, a + i * size, (n1 - i) * size);
    k += n1 - i;
    /* what is left of the right half is in place already */
    memcpy(a, tmp, k * size);
}

/* Without memory for the merges: insertion, as stable, slower. */
static void insertion_sort(unsigned char *a, size_t n, size_t size, int (*cmp)(const void *, const void *),
                           unsigned char *one)
{
    for (size_t i = 1; i < n; i++) {
        size_t j = i;

        memcpy(one, a + i * size, size);
        while (j > 0 && cmp(a + (j - 1) * size, one) > 0)
            j--;
        memmove(a + (j + 1) * size, a + j * size, (i - j) * size);
        memcpy(a + j * size, one, size);
    }
}

void mp_sort(void *items, size_t n, size_t item_size, int (*cmp)(const void *, const void *))
{
    unsigned char *tmp;

    if (n < 2 || item_size == 0)
        return;
    if (n <= SIZE_MAX / item_size && (tmp = malloc(n * item_size)) != NULL) {
        merge_sort(items, tmp, n, item_size, cmp);
        free(tmp);
        return;
    }
    if ((tmp = malloc(item_size)) != NULL) {
        insertion_sort(items, n, item_size, cmp, tmp);
        free(tmp);
        return;
    }
    qsort(items, n, item_size, cmp); /* no memory at all: in order, at least */
}

void *mp_bsearch(const void *key, const void *items, size_t n, size_t item_size,
                 int (*cmp)(const void *, const void *))
{
    size_t lo = 0, hi = n;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const unsigned char *p = (const unsigned char *)items + mid * item_size;
        int c = cmp(key, p);

        if (c < 0)
            hi = mid;
        else if (c > 0)
            lo = mid + 1;
        else
            return (void *)p;
    }
    return NULL;
}

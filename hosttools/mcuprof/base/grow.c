/* grow.c - a doubling array's next size (grow.h). */
#include "grow.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

size_t mp_grow(void *items, size_t *cap, size_t item_size, size_t first)
{
    size_t want = *cap ? *cap * 2 : first;
    void *old, *p = NULL;

    /* the caller's pointer is of its own item type: read and written as
     * bytes, which every object pointer's representation allows here */
    memcpy(&old, items, sizeof(old));
    if (want <= SIZE_MAX / item_size)
        p = realloc(old, want * item_size);
    if (!p)
        return want;
    memcpy(items, &p, sizeof(p));
    *cap = want;
    return 0;
}

/*
 * json_vec.c - the JSON reader's growable arrays (json_read.h): items are
 * gathered while the document is read, then copied into the model's
 * memory in one piece.
 */
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "json_read.h"

void *jr_vec_push(struct rd *r, struct vec *v)
{
    void *slot;

    if (v->n == v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 16;
        void *p;

        if (cap > SIZE_MAX / v->size || !(p = realloc(v->p, cap * v->size))) {
            mp_error(r->m->name, "out of memory for %zu items", cap);
            return NULL;
        }
        v->p = p;
        v->cap = cap;
    }
    slot = (char *)v->p + v->n++ * v->size;
    memset(slot, 0, v->size);
    return slot;
}

/* V's items into the model's memory (NULL when there are none and
 * NONEMPTY is 0, as the other readers leave an empty table). */
int jr_vec_keep(struct rd *r, struct vec *v, void *out, size_t *n, int nonempty)
{
    void *p = NULL;

    if (v->n || nonempty) {
        if (!(p = mp_model_alloc(r->m, (v->n ? v->n : 1) * v->size)))
            return -1;
        if (v->n)
            memcpy(p, v->p, v->n * v->size);
    }
    memcpy(out, &p, sizeof(p));
    *n = v->n;
    v->n = 0;
    return 0;
}

void jr_vec_init(struct vec *v, size_t size)
{
    memset(v, 0, sizeof(*v));
    v->size = size;
}

/*
 * json_read_arcs.c - the JSON document's arcs (json_read.h): call site,
 * callee, count and saturation; callers' and callees' names are derived
 * (found again from the functions).
 */
#include "json_read.h"

static int read_arc(struct rd *r, const char *where)
{
    static const char *const keys[] = {"callsite", "callee", "count", "saturated", NULL};
    size_t off = mp_jp_offset(&r->p);
    struct mp_model_arc *a;
    uint32_t seen = 0;
    int k, idx;

    if (!(a = jr_vec_push(r, &r->arcs)) || mp_jp_object(&r->p, where, NULL) < 0)
        return -1;
    while ((k = jr_member(r, where, keys, &seen, &idx)) == 1) {
        switch (idx) {
        case 0: k = jr_addr(r, where, "callsite", &a->callsite); break;
        case 1: k = jr_addr(r, where, "callee", &a->callee); break;
        case 2: k = jr_u64(r, where, "count", &a->count); break;
        case 3: k = jr_flag(r, where, "saturated", &a->saturated); break;
        default: k = mp_jp_skip(&r->p, where, r->p.key); break; /* caller, callee_name: derived */
        }
        if (k < 0)
            return -1;
    }
    return k < 0 ? -1 : jr_required(r, off, where, keys, seen, 0xf);
}

int jr_read_arcs(struct rd *r)
{
    return jr_read_list(r, "arcs", read_arc);
}

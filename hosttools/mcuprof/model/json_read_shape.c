/*
 * json_read_shape.c - the parts of the JSON document the rest is read
 * against (json_read.h, passes 0 and 1): the schema, the machine, the
 * bin size and the counter width.
 */
#include <inttypes.h>
#include <string.h>

#include "json_read.h"
#include "model_json.h"

/* Bin sizes beyond this cannot be shifted in 32 bits (pprof's writer);
 * gmon.out's (model_gmon.c) stay below it. */
#define BIN_SHIFT_LIMIT 31u

int jr_read_schema(struct rd *r)
{
    size_t off = mp_jp_offset(&r->p);
    const char *s;

    if (mp_jp_string(&r->p, "", "schema", &s) < 0)
        return -1;
    if (strcmp(s, MP_JSON_SCHEMA) != 0)
        return mp_jp_fail(&r->p, off, "schema \"%.60s\" is not \"" MP_JSON_SCHEMA "\": not a profile of mcuprof",
                          s);
    return 0;
}

int jr_read_machine(struct rd *r)
{
    static const char *const keys[] = {"e_machine", "ptr_size", "big_endian", NULL};
    struct mp_model *m = r->m;
    size_t off = mp_jp_offset(&r->p);
    uint32_t seen = 0;
    uint64_t v;
    int k, idx;

    if (mp_jp_object(&r->p, "", "machine") < 0)
        return -1;
    while ((k = jr_member(r, "machine", keys, &seen, &idx)) == 1) {
        size_t voff = mp_jp_offset(&r->p);

        switch (idx) {
        case 0:
            k = mp_jp_uint(&r->p, "machine", "e_machine", UINT16_MAX, &v);
            m->machine = (uint16_t)v;
            break;
        case 1:
            k = mp_jp_uint(&r->p, "machine", "ptr_size", 8, &v);
            if (k == 0 && v != 4 && v != 8)
                k = mp_jp_fail(&r->p, voff, "machine.ptr_size: expected 4 or 8, got %" PRIu64, v);
            m->ptr_size = (unsigned)v;
            break;
        case 2:
            k = mp_jp_bool(&r->p, "machine", "big_endian", &m->big);
            break;
        default:
            k = mp_jp_skip(&r->p, "machine", r->p.key);
            break;
        }
        if (k < 0)
            return -1;
    }
    return k < 0 ? -1 : jr_required(r, off, "machine", keys, seen, 7);
}

int jr_read_shape_number(struct rd *r, int key)
{
    size_t off = mp_jp_offset(&r->p);
    uint64_t v;

    if (key == TOP_BIN_SHIFT) {
        if (mp_jp_uint(&r->p, "", "bin_shift", BIN_SHIFT_LIMIT, &v) < 0)
            return -1;
        if (v && v < MP_BIN_SHIFT_MIN)
            return mp_jp_fail(&r->p, off, "bin_shift: expected 0 (unknown) or %u to %u, got %" PRIu64,
                              MP_BIN_SHIFT_MIN, BIN_SHIFT_LIMIT, v);
        r->m->bin_shift = (unsigned)v;
        return 0;
    }
    if (mp_jp_uint(&r->p, "", "counter_bytes", 4, &v) < 0)
        return -1;
    if (v != 0 && v != 2 && v != 4)
        return mp_jp_fail(&r->p, off, "counter_bytes: expected 0 (unknown), 2 or 4, got %" PRIu64, v);
    r->m->counter_bytes = (unsigned)v;
    return 0;
}

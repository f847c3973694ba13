/*
 * json_read_elf.c - what the ELF added to the JSON document (json_read.h):
 * the functions in address order, gprof's attribution, the source lines
 * and the DWARF line table in address order.
 */
#include <inttypes.h>
#include <stdio.h>

#include "json_read.h"

static int read_function(struct rd *r, const char *where)
{
    static const char *const keys[] = {"name", "addr", "end", "size", "self", "calls", "hidden",
                                       "static", "shared", "file", "line", "symbol", NULL};
    size_t off = mp_jp_offset(&r->p), *foff;
    struct mp_model_func *f, *prev;
    uint32_t seen = 0;
    int k, idx;

    if (!(f = jr_vec_push(r, &r->funcs)) || !(foff = jr_vec_push(r, &r->func_off)))
        return -1;
    *foff = off;
    if (mp_jp_object(&r->p, where, NULL) < 0)
        return -1;
    while ((k = jr_member(r, where, keys, &seen, &idx)) == 1) {
        switch (idx) {
        case 0: k = jr_str(r, where, "name", &f->name, 0); break;
        case 1: k = jr_addr(r, where, "addr", &f->addr); break;
        case 2: k = jr_addr(r, where, "end", &f->end); break;
        case 3: k = jr_u64(r, where, "size", &f->size); break;
        case 4: k = jr_samples(r, where, "self", &f->self); break;
        case 5: k = jr_u64(r, where, "calls", &f->calls); break;
        case 6: k = jr_flag(r, where, "hidden", &f->hidden); break;
        case 7: k = jr_flag(r, where, "static", &f->is_static); break;
        case 8: k = jr_flag(r, where, "shared", &f->shared); break;
        case 9: k = jr_str(r, where, "file", &f->file, 1); break;
        case 10: k = jr_unsigned(r, where, "line", &f->line); break;
        case 11: k = jr_str(r, where, "symbol", &f->symbol, 0); break;
        default: k = mp_jp_skip(&r->p, where, r->p.key); break;
        }
        if (k < 0)
            return -1;
    }
    /* "symbol" is optional (documents before it held the symbol as the
     * name); the name shown is made from the symbol again, so the
     * reader's --no-demangle decides, not the writer's */
    if (k < 0 || jr_required(r, off, where, keys, seen, 0x7ff) < 0 ||
        mp_model_name_func(r->m, f, mp_model_func_symbol(f)) < 0)
        return -1;
    if (f->end < f->addr)
        return mp_jp_fail(&r->p, off, "%s: end 0x%" PRIx64 " is below addr 0x%" PRIx64, where, f->end, f->addr);
    /* mp_model_find_func searches them by address */
    prev = r->funcs.n > 1 ? f - 1 : NULL;
    if (prev && (f->addr <= prev->addr || f->addr < prev->end))
        return mp_jp_fail(&r->p, off,
                          "%s: addr 0x%" PRIx64 " is not above the previous function's 0x%" PRIx64 "..0x%" PRIx64
                          ": functions must be in address order and apart",
                          where, f->addr, prev->addr, prev->end);
    return 0;
}

int jr_read_clones(struct rd *r)
{
    static const char *const keys[] = {"grouped", "internal_calls", NULL};
    size_t off = mp_jp_offset(&r->p);
    uint32_t seen = 0;
    unsigned char grouped = 0;
    int k, idx;

    if (mp_jp_object(&r->p, "", "clones") < 0)
        return -1;
    while ((k = jr_member(r, "clones", keys, &seen, &idx)) == 1) {
        switch (idx) {
        case 0: k = jr_flag(r, "clones", "grouped", &grouped); break;
        case 1: k = jr_u64(r, "clones", "internal_calls", &r->m->internal_calls); break;
        default: k = mp_jp_skip(&r->p, "clones", r->p.key); break;
        }
        if (k < 0)
            return -1;
    }
    if (k < 0 || jr_required(r, off, "clones", keys, seen, 0x3) < 0)
        return -1;
    if (!grouped && r->m->internal_calls)
        return mp_jp_fail(&r->p, off, "clones: internal_calls %" PRIu64 " without grouped clones",
                          r->m->internal_calls);
    r->clones_grouped = grouped;
    return 0;
}

int jr_read_functions(struct rd *r)
{
    return jr_read_list(r, "functions", read_function);
}

int jr_read_attribution(struct rd *r)
{
    static const char *const keys[] = {"outside", "hidden", "gprof_total", "shared_samples", NULL};
    struct mp_model *m = r->m;
    size_t off = mp_jp_offset(&r->p);
    uint32_t seen = 0;
    int k, idx;

    if (mp_jp_object(&r->p, "", "attribution") < 0)
        return -1;
    while ((k = jr_member(r, "attribution", keys, &seen, &idx)) == 1) {
        switch (idx) {
        case 0: k = jr_samples(r, "attribution", "outside", &m->outside); break;
        case 1: k = jr_samples(r, "attribution", "hidden", &m->hidden); break;
        case 2: k = jr_samples(r, "attribution", "gprof_total", &m->gprof_total); break;
        case 3: k = jr_u64(r, "attribution", "shared_samples", &m->shared_samples); break;
        default: k = mp_jp_skip(&r->p, "attribution", r->p.key); break;
        }
        if (k < 0)
            return -1;
    }
    return k < 0 ? -1 : jr_required(r, off, "attribution", keys, seen, 0xf);
}

int jr_read_line(struct rd *r, const char *where)
{
    static const char *const keys[] = {"function_index", "file", "line", "addr", "samples", NULL};
    size_t off = mp_jp_offset(&r->p);
    struct mp_model_line *l;
    uint32_t seen = 0;
    uint64_t fn;
    int k, idx;

    if (!(l = jr_vec_push(r, &r->lines)) || mp_jp_object(&r->p, where, NULL) < 0)
        return -1;
    l->func = -1;
    while ((k = jr_member(r, where, keys, &seen, &idx)) == 1) {
        size_t voff = mp_jp_offset(&r->p);

        switch (idx) {
        case 0:
            if (mp_jp_null(&r->p))
                break;
            if ((k = jr_u64(r, where, "function_index", &fn)) == 0 && fn >= r->m->nfuncs)
                k = mp_jp_fail(&r->p, voff, "%s.function_index: %" PRIu64 " is not the index of one of the %zu functions",
                               where, fn, r->m->nfuncs);
            l->func = (long)fn;
            break;
        case 1: k = jr_str(r, where, "file", &l->file, 0); break;
        case 2: k = jr_unsigned(r, where, "line", &l->line); break;
        case 3: k = jr_addr(r, where, "addr", &l->addr); break;
        case 4: k = jr_samples(r, where, "samples", &l->samples); break;
        default: k = mp_jp_skip(&r->p, where, r->p.key); break; /* function: derived */
        }
        if (k < 0)
            return -1;
    }
    return k < 0 ? -1 : jr_required(r, off, where, keys, seen, 0x1f);
}

int jr_read_row(struct rd *r, const char *where)
{
    static const char *const keys[] = {"addr", "end", "file", "line", NULL};
    size_t off = mp_jp_offset(&r->p);
    struct mp_model_linerow *row, *prev;
    uint32_t seen = 0;
    int k, idx;

    if (!(row = jr_vec_push(r, &r->rows)) || mp_jp_object(&r->p, where, NULL) < 0)
        return -1;
    while ((k = jr_member(r, where, keys, &seen, &idx)) == 1) {
        switch (idx) {
        case 0: k = jr_addr(r, where, "addr", &row->addr); break;
        case 1: k = jr_addr(r, where, "end", &row->end); break;
        case 2: k = jr_str(r, where, "file", &row->file, 0); break;
        case 3: k = jr_unsigned(r, where, "line", &row->line); break;
        default: k = mp_jp_skip(&r->p, where, r->p.key); break;
        }
        if (k < 0)
            return -1;
    }
    if (k < 0 || jr_required(r, off, where, keys, seen, 0xf) < 0)
        return -1;
    /* mp_model_line_at searches them by address */
    prev = r->rows.n > 1 ? row - 1 : NULL;
    if (row->end < row->addr || (prev && row->addr < prev->end))
        return mp_jp_fail(&r->p, off,
                          "%s: 0x%" PRIx64 "..0x%" PRIx64 " is not after the previous row, or ends before it starts",
                          where, row->addr, row->end);
    return 0;
}


/*
 * json_read.c - a profile model from the JSON document format_json.c
 * writes (model.h, mp_model_from_json), functions included, so a profile
 * can be compared or reported without the firmware's ELF.
 *
 * The document is untrusted input. It is read in passes over the text,
 * each taking some top-level members and passing over the rest (the
 * parser checks all of it every time):
 *   0  schema and version: a newer major version is refused before any
 *      member of a layout this reader may not know is looked at;
 *   1  the shape: machine, bin size, counter width, the ELF's functions;
 *   2  everything else, checked against the shape as it is read.
 * Members this reader does not know are passed over (a later minor
 * revision may add some); members it needs must be there, once. What the
 * outputs rely on is checked, not trusted: every range's bins, the sums
 * the counters state, ranges that do not overlap, functions and line
 * rows in address order, line entries naming a function that exists,
 * call paths no deeper than an image holds, with flags this reader knows.
 * Derived values (names of callers, samples_total, context names) are
 * ignored and computed again.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "model_json.h"
#include "image_read.h"
#include "json_parse.h"
#include "model.h"

/* A firmware profile's document is a few megabytes; reading takes a few
 * times the document's size in memory, so anything larger is refused. */
#define JSON_MAX ((size_t)256 << 20)

/* Bin sizes beyond this cannot be shifted in 32 bits (pprof's writer);
 * gmon.out's (model_gmon.c) stay below it. */
#define BIN_SHIFT_LIMIT 31u

/* A growable array, copied into the model's memory when complete. */
struct vec {
    void *p;
    size_t n, cap, size;
};

/* Where a range sits, for the overlap check's message. */
struct range_pos {
    uint64_t low, high;
    size_t off;
};

struct rd {
    struct mp_jp p;
    struct mp_model *m;
    uint32_t seen;              /* top-level members seen (TOP_*) */
    size_t top_off[32];         /* offset of each one's value */
    uint64_t version;
    struct vec ranges, range_pos, bins, arcs, funcs, func_off, calls, lines, rows, contexts, tasks, late, blockers;
    struct vec paths, path_first, frames; /* a path's frames start at its path_first in frames */
    const char *last_str;       /* the last string kept: line rows repeat their file */
};

enum top {
    TOP_SCHEMA, TOP_VERSION, TOP_SOURCE, TOP_MACHINE, TOP_BUILD_ID, TOP_IMAGE_VERSION, TOP_RATE, TOP_BIN_SHIFT,
    TOP_COUNTER_BYTES, TOP_COUNTERS, TOP_RANGES, TOP_ARCS, TOP_CONTEXTS, TOP_TASKS, TOP_PATHS, TOP_ELF, TOP_FUNCTIONS,
    TOP_ATTRIBUTION, TOP_LINES_MISSING, TOP_LINES, TOP_LINE_TABLE, TOP_LATE, TOP_BLOCKERS, TOP_HELD, TOP_COUNT
};

static const char *const top_keys[] = {
    "schema", "version", "source", "machine", "build_id", "image_version", "sample_rate_hz", "bin_shift",
    "counter_bytes", "counters", "ranges", "arcs", "contexts", "tasks", "paths", "elf", "functions",
    "attribution", "lines_missing", "lines", "line_table", "late", "blockers", "held", NULL,
};

#define BIT(k) (1u << (k))
/* Written into every document (the others depend on what the model has). */
#define TOP_REQUIRED                                                                                            \
    (BIT(TOP_SCHEMA) | BIT(TOP_VERSION) | BIT(TOP_SOURCE) | BIT(TOP_MACHINE) | BIT(TOP_BUILD_ID) |              \
     BIT(TOP_IMAGE_VERSION) | BIT(TOP_RATE) | BIT(TOP_BIN_SHIFT) | BIT(TOP_COUNTER_BYTES) | BIT(TOP_COUNTERS) | \
     BIT(TOP_RANGES) | BIT(TOP_ARCS) | BIT(TOP_ELF))

static int pass_of(int key)
{
    switch (key) {
    case TOP_SCHEMA:
    case TOP_VERSION:
        return 0;
    case TOP_MACHINE:
    case TOP_BIN_SHIFT:
    case TOP_COUNTER_BYTES:
    case TOP_ELF:
    case TOP_FUNCTIONS:
        return 1;
    default:
        return 2;
    }
}

/* ---- memory ---------------------------------------------------------- */

static void *vec_push(struct rd *r, struct vec *v)
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
static int vec_keep(struct rd *r, struct vec *v, void *out, size_t *n, int nonempty)
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

static void vec_init(struct vec *v, size_t size)
{
    memset(v, 0, sizeof(*v));
    v->size = size;
}

static void rd_free(struct rd *r)
{
    struct vec *all[] = {&r->ranges, &r->range_pos, &r->bins, &r->arcs, &r->funcs, &r->func_off,
                         &r->calls, &r->lines, &r->rows, &r->contexts, &r->tasks, &r->paths, &r->path_first,
                         &r->frames, &r->late, &r->blockers};
    size_t i;

    for (i = 0; i < sizeof(all) / sizeof(all[0]); i++)
        free(all[i]->p);
    mp_jp_free(&r->p);
}

/* ---- members --------------------------------------------------------- */

/* The next member of the object WHERE: 1 with *IDX its index in KEYS (-1
 * for one this reader does not know), 0 at the object's end. */
static int member(struct rd *r, const char *where, const char *const *keys, uint32_t *seen, int *idx)
{
    int k = mp_jp_member(&r->p, where), i;

    if (k <= 0)
        return k;
    for (i = 0; keys[i] && strcmp(keys[i], r->p.key) != 0; i++)
        ;
    *idx = keys[i] ? i : -1;
    if (*idx >= 0 && (*seen & BIT(i)))
        return mp_jp_fail(&r->p, mp_jp_offset(&r->p), "%s%s'%s' given twice", where, *where ? ": " : "", keys[i]);
    if (*idx >= 0)
        *seen |= BIT(i);
    return 1;
}

/* Every member of REQUIRED (bits of KEYS) must be in SEEN; OFF is the
 * object's offset. */
static int required(struct rd *r, size_t off, const char *where, const char *const *keys, uint32_t seen,
                    uint32_t req)
{
    int i;

    for (i = 0; keys[i]; i++)
        if ((req & BIT(i)) && !(seen & BIT(i)))
            return mp_jp_fail(&r->p, off, "%s%shas no member '%s'", where, *where ? " " : "", keys[i]);
    return 0;
}

static int get_u64(struct rd *r, const char *where, const char *key, uint64_t *v)
{
    return mp_jp_uint(&r->p, where, key, UINT64_MAX, v);
}

static int get_u32(struct rd *r, const char *where, const char *key, uint32_t *v)
{
    uint64_t x;

    if (mp_jp_uint(&r->p, where, key, UINT32_MAX, &x) < 0)
        return -1;
    *v = (uint32_t)x;
    return 0;
}

static int get_unsigned(struct rd *r, const char *where, const char *key, unsigned *v)
{
    uint32_t x;

    if (get_u32(r, where, key, &x) < 0)
        return -1;
    *v = x;
    return 0;
}

static int get_flag(struct rd *r, const char *where, const char *key, unsigned char *v)
{
    int b;

    if (mp_jp_bool(&r->p, where, key, &b) < 0)
        return -1;
    *v = (unsigned char)b;
    return 0;
}

/* Samples: a finite number, not negative. */
static int get_samples(struct rd *r, const char *where, const char *key, double *v)
{
    size_t off = mp_jp_offset(&r->p);

    if (mp_jp_double(&r->p, where, key, v) < 0)
        return -1;
    if (*v < 0.0)
        return mp_jp_fail(&r->p, off, "%s.%s: expected a number of samples, not below 0, got %g", where, key, *v);
    return 0;
}

/* An address: "0x" and 1 to 16 hex digits (KEY NULL: WHERE names it). */
static int get_addr(struct rd *r, const char *where, const char *key, uint64_t *v)
{
    size_t off = mp_jp_offset(&r->p), i;
    const char *s;

    if (mp_jp_string(&r->p, where, key, &s) < 0)
        return -1;
    *v = 0;
    if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X') || !s[2] || strlen(s) > 18)
        goto bad;
    for (i = 2; s[i]; i++) {
        int c = s[i];

        if (c >= '0' && c <= '9')
            c -= '0';
        else if (c >= 'a' && c <= 'f')
            c -= 'a' - 10;
        else if (c >= 'A' && c <= 'F')
            c -= 'A' - 10;
        else
            goto bad;
        *v = *v << 4 | (uint64_t)c;
    }
    return 0;
bad:
    return mp_jp_fail(&r->p, off, "%s%s%s: expected an address, \"0x\" and 1 to 16 hex digits, got \"%.40s\"", where,
                      *where && key ? "." : "", key ? key : "", s);
}

/* A string kept in the model; NULLABLE: null gives NULL. */
static int get_str(struct rd *r, const char *where, const char *key, const char **out, int nullable)
{
    const char *s;

    if (nullable && mp_jp_null(&r->p)) {
        *out = NULL;
        return 0;
    }
    if (mp_jp_string(&r->p, where, key, &s) < 0)
        return -1;
    if (!r->last_str || strcmp(r->last_str, s) != 0)
        if (!(r->last_str = mp_model_strdup(r->m, s)))
            return -1;
    *out = r->last_str;
    return 0;
}

/* ---- pass 0 and 1: what the rest is read against ----------------------- */

static int read_schema(struct rd *r)
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

static int read_machine(struct rd *r)
{
    static const char *const keys[] = {"e_machine", "ptr_size", "big_endian", NULL};
    struct mp_model *m = r->m;
    size_t off = mp_jp_offset(&r->p);
    uint32_t seen = 0;
    uint64_t v;
    int k, idx;

    if (mp_jp_object(&r->p, "", "machine") < 0)
        return -1;
    while ((k = member(r, "machine", keys, &seen, &idx)) == 1) {
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
    return k < 0 ? -1 : required(r, off, "machine", keys, seen, 7);
}

static int read_shape_number(struct rd *r, int key)
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

static int read_function(struct rd *r, const char *where)
{
    static const char *const keys[] = {"name", "addr", "end", "size", "self", "calls", "hidden",
                                       "static", "shared", "file", "line", NULL};
    size_t off = mp_jp_offset(&r->p), *foff;
    struct mp_model_func *f, *prev;
    uint32_t seen = 0;
    int k, idx;

    if (!(f = vec_push(r, &r->funcs)) || !(foff = vec_push(r, &r->func_off)))
        return -1;
    *foff = off;
    if (mp_jp_object(&r->p, where, NULL) < 0)
        return -1;
    while ((k = member(r, where, keys, &seen, &idx)) == 1) {
        switch (idx) {
        case 0: k = get_str(r, where, "name", &f->name, 0); break;
        case 1: k = get_addr(r, where, "addr", &f->addr); break;
        case 2: k = get_addr(r, where, "end", &f->end); break;
        case 3: k = get_u64(r, where, "size", &f->size); break;
        case 4: k = get_samples(r, where, "self", &f->self); break;
        case 5: k = get_u64(r, where, "calls", &f->calls); break;
        case 6: k = get_flag(r, where, "hidden", &f->hidden); break;
        case 7: k = get_flag(r, where, "static", &f->is_static); break;
        case 8: k = get_flag(r, where, "shared", &f->shared); break;
        case 9: k = get_str(r, where, "file", &f->file, 1); break;
        case 10: k = get_unsigned(r, where, "line", &f->line); break;
        default: k = mp_jp_skip(&r->p, where, r->p.key); break;
        }
        if (k < 0)
            return -1;
    }
    if (k < 0 || required(r, off, where, keys, seen, 0x7ff) < 0)
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

static int read_functions(struct rd *r)
{
    char where[40];
    int k;

    if (mp_jp_array(&r->p, "", "functions") < 0)
        return -1;
    while ((k = mp_jp_item(&r->p, "functions")) == 1) {
        snprintf(where, sizeof(where), "functions[%zu]", r->funcs.n);
        if (read_function(r, where) < 0)
            return -1;
    }
    return k;
}

/* ---- pass 2 ------------------------------------------------------------ */

static int read_source(struct rd *r)
{
    static const char *const names[] = {"image", "gmon", "json"};
    static const enum mp_model_source values[] = {MP_MODEL_IMAGE, MP_MODEL_GMON, MP_MODEL_JSON};
    size_t off = mp_jp_offset(&r->p), i;
    const char *s;

    if (mp_jp_string(&r->p, "", "source", &s) < 0)
        return -1;
    for (i = 0; i < 3; i++)
        if (strcmp(s, names[i]) == 0) {
            r->m->source = values[i];
            return 0;
        }
    return mp_jp_fail(&r->p, off, "source: expected \"image\", \"gmon\" or \"json\", got \"%.40s\"", s);
}

static int read_build_id(struct rd *r)
{
    size_t off = mp_jp_offset(&r->p), n, i;
    const char *s;

    if (mp_jp_null(&r->p))
        return 0;
    if (mp_jp_string(&r->p, "", "build_id", &s) < 0)
        return -1;
    n = strlen(s);
    if (n == 0 || n % 2 || n > 2 * MCUPROF_BUILD_ID_MAX || strspn(s, "0123456789abcdefABCDEF") != n)
        return mp_jp_fail(&r->p, off, "build_id: expected null or 1 to %d bytes in hex, got \"%.80s\"",
                          MCUPROF_BUILD_ID_MAX, s);
    for (i = 0; i < n / 2; i++) {
        char byte[3] = {s[2 * i], s[2 * i + 1], '\0'};

        r->m->build_id[i] = (uint8_t)strtoul(byte, NULL, 16);
    }
    r->m->build_id_len = (unsigned)(n / 2);
    return 0;
}

static int read_lost(struct rd *r, struct mp_model_counters *c)
{
    const char *keys[MP_LOST_COUNT + 1]; /* mp_lost_names, NULL-terminated */
    size_t off = mp_jp_offset(&r->p);
    uint32_t seen = 0;
    int k, idx;

    memcpy(keys, mp_lost_names, sizeof(mp_lost_names));
    keys[MP_LOST_COUNT] = NULL;
    if (mp_jp_object(&r->p, "counters", "lost") < 0)
        return -1;
    while ((k = member(r, "counters.lost", keys, &seen, &idx)) == 1) {
        k = idx >= 0 ? get_u64(r, "counters.lost", keys[idx], &c->lost[idx])
                     : mp_jp_skip(&r->p, "counters.lost", r->p.key);
        if (k < 0)
            return -1;
    }
    return k < 0 ? -1 : required(r, off, "counters.lost", keys, seen, BIT(MP_LOST_COUNT) - 1);
}

static int read_missed_source(struct rd *r, unsigned *v)
{
    size_t off = mp_jp_offset(&r->p);
    const char *s, *name;
    unsigned i;

    if (mp_jp_string(&r->p, "counters", "missed_source", &s) < 0)
        return -1;
    for (i = 0; (name = mp_missed_source_name(i)) != NULL; i++)
        if (strcmp(s, name) == 0) {
            *v = i;
            return 0;
        }
    return mp_jp_fail(&r->p, off, "counters.missed_source: expected \"none\", \"mtime\", \"cyccnt\" or \"clock\", "
                      "got \"%.40s\"", s);
}

/* MCUPROF_TIMING_* bits: one this reader does not know is a later
 * runtime's, dropped with a warning as the image reader does. */
static int read_timing_flags(struct rd *r, unsigned *flags)
{
    const unsigned known = MCUPROF_TIMING_DEFERRED | MCUPROF_TIMING_CHARGED | MCUPROF_TIMING_BLOCKERS |
                           MCUPROF_TIMING_CLOCK_STALLED | MCUPROF_TIMING_CLOCK_JUMPED;

    if (get_unsigned(r, "counters", "timing_flags", flags) < 0)
        return -1;
    if (*flags & ~known) {
        mp_warn(r->m->name, "counters.timing_flags 0x%x has bits 0x%x unknown to this mcuprof: those are ignored",
                *flags, *flags & ~known);
        *flags &= known;
    }
    return 0;
}

static int read_counters(struct rd *r)
{
    static const char *const keys[] = {"samples_taken", "binned", "lost", "missed_periods", "missed_source",
                                       "arc_table_repairs", "total_calls", "outside_calls", "saturated_arcs",
                                       "saturated_bins", "timer_period", "jitter_percent", "generation",
                                       "timing_flags", "deferred_samples", NULL};
    struct mp_model_counters *c = &r->m->c;
    size_t off = mp_jp_offset(&r->p);
    uint32_t seen = 0;
    int k, idx;

    if (mp_jp_object(&r->p, "", "counters") < 0)
        return -1;
    while ((k = member(r, "counters", keys, &seen, &idx)) == 1) {
        switch (idx) {
        case 0: k = get_u64(r, "counters", "samples_taken", &c->samples_taken); break;
        case 1: k = get_u64(r, "counters", "binned", &c->binned); break;
        case 2: k = read_lost(r, c); break;
        case 3: k = get_u64(r, "counters", "missed_periods", &c->missed_periods); break;
        case 4: k = read_missed_source(r, &c->missed_source); break;
        case 5: k = get_u64(r, "counters", "arc_table_repairs", &c->arc_table_repairs); break;
        case 6: k = get_u64(r, "counters", "total_calls", &c->total_calls); break;
        case 7: k = get_u64(r, "counters", "outside_calls", &c->outside_calls); break;
        case 8: k = get_u64(r, "counters", "saturated_arcs", &c->saturated_arcs); break;
        case 9: k = get_u64(r, "counters", "saturated_bins", &c->saturated_bins); break;
        case 10: k = get_u32(r, "counters", "timer_period", &c->timer_period); break;
        case 11: k = get_unsigned(r, "counters", "jitter_percent", &c->jitter_percent); break;
        case 12: k = get_u32(r, "counters", "generation", &c->generation); break;
        case 13: k = read_timing_flags(r, &c->timing_flags); break;
        case 14: k = get_u64(r, "counters", "deferred_samples", &c->deferred_samples); break;
        default: k = mp_jp_skip(&r->p, "counters", r->p.key); break;
        }
        if (k < 0)
            return -1;
    }
    /* timing_flags and deferred_samples are optional: older documents
     * have neither (nothing measured) */
    return k < 0 ? -1 : required(r, off, "counters", keys, seen, 0x1fff);
}

static int read_bins(struct rd *r, const char *where)
{
    char w[48];
    int k;

    snprintf(w, sizeof(w), "%s.bins", where);
    r->bins.n = 0;
    if (mp_jp_array(&r->p, where, "bins") < 0)
        return -1;
    while ((k = mp_jp_item(&r->p, w)) == 1) {
        uint64_t *b = vec_push(r, &r->bins);

        if (!b || get_u64(r, w, NULL, b) < 0)
            return -1;
    }
    return k;
}

/* The bins stated and listed agree, and their sum is what "samples" says. */
static int check_range(struct rd *r, size_t off, const char *where, struct mp_model_range *rg)
{
    const uint64_t *b = r->bins.p;
    uint64_t sum = 0, i, shift = r->m->bin_shift;

    if (rg->high <= rg->low)
        return mp_jp_fail(&r->p, off, "%s: high 0x%" PRIx64 " is not above low 0x%" PRIx64, where, rg->high, rg->low);
    if (rg->nbins == 0 || rg->nbins != r->bins.n)
        return mp_jp_fail(&r->p, off, "%s: nbins %" PRIu64 ", but bins lists %zu (at least 1)", where, rg->nbins,
                          r->bins.n);
    if (shift && (rg->nbins > (UINT64_MAX >> shift) || rg->high - rg->low != rg->nbins << shift))
        return mp_jp_fail(&r->p, off,
                          "%s: %" PRIu64 " bins of 2^%" PRIu64 " bytes do not span 0x%" PRIx64 "..0x%" PRIx64
                          " (bin_shift)",
                          where, rg->nbins, shift, rg->low, rg->high);
    for (i = 0; i < rg->nbins; i++) {
        if (b[i] > UINT64_MAX - sum)
            return mp_jp_fail(&r->p, off, "%s: the bins add up to more than 2^64", where);
        sum += b[i];
        if (b[i] > rg->max_bin)
            rg->max_bin = b[i];
    }
    if (sum != rg->samples)
        return mp_jp_fail(&r->p, off, "%s: samples %" PRIu64 ", but the bins add up to %" PRIu64, where, rg->samples,
                          sum);
    return 0;
}

static int read_range(struct rd *r, const char *where)
{
    static const char *const keys[] = {"low", "high", "nbins", "samples", "bins", NULL};
    size_t off = mp_jp_offset(&r->p);
    struct mp_model_range *rg;
    struct range_pos *pos;
    uint32_t seen = 0;
    size_t n;
    int k, idx;

    if (!(rg = vec_push(r, &r->ranges)) || !(pos = vec_push(r, &r->range_pos)))
        return -1;
    if (mp_jp_object(&r->p, where, NULL) < 0)
        return -1;
    while ((k = member(r, where, keys, &seen, &idx)) == 1) {
        switch (idx) {
        case 0: k = get_addr(r, where, "low", &rg->low); break;
        case 1: k = get_addr(r, where, "high", &rg->high); break;
        case 2: k = get_u64(r, where, "nbins", &rg->nbins); break;
        case 3: k = get_u64(r, where, "samples", &rg->samples); break;
        case 4: k = read_bins(r, where); break;
        default: k = mp_jp_skip(&r->p, where, r->p.key); break;
        }
        if (k < 0)
            return -1;
    }
    if (k < 0 || required(r, off, where, keys, seen, 0x1f) < 0 || check_range(r, off, where, rg) < 0)
        return -1;
    pos->low = rg->low;
    pos->high = rg->high;
    pos->off = off;
    return vec_keep(r, &r->bins, &rg->bins, &n, 1);
}

static int cmp_range_pos(const void *a, const void *b)
{
    const struct range_pos *x = a, *y = b;

    return x->low < y->low ? -1 : x->low > y->low;
}

/* Ranges that overlap would count an address twice. */
static int check_overlap(struct rd *r)
{
    struct range_pos *p = r->range_pos.p;
    size_t i;

    qsort(p, r->range_pos.n, sizeof(*p), cmp_range_pos);
    for (i = 1; i < r->range_pos.n; i++)
        if (p[i].low < p[i - 1].high)
            return mp_jp_fail(&r->p, p[i].off,
                              "range 0x%" PRIx64 "..0x%" PRIx64 " overlaps range 0x%" PRIx64 "..0x%" PRIx64
                              ": an address would be counted twice",
                              p[i].low, p[i].high, p[i - 1].low, p[i - 1].high);
    return 0;
}

static int read_ranges(struct rd *r)
{
    char where[40];
    int k;

    if (mp_jp_array(&r->p, "", "ranges") < 0)
        return -1;
    while ((k = mp_jp_item(&r->p, "ranges")) == 1) {
        snprintf(where, sizeof(where), "ranges[%zu]", r->ranges.n);
        if (read_range(r, where) < 0)
            return -1;
    }
    return k < 0 ? -1 : check_overlap(r);
}

static int read_arc(struct rd *r, const char *where)
{
    static const char *const keys[] = {"callsite", "callee", "count", "saturated", NULL};
    size_t off = mp_jp_offset(&r->p);
    struct mp_model_arc *a;
    uint32_t seen = 0;
    int k, idx;

    if (!(a = vec_push(r, &r->arcs)) || mp_jp_object(&r->p, where, NULL) < 0)
        return -1;
    while ((k = member(r, where, keys, &seen, &idx)) == 1) {
        switch (idx) {
        case 0: k = get_addr(r, where, "callsite", &a->callsite); break;
        case 1: k = get_addr(r, where, "callee", &a->callee); break;
        case 2: k = get_u64(r, where, "count", &a->count); break;
        case 3: k = get_flag(r, where, "saturated", &a->saturated); break;
        default: k = mp_jp_skip(&r->p, where, r->p.key); break; /* caller, callee_name: derived */
        }
        if (k < 0)
            return -1;
    }
    return k < 0 ? -1 : required(r, off, where, keys, seen, 0xf);
}

static int read_arcs(struct rd *r)
{
    char where[40];
    int k;

    if (mp_jp_array(&r->p, "", "arcs") < 0)
        return -1;
    while ((k = mp_jp_item(&r->p, "arcs")) == 1) {
        snprintf(where, sizeof(where), "arcs[%zu]", r->arcs.n);
        if (read_arc(r, where) < 0)
            return -1;
    }
    return k;
}

/* "lost" (and a second count, named SECOND: "invalid", "truncated"),
 * then "entries", an array read by ITEM. */
static int read_table(struct rd *r, const char *name, uint64_t *lost, const char *second, uint64_t *invalid,
                      int (*item)(struct rd *r, const char *where))
{
    const char *const keys[] = {"lost", "entries", second, NULL};
    size_t off = mp_jp_offset(&r->p), n = 0;
    uint32_t seen = 0;
    char where[40];
    int k, idx, j;

    if (mp_jp_object(&r->p, "", name) < 0)
        return -1;
    while ((k = member(r, name, keys, &seen, &idx)) == 1) {
        if (idx == 0) {
            k = get_u64(r, name, "lost", lost);
        } else if (idx == 1) {
            if (mp_jp_array(&r->p, name, "entries") < 0)
                return -1;
            while ((j = mp_jp_item(&r->p, name)) == 1) {
                snprintf(where, sizeof(where), "%s.entries[%zu]", name, n++);
                if (item(r, where) < 0)
                    return -1;
            }
            k = j;
        } else if (idx == 2) {
            k = get_u64(r, name, second, invalid);
        } else {
            k = mp_jp_skip(&r->p, name, r->p.key);
        }
        if (k < 0)
            return -1;
    }
    return k < 0 ? -1 : required(r, off, name, keys, seen, second ? 7 : 3);
}

static int read_context(struct rd *r, const char *where)
{
    static const char *const keys[] = {"key", "samples", NULL};
    size_t off = mp_jp_offset(&r->p);
    struct mp_model_context *c;
    uint32_t seen = 0;
    int k, idx;

    if (!(c = vec_push(r, &r->contexts)) || mp_jp_object(&r->p, where, NULL) < 0)
        return -1;
    while ((k = member(r, where, keys, &seen, &idx)) == 1) {
        if (idx == 0)
            k = get_u32(r, where, "key", &c->key);
        else if (idx == 1)
            k = get_u64(r, where, "samples", &c->samples);
        else
            k = mp_jp_skip(&r->p, where, r->p.key); /* name: derived */
        if (k < 0)
            return -1;
    }
    return k < 0 ? -1 : required(r, off, where, keys, seen, 3);
}

static int read_task(struct rd *r, const char *where)
{
    static const char *const keys[] = {"handle", "name", "samples", "deleted", NULL};
    size_t off = mp_jp_offset(&r->p);
    struct mp_model_task *t;
    uint32_t seen = 0;
    int k, idx;

    if (!(t = vec_push(r, &r->tasks)) || mp_jp_object(&r->p, where, NULL) < 0)
        return -1;
    while ((k = member(r, where, keys, &seen, &idx)) == 1) {
        switch (idx) {
        case 0: k = get_addr(r, where, "handle", &t->handle); break;
        case 1: k = get_str(r, where, "name", &t->name, 0); break;
        case 2: k = get_u64(r, where, "samples", &t->samples); break;
        case 3: k = get_flag(r, where, "deleted", &t->deleted); break;
        default: k = mp_jp_skip(&r->p, where, r->p.key); break;
        }
        if (k < 0)
            return -1;
    }
    return k < 0 ? -1 : required(r, off, where, keys, seen, 0xf);
}

/* Flags by name, NAMES[i] for bit i (N of them; KNOWN lists them for
 * the message). A name this reader does not know is refused, as the
 * image reader refuses a path flag bit it does not know: a path flag
 * says which frames are missing, and a partial path shown whole
 * misleads. The same name twice is the same flag. */
static int read_flags(struct rd *r, const char *where, const char *const *names, unsigned n, const char *what,
                      unsigned *flags)
{
    char w[56];
    int k;

    snprintf(w, sizeof(w), "%s.flags", where);
    if (mp_jp_array(&r->p, where, "flags") < 0)
        return -1;
    while ((k = mp_jp_item(&r->p, w)) == 1) {
        size_t off = mp_jp_offset(&r->p);
        const char *s;
        unsigned i;

        if (mp_jp_string(&r->p, w, NULL, &s) < 0)
            return -1;
        for (i = 0; i < n && strcmp(s, names[i]) != 0; i++)
            ;
        if (i == n)
            return mp_jp_fail(&r->p, off, "%s: \"%.40s\" is no %s", w, s, what);
        *flags |= 1u << i;
    }
    return k;
}

/* A path's frames, outermost first, at most MP_JSON_PATH_DEPTH_MAX. */
static int read_path_frames(struct rd *r, const char *where, unsigned *depth)
{
    char w[56], fw[72];
    int k;

    snprintf(w, sizeof(w), "%s.frames", where);
    if (mp_jp_array(&r->p, where, "frames") < 0)
        return -1;
    while ((k = mp_jp_item(&r->p, w)) == 1) {
        uint64_t *f;

        if (*depth == MP_JSON_PATH_DEPTH_MAX)
            return mp_jp_fail(&r->p, mp_jp_offset(&r->p), "%s: more than %u frames, deeper than any image holds", w,
                              MP_JSON_PATH_DEPTH_MAX);
        snprintf(fw, sizeof(fw), "%s[%u]", w, *depth);
        if (!(f = vec_push(r, &r->frames)) || get_addr(r, fw, NULL, f) < 0)
            return -1;
        ++*depth;
    }
    return k;
}

static int read_path(struct rd *r, const char *where)
{
    static const char *const keys[] = {"samples", "flags", "frames", NULL};
    size_t off = mp_jp_offset(&r->p), *first;
    struct mp_model_path *path;
    uint32_t seen = 0;
    int k, idx;

    if (!(path = vec_push(r, &r->paths)) || !(first = vec_push(r, &r->path_first)) ||
        mp_jp_object(&r->p, where, NULL) < 0)
        return -1;
    *first = r->frames.n;
    while ((k = member(r, where, keys, &seen, &idx)) == 1) {
        size_t voff = mp_jp_offset(&r->p);

        switch (idx) {
        case 0:
            /* the model leaves out a path nobody sampled (model_image.c) */
            if ((k = get_u64(r, where, "samples", &path->samples)) == 0 && path->samples == 0)
                k = mp_jp_fail(&r->p, voff, "%s.samples: expected at least 1: a path without samples is never written",
                               where);
            break;
        case 1:
            k = read_flags(r, where, mp_json_path_flags, MP_JSON_PATH_FLAGS,
                           "path flag this mcuprof knows (\"truncated\", \"cut\"): it may mean frames are missing",
                           &path->flags);
            break;
        case 2: k = read_path_frames(r, where, &path->depth); break;
        default: k = mp_jp_skip(&r->p, where, r->p.key); break; /* functions: derived */
        }
        if (k < 0)
            return -1;
    }
    return k < 0 ? -1 : required(r, off, where, keys, seen, 7);
}

/* Where late samples landed: a PC the sampler took (never 0). */
static int read_late(struct rd *r, const char *where)
{
    static const char *const keys[] = {"pc", "samples", "missed", NULL};
    size_t off = mp_jp_offset(&r->p);
    struct mp_model_late *l;
    uint32_t seen = 0;
    int k, idx;

    if (!(l = vec_push(r, &r->late)) || mp_jp_object(&r->p, where, NULL) < 0)
        return -1;
    while ((k = member(r, where, keys, &seen, &idx)) == 1) {
        size_t voff = mp_jp_offset(&r->p);

        switch (idx) {
        case 0:
            if ((k = get_addr(r, where, "pc", &l->pc)) == 0 && l->pc == 0)
                k = mp_jp_fail(&r->p, voff, "%s.pc: 0 is no PC the sampler took", where);
            break;
        case 1: k = get_u64(r, where, "samples", &l->samples); break;
        case 2: k = get_u64(r, where, "missed", &l->missed); break;
        default: k = mp_jp_skip(&r->p, where, r->p.key); break; /* function: derived */
        }
        if (k < 0)
            return -1;
    }
    return k < 0 ? -1 : required(r, off, where, keys, seen, 7);
}

/* The late samples held off (struct mcuprof_held): counts of samples
 * and periods, checked against the counters in check_sums. */
static int read_held(struct rd *r)
{
    static const char *const keys[] = {"samples", "periods", "threshold", "scans", NULL};
    struct mp_model_held *h = &r->m->held;
    size_t off = mp_jp_offset(&r->p);
    uint32_t seen = 0;
    int k, idx;

    r->m->has_held = 1;
    if (mp_jp_object(&r->p, "", "held") < 0)
        return -1;
    while ((k = member(r, "held", keys, &seen, &idx)) == 1) {
        switch (idx) {
        case 0: k = get_u64(r, "held", "samples", &h->samples); break;
        case 1: k = get_u64(r, "held", "periods", &h->periods); break;
        case 2: k = get_u32(r, "held", "threshold", &h->threshold); break;
        case 3: k = get_u64(r, "held", "scans", &h->scans); break;
        default: k = mp_jp_skip(&r->p, "held", r->p.key); break;
        }
        if (k < 0)
            return -1;
    }
    if (k < 0 || required(r, off, "held", keys, seen, 0xf) < 0)
        return -1;
    if (h->periods && !h->samples)
        return mp_jp_fail(&r->p, off, "held: %" PRIu64 " periods missed before samples held off, but no sample",
                          h->periods);
    return 0;
}

/* An interrupt the sampler cannot preempt: a context key of either
 * architecture's interrupts. */
static int read_blocker(struct rd *r, const char *where)
{
    static const char *const keys[] = {"source", "priority", "sampler_priority", "flags", NULL};
    size_t off = mp_jp_offset(&r->p);
    struct mp_model_blocker *b;
    uint32_t seen = 0, kind;
    int k, idx;

    if (!(b = vec_push(r, &r->blockers)) || mp_jp_object(&r->p, where, NULL) < 0)
        return -1;
    while ((k = member(r, where, keys, &seen, &idx)) == 1) {
        size_t voff = mp_jp_offset(&r->p);

        switch (idx) {
        case 0:
            k = get_u32(r, where, "source", &b->source);
            kind = b->source & MCUPROF_CTX_KIND_Msk;
            if (k == 0 && kind != MCUPROF_CTX_ARM_EXCEPTION && kind != MCUPROF_CTX_RV_INTERRUPT)
                k = mp_jp_fail(&r->p, voff, "%s.source: 0x%08" PRIx32 " is neither an ARM exception (0x10000000 |"
                               " number) nor a RISC-V interrupt (0x20000000 | mcause code)", where, b->source);
            break;
        case 1: k = get_unsigned(r, where, "priority", &b->priority); break;
        case 2: k = get_unsigned(r, where, "sampler_priority", &b->sampler_priority); break;
        case 3:
            k = read_flags(r, where, mp_json_blocker_flags, MP_JSON_BLOCKER_FLAGS,
                           "blocker flag this mcuprof knows (\"blocking\", \"preemptible\")", &b->flags);
            break;
        default: k = mp_jp_skip(&r->p, where, r->p.key); break; /* name: derived */
        }
        if (k < 0)
            return -1;
    }
    if (k == 0 && (b->priority > UINT8_MAX || b->sampler_priority > UINT8_MAX))
        return mp_jp_fail(&r->p, off, "%s: priority %u or sampler_priority %u is not a priority byte (0..255)", where,
                          b->priority, b->sampler_priority);
    return k < 0 ? -1 : required(r, off, where, keys, seen, 15);
}

static int read_attribution(struct rd *r)
{
    static const char *const keys[] = {"outside", "hidden", "gprof_total", "shared_samples", NULL};
    struct mp_model *m = r->m;
    size_t off = mp_jp_offset(&r->p);
    uint32_t seen = 0;
    int k, idx;

    if (mp_jp_object(&r->p, "", "attribution") < 0)
        return -1;
    while ((k = member(r, "attribution", keys, &seen, &idx)) == 1) {
        switch (idx) {
        case 0: k = get_samples(r, "attribution", "outside", &m->outside); break;
        case 1: k = get_samples(r, "attribution", "hidden", &m->hidden); break;
        case 2: k = get_samples(r, "attribution", "gprof_total", &m->gprof_total); break;
        case 3: k = get_u64(r, "attribution", "shared_samples", &m->shared_samples); break;
        default: k = mp_jp_skip(&r->p, "attribution", r->p.key); break;
        }
        if (k < 0)
            return -1;
    }
    return k < 0 ? -1 : required(r, off, "attribution", keys, seen, 0xf);
}

static int read_line(struct rd *r, const char *where)
{
    static const char *const keys[] = {"function_index", "file", "line", "addr", "samples", NULL};
    size_t off = mp_jp_offset(&r->p);
    struct mp_model_line *l;
    uint32_t seen = 0;
    uint64_t fn;
    int k, idx;

    if (!(l = vec_push(r, &r->lines)) || mp_jp_object(&r->p, where, NULL) < 0)
        return -1;
    l->func = -1;
    while ((k = member(r, where, keys, &seen, &idx)) == 1) {
        size_t voff = mp_jp_offset(&r->p);

        switch (idx) {
        case 0:
            if (mp_jp_null(&r->p))
                break;
            if ((k = get_u64(r, where, "function_index", &fn)) == 0 && fn >= r->m->nfuncs)
                k = mp_jp_fail(&r->p, voff, "%s.function_index: %" PRIu64 " is not the index of one of the %zu functions",
                               where, fn, r->m->nfuncs);
            l->func = (long)fn;
            break;
        case 1: k = get_str(r, where, "file", &l->file, 0); break;
        case 2: k = get_unsigned(r, where, "line", &l->line); break;
        case 3: k = get_addr(r, where, "addr", &l->addr); break;
        case 4: k = get_samples(r, where, "samples", &l->samples); break;
        default: k = mp_jp_skip(&r->p, where, r->p.key); break; /* function: derived */
        }
        if (k < 0)
            return -1;
    }
    return k < 0 ? -1 : required(r, off, where, keys, seen, 0x1f);
}

static int read_row(struct rd *r, const char *where)
{
    static const char *const keys[] = {"addr", "end", "file", "line", NULL};
    size_t off = mp_jp_offset(&r->p);
    struct mp_model_linerow *row, *prev;
    uint32_t seen = 0;
    int k, idx;

    if (!(row = vec_push(r, &r->rows)) || mp_jp_object(&r->p, where, NULL) < 0)
        return -1;
    while ((k = member(r, where, keys, &seen, &idx)) == 1) {
        switch (idx) {
        case 0: k = get_addr(r, where, "addr", &row->addr); break;
        case 1: k = get_addr(r, where, "end", &row->end); break;
        case 2: k = get_str(r, where, "file", &row->file, 0); break;
        case 3: k = get_unsigned(r, where, "line", &row->line); break;
        default: k = mp_jp_skip(&r->p, where, r->p.key); break;
        }
        if (k < 0)
            return -1;
    }
    if (k < 0 || required(r, off, where, keys, seen, 0xf) < 0)
        return -1;
    /* mp_model_line_at searches them by address */
    prev = r->rows.n > 1 ? row - 1 : NULL;
    if (row->end < row->addr || (prev && row->addr < prev->end))
        return mp_jp_fail(&r->p, off,
                          "%s: 0x%" PRIx64 "..0x%" PRIx64 " is not after the previous row, or ends before it starts",
                          where, row->addr, row->end);
    return 0;
}

/* An array of items read by ITEM. */
static int read_list(struct rd *r, const char *name, int (*item)(struct rd *r, const char *where))
{
    char where[40];
    size_t n = 0;
    int k;

    if (mp_jp_array(&r->p, "", name) < 0)
        return -1;
    while ((k = mp_jp_item(&r->p, name)) == 1) {
        snprintf(where, sizeof(where), "%s[%zu]", name, n++);
        if (item(r, where) < 0)
            return -1;
    }
    return k;
}

/* ---- the passes ------------------------------------------------------ */

static int read_top(struct rd *r, int key)
{
    struct mp_model *m = r->m;
    int b;

    switch (key) {
    case TOP_SCHEMA: return read_schema(r);
    case TOP_VERSION: return get_u64(r, "", "version", &r->version);
    case TOP_MACHINE: return read_machine(r);
    case TOP_BIN_SHIFT:
    case TOP_COUNTER_BYTES: return read_shape_number(r, key);
    case TOP_ELF: return get_str(r, "", "elf", &m->elf_path, 1);
    case TOP_FUNCTIONS: return read_functions(r);
    case TOP_SOURCE: return read_source(r);
    case TOP_BUILD_ID: return read_build_id(r);
    case TOP_IMAGE_VERSION: return get_u32(r, "", "image_version", &m->image_version);
    case TOP_RATE: return get_u32(r, "", "sample_rate_hz", &m->sample_rate_hz);
    case TOP_COUNTERS: return read_counters(r);
    case TOP_RANGES: return read_ranges(r);
    case TOP_ARCS: return read_arcs(r);
    case TOP_CONTEXTS:
        m->has_contexts = 1;
        return read_table(r, "contexts", &m->contexts_lost, NULL, NULL, read_context);
    case TOP_TASKS:
        m->has_tasks = 1;
        return read_table(r, "tasks", &m->tasks_lost, "invalid", &m->tasks_invalid, read_task);
    case TOP_PATHS:
        m->has_paths = 1;
        return read_table(r, "paths", &m->paths_lost, "truncated", &m->paths_truncated, read_path);
    case TOP_LATE:
        m->has_late = 1;
        return read_table(r, "late", &m->late_lost, NULL, NULL, read_late);
    case TOP_BLOCKERS:
        m->has_blockers = 1;
        return read_table(r, "blockers", &m->blockers_lost, NULL, NULL, read_blocker);
    case TOP_HELD: return read_held(r);
    case TOP_ATTRIBUTION: return read_attribution(r);
    case TOP_LINES_MISSING:
        if (mp_jp_bool(&r->p, "", "lines_missing", &b) < 0)
            return -1;
        m->lines_missing = b;
        return 0;
    case TOP_LINES: return read_list(r, "lines", read_line);
    case TOP_LINE_TABLE: return read_list(r, "line_table", read_row);
    default:
        return mp_jp_skip(&r->p, "", top_keys[key]);
    }
}

/* One pass over the document, reading the top-level members of PASS. */
static int pass(struct rd *r, int n)
{
    uint32_t seen = 0;
    int k, idx;

    mp_jp_free(&r->p);
    mp_jp_init(&r->p, r->m->name, r->p.d, r->p.len);
    if (mp_jp_object(&r->p, "", NULL) < 0)
        return -1;
    while ((k = member(r, "", top_keys, &seen, &idx)) == 1) {
        if (idx >= 0)
            r->top_off[idx] = mp_jp_offset(&r->p);
        k = idx >= 0 && pass_of(idx) == n ? read_top(r, idx) : mp_jp_skip(&r->p, "", r->p.key);
        if (k < 0)
            return -1;
    }
    if (k < 0 || mp_jp_end(&r->p) < 0)
        return -1;
    r->seen = seen;
    return 0;
}

static int check_version(struct rd *r)
{
    if (!(r->seen & BIT(TOP_SCHEMA)))
        return mp_jp_fail(&r->p, 0, "the document has no member 'schema': not a profile of mcuprof");
    if (!(r->seen & BIT(TOP_VERSION)))
        return mp_jp_fail(&r->p, 0, "the document has no member 'version'");
    if (r->version > MP_JSON_VERSION)
        return mp_jp_fail(&r->p, r->top_off[TOP_VERSION],
                          "version %" PRIu64 ": written by a newer mcuprof, this one reads version %u: update mcuprof",
                          r->version, MP_JSON_VERSION);
    if (r->version == 0)
        return mp_jp_fail(&r->p, r->top_off[TOP_VERSION], "version 0 is no version of the document (1 is the first)");
    return 0;
}

/* What the counters state, against what the ranges and arcs hold. */
static int check_sums(struct rd *r)
{
    const struct mp_model *m = r->m;
    uint64_t binned = 0, calls = 0, sum;
    uint64_t *per_func = r->calls.p;
    const size_t *foff = r->func_off.p;
    size_t i;

    for (i = 0; i < m->nranges; i++) {
        if (m->ranges[i].samples > UINT64_MAX - binned)
            return mp_jp_fail(&r->p, r->top_off[TOP_RANGES], "ranges: the samples add up to more than 2^64");
        binned += m->ranges[i].samples;
    }
    if (binned != m->c.binned)
        return mp_jp_fail(&r->p, r->top_off[TOP_COUNTERS], "counters.binned %" PRIu64 ", but the ranges hold %" PRIu64,
                          m->c.binned, binned);
    for (i = 0; i < m->narcs; i++) {
        if (m->arcs[i].count > UINT64_MAX - calls)
            return mp_jp_fail(&r->p, r->top_off[TOP_ARCS], "arcs: the counts add up to more than 2^64");
        calls += m->arcs[i].count;
        if (m->arcs[i].callee_fn >= 0)
            per_func[m->arcs[i].callee_fn] += m->arcs[i].count;
    }
    for (i = 0, sum = m->paths_lost; i < m->npaths; i++) {
        if (m->paths[i].samples > UINT64_MAX - sum)
            return mp_jp_fail(&r->p, r->top_off[TOP_PATHS], "paths: the samples and lost add up to more than 2^64");
        sum += m->paths[i].samples;
    }
    if (m->held.samples > m->c.samples_taken || m->held.periods > m->c.missed_periods)
        return mp_jp_fail(&r->p, r->top_off[TOP_HELD],
                          "held: %" PRIu64 " samples and %" PRIu64 " periods, but counters.samples_taken is %" PRIu64
                          " and missed_periods %" PRIu64 ": the samples held off are samples taken, their periods"
                          " missed periods",
                          m->held.samples, m->held.periods, m->c.samples_taken, m->c.missed_periods);
    if (calls != m->c.total_calls)
        return mp_jp_fail(&r->p, r->top_off[TOP_COUNTERS],
                          "counters.total_calls %" PRIu64 ", but the arcs add up to %" PRIu64, m->c.total_calls, calls);
    for (i = 0; i < m->nfuncs; i++)
        if (per_func[i] != m->funcs[i].calls)
            return mp_jp_fail(&r->p, foff[i], "functions[%zu].calls %" PRIu64 ", but its arcs add up to %" PRIu64, i,
                              m->funcs[i].calls, per_func[i]);
    return 0;
}

/* The members that come with the ELF's functions, all or none. */
static int check_elf_members(struct rd *r)
{
    const uint32_t with_funcs = BIT(TOP_FUNCTIONS) | BIT(TOP_ATTRIBUTION) | BIT(TOP_LINES_MISSING);
    int i;

    if (r->m->elf_path && !(r->seen & BIT(TOP_FUNCTIONS)))
        return mp_jp_fail(&r->p, r->top_off[TOP_ELF], "elf names an ELF, but the document has no member 'functions'");
    if (!r->m->elf_path && (r->seen & BIT(TOP_FUNCTIONS)))
        return mp_jp_fail(&r->p, r->top_off[TOP_ELF], "elf is null, but the document has functions");
    if ((r->seen & BIT(TOP_FUNCTIONS)) && (r->seen & with_funcs) != with_funcs)
        for (i = 0; i < TOP_COUNT; i++)
            if ((with_funcs & BIT(i)) && !(r->seen & BIT(i)))
                return mp_jp_fail(&r->p, r->top_off[TOP_FUNCTIONS], "the document has functions but no member '%s'",
                                  top_keys[i]);
    if (!(r->seen & BIT(TOP_FUNCTIONS)) && (r->seen & (BIT(TOP_LINES) | BIT(TOP_LINE_TABLE))))
        return mp_jp_fail(&r->p, 0, "the document has source lines but no functions");
    return 0;
}

/* The paths and their frames in the model's memory, one array for all. */
static int build_paths(struct rd *r)
{
    struct mp_model *m = r->m;
    const size_t *first = r->path_first.p;
    uint64_t *frames;
    size_t i;

    if (!(frames = mp_model_alloc(m, (r->frames.n ? r->frames.n : 1) * sizeof(*frames))) ||
        vec_keep(r, &r->paths, &m->paths, &m->npaths, 1) < 0)
        return -1;
    if (r->frames.n)
        memcpy(frames, r->frames.p, r->frames.n * sizeof(*frames));
    for (i = 0; i < m->npaths; i++)
        m->paths[i].frames = frames + first[i];
    return 0;
}

/* The model's tables from what was read; each arc's caller and callee
 * found as mp_model_attach_elf finds them. */
static int build(struct rd *r)
{
    struct mp_model *m = r->m;
    size_t i;

    if (vec_keep(r, &r->ranges, &m->ranges, &m->nranges, 0) < 0 || vec_keep(r, &r->arcs, &m->arcs, &m->narcs, 0) < 0 ||
        vec_keep(r, &r->lines, &m->lines, &m->nlines, 0) < 0 ||
        vec_keep(r, &r->rows, &m->linerows, &m->nlinerows, 0) < 0 ||
        (m->has_contexts && vec_keep(r, &r->contexts, &m->contexts, &m->ncontexts, 1) < 0) ||
        (m->has_tasks && vec_keep(r, &r->tasks, &m->tasks, &m->ntasks, 1) < 0) ||
        (m->has_late && vec_keep(r, &r->late, &m->late, &m->nlate, 1) < 0) ||
        (m->has_blockers && vec_keep(r, &r->blockers, &m->blockers, &m->nblockers, 1) < 0) ||
        (m->has_paths && build_paths(r) < 0))
        return -1;
    for (i = 0; i < m->narcs; i++) {
        struct mp_model_arc *a = &m->arcs[i];

        a->caller = a->callsite ? mp_model_find_func(m, a->callsite) : -1;
        a->callee_fn = mp_model_find_func(m, a->callee);
    }
    return 0;
}

static int read_document(struct rd *r)
{
    struct mp_model *m = r->m;

    if (pass(r, 0) < 0 || check_version(r) < 0 || pass(r, 1) < 0)
        return -1;
    if (!(r->seen & BIT(TOP_MACHINE)))
        return mp_jp_fail(&r->p, 0, "the document has no member 'machine'");
    if (r->seen & BIT(TOP_FUNCTIONS)) {
        size_t i;

        /* never NULL, as model_elf.c leaves it for an ELF without functions */
        if (vec_keep(r, &r->funcs, &m->funcs, &m->nfuncs, 1) < 0)
            return -1;
        for (i = 0; i < m->nfuncs; i++)
            if (!vec_push(r, &r->calls))
                return -1;
    }
    if (pass(r, 2) < 0 || required(r, 0, "the document", top_keys, r->seen, TOP_REQUIRED) < 0 ||
        check_elf_members(r) < 0 || build(r) < 0 || check_sums(r) < 0)
        return -1;
    return 0;
}

int mp_model_from_json(struct mp_model *m, const char *name, const uint8_t *data, size_t len)
{
    struct rd r;
    int ret;

    mp_model_init(m, name, MP_MODEL_JSON);
    if (len > JSON_MAX)
        return mp_error(name, "%zu bytes: more than the %zu a profile document can be", len, JSON_MAX);
    memset(&r, 0, sizeof(r));
    r.m = m;
    mp_jp_init(&r.p, name, data, len);
    vec_init(&r.ranges, sizeof(struct mp_model_range));
    vec_init(&r.range_pos, sizeof(struct range_pos));
    vec_init(&r.bins, sizeof(uint64_t));
    vec_init(&r.arcs, sizeof(struct mp_model_arc));
    vec_init(&r.funcs, sizeof(struct mp_model_func));
    vec_init(&r.func_off, sizeof(size_t));
    vec_init(&r.calls, sizeof(uint64_t));
    vec_init(&r.lines, sizeof(struct mp_model_line));
    vec_init(&r.rows, sizeof(struct mp_model_linerow));
    vec_init(&r.contexts, sizeof(struct mp_model_context));
    vec_init(&r.tasks, sizeof(struct mp_model_task));
    vec_init(&r.paths, sizeof(struct mp_model_path));
    vec_init(&r.path_first, sizeof(size_t));
    vec_init(&r.frames, sizeof(uint64_t));
    vec_init(&r.late, sizeof(struct mp_model_late));
    vec_init(&r.blockers, sizeof(struct mp_model_blocker));
    ret = read_document(&r);
    rd_free(&r);
    if (ret < 0)
        mp_model_free(m);
    return ret;
}

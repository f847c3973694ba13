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
 *
 * This file holds the passes and builds the model; each part of the
 * document has its reader (json_read_*.c), the checks across parts are
 * in json_checks.c, and all of them share json_read.h.
 */
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "json_read.h"
#include "model_json.h"

/* A firmware profile's document is a few megabytes; reading takes a few
 * times the document's size in memory, so anything larger is refused. */
#define JSON_MAX ((size_t)256 << 20)

const char *const jr_top_keys[] = {
    "schema", "version", "source", "machine", "build_id", "image_version", "sample_rate_hz", "bin_shift",
    "counter_bytes", "counters", "ranges", "arcs", "contexts", "tasks", "paths", "elf", "functions",
    "attribution", "lines_missing", "lines", "line_table", "late", "blockers", "held", "header", "clones", NULL,
};

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
    case TOP_CLONES:
        return 1;
    default:
        return 2;
    }
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

static int read_top(struct rd *r, int key)
{
    struct mp_model *m = r->m;
    int b;

    switch (key) {
    case TOP_SCHEMA: return jr_read_schema(r);
    case TOP_VERSION: return jr_u64(r, "", "version", &r->version);
    case TOP_MACHINE: return jr_read_machine(r);
    case TOP_BIN_SHIFT:
    case TOP_COUNTER_BYTES: return jr_read_shape_number(r, key);
    case TOP_ELF: return jr_str(r, "", "elf", &m->elf_path, 1);
    case TOP_FUNCTIONS: return jr_read_functions(r);
    case TOP_CLONES: return jr_read_clones(r);
    case TOP_SOURCE: return jr_read_source(r);
    case TOP_BUILD_ID: return jr_read_build_id(r);
    case TOP_IMAGE_VERSION: return jr_u32(r, "", "image_version", &m->image_version);
    case TOP_RATE: return jr_u32(r, "", "sample_rate_hz", &m->sample_rate_hz);
    case TOP_COUNTERS: return jr_read_counters(r);
    case TOP_RANGES: return jr_read_ranges(r);
    case TOP_ARCS: return jr_read_arcs(r);
    case TOP_CONTEXTS:
        m->has_contexts = 1;
        return jr_read_table(r, "contexts", &m->contexts_lost, NULL, NULL, jr_read_context);
    case TOP_TASKS:
        m->has_tasks = 1;
        return jr_read_table(r, "tasks", &m->tasks_lost, "invalid", &m->tasks_invalid, jr_read_task);
    case TOP_PATHS:
        m->has_paths = 1;
        return jr_read_table(r, "paths", &m->paths_lost, "truncated", &m->paths_truncated, jr_read_path);
    case TOP_LATE:
        m->has_late = 1;
        return jr_read_table(r, "late", &m->late_lost, NULL, NULL, jr_read_late);
    case TOP_BLOCKERS:
        m->has_blockers = 1;
        return jr_read_table(r, "blockers", &m->blockers_lost, NULL, NULL, jr_read_blocker);
    case TOP_HELD: return jr_read_held(r);
    case TOP_HEADER: return jr_read_header(r);
    case TOP_ATTRIBUTION: return jr_read_attribution(r);
    case TOP_LINES_MISSING:
        if (mp_jp_bool(&r->p, "", "lines_missing", &b) < 0)
            return -1;
        m->lines_missing = b;
        return 0;
    case TOP_LINES: return jr_read_list(r, "lines", jr_read_line);
    case TOP_LINE_TABLE: return jr_read_list(r, "line_table", jr_read_row);
    default:
        return mp_jp_skip(&r->p, "", jr_top_keys[key]);
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
    while ((k = jr_member(r, "", jr_top_keys, &seen, &idx)) == 1) {
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

/* The paths and their frames in the model's memory, one array for all. */
static int build_paths(struct rd *r)
{
    struct mp_model *m = r->m;
    const size_t *first = r->path_first.p;
    uint64_t *frames;
    size_t i;

    if (!(frames = mp_model_alloc(m, (r->frames.n ? r->frames.n : 1) * sizeof(*frames))) ||
        jr_vec_keep(r, &r->paths, &m->paths, &m->npaths, 1) < 0)
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

    if (jr_vec_keep(r, &r->ranges, &m->ranges, &m->nranges, 0) < 0 || jr_vec_keep(r, &r->arcs, &m->arcs, &m->narcs, 0) < 0 ||
        jr_vec_keep(r, &r->lines, &m->lines, &m->nlines, 0) < 0 ||
        jr_vec_keep(r, &r->rows, &m->linerows, &m->nlinerows, 0) < 0 ||
        (m->has_contexts && jr_vec_keep(r, &r->contexts, &m->contexts, &m->ncontexts, 1) < 0) ||
        (m->has_tasks && jr_vec_keep(r, &r->tasks, &m->tasks, &m->ntasks, 1) < 0) ||
        (m->has_late && jr_vec_keep(r, &r->late, &m->late, &m->nlate, 1) < 0) ||
        (m->has_blockers && jr_vec_keep(r, &r->blockers, &m->blockers, &m->nblockers, 1) < 0) ||
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

    if (pass(r, 0) < 0 || jr_check_version(r) < 0 || pass(r, 1) < 0)
        return -1;
    if (!(r->seen & BIT(TOP_MACHINE)))
        return mp_jp_fail(&r->p, 0, "the document has no member 'machine'");
    if (r->seen & BIT(TOP_FUNCTIONS)) {
        size_t i;

        /* never NULL, as model_elf.c leaves it for an ELF without functions */
        if (jr_vec_keep(r, &r->funcs, &m->funcs, &m->nfuncs, 1) < 0)
            return -1;
        for (i = 0; i < m->nfuncs; i++)
            if (!jr_vec_push(r, &r->calls))
                return -1;
        /* a grouped document's arcs name the groups (clone_group.c) */
        if (mp_model_find_groups(m) < 0)
            return -1;
        m->clones_grouped = r->clones_grouped;
    }
    if (pass(r, 2) < 0 || jr_required(r, 0, "the document", jr_top_keys, r->seen, TOP_REQUIRED) < 0 ||
        jr_check_elf_members(r) < 0 || build(r) < 0 || jr_check_sums(r) < 0 ||
        jr_check_header(r) < 0)
        return -1;
    if (m->nfuncs && mp_model_clone_view_grouped() && mp_model_group_clones(m) < 0)
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
    jr_vec_init(&r.ranges, sizeof(struct mp_model_range));
    jr_vec_init(&r.range_pos, sizeof(struct range_pos));
    jr_vec_init(&r.bins, sizeof(uint64_t));
    jr_vec_init(&r.arcs, sizeof(struct mp_model_arc));
    jr_vec_init(&r.funcs, sizeof(struct mp_model_func));
    jr_vec_init(&r.func_off, sizeof(size_t));
    jr_vec_init(&r.calls, sizeof(uint64_t));
    jr_vec_init(&r.lines, sizeof(struct mp_model_line));
    jr_vec_init(&r.rows, sizeof(struct mp_model_linerow));
    jr_vec_init(&r.contexts, sizeof(struct mp_model_context));
    jr_vec_init(&r.tasks, sizeof(struct mp_model_task));
    jr_vec_init(&r.paths, sizeof(struct mp_model_path));
    jr_vec_init(&r.path_first, sizeof(size_t));
    jr_vec_init(&r.frames, sizeof(uint64_t));
    jr_vec_init(&r.late, sizeof(struct mp_model_late));
    jr_vec_init(&r.blockers, sizeof(struct mp_model_blocker));
    ret = read_document(&r);
    rd_free(&r);
    if (ret < 0)
        mp_model_free(m);
    return ret;
}

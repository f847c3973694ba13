/*
 * format_json.c - the whole profile model as one JSON document, for
 * scripts (jq, Python) and for reading back (json_read.c): every count,
 * every loss counter, and with the ELF the functions as gprof charges
 * them, so a document compares to another without the firmware.
 *
 * Addresses are hex strings and counts plain integers: JSON numbers are
 * exact integers in this tool's reader, but JavaScript (and jq before
 * 1.7) reads them as doubles, exact only up to 2^53; a count that large
 * is years of samples, an address is not. The layout is documented in
 * docs/formats/json.md; it changes only by adding members, or with a new
 * MP_JSON_VERSION that older readers refuse.
 */
#include "format_json.h"

#include <math.h>

#include "diag.h"
#include "formats.h"
#include "image_read.h"


_Static_assert(MCUPROF_PATH_TRUNCATED == 1u && MCUPROF_PATH_CUT == 2u, "path flags: names by bit");
_Static_assert(MCUPROF_STATE_ARCS_Msk == 1u && MCUPROF_STATE_SAMPLING_Msk == 2u && MCUPROF_STATE_FROZEN_Msk == 4u,
               "state flags: names by bit");

static const char *source_name(enum mp_model_source s)
{
    return s == MP_MODEL_IMAGE ? "image" : s == MP_MODEL_GMON ? "gmon" : "json";
}

static const char *func_name(const struct mp_model *m, long i)
{
    return i >= 0 && (size_t)i < m->nfuncs ? m->funcs[i].name : NULL;
}

static int check_finite(const struct mp_model *m, double v, const char *what, const char *name)
{
    if (isfinite(v))
        return 0;
    return mp_error(m->name, "%s%s%s is %g: JSON has no such number", what, name ? " of " : "", name ? name : "", v);
}

int mp_json_check(const struct mp_model *m)
{
    size_t i;

    if (!mp_missed_source_name(m->c.missed_source))
        return mp_error(m->name, "missed_source %u has no name", m->c.missed_source);
    if (check_finite(m, m->outside, "samples outside every function", NULL) < 0 ||
        check_finite(m, m->hidden, "samples in hidden functions", NULL) < 0 ||
        check_finite(m, m->gprof_total, "gprof's total", NULL) < 0)
        return -1;
    for (i = 0; i < m->nfuncs; i++)
        if (check_finite(m, m->funcs[i].self, "self samples", m->funcs[i].name) < 0)
            return -1;
    for (i = 0; i < m->nlines; i++)
        if (check_finite(m, m->lines[i].samples, "samples of a line", m->lines[i].file) < 0)
            return -1;
    for (i = 0; i < m->nblockers; i++)
        if (m->blockers[i].flags >> MP_JSON_BLOCKER_FLAGS)
            return mp_error(m->name, "blocker %zu has flags 0x%x, and only 0x%x have a name", i, m->blockers[i].flags,
                            (1u << MP_JSON_BLOCKER_FLAGS) - 1);
    for (i = 0; i < m->npaths; i++) {
        if (m->paths[i].flags >> MP_JSON_PATH_FLAGS)
            return mp_error(m->name, "call path %zu has flags 0x%x, and only 0x%x have a name", i, m->paths[i].flags,
                            (1u << MP_JSON_PATH_FLAGS) - 1);
        if (m->paths[i].depth > MP_JSON_PATH_DEPTH_MAX)
            return mp_error(m->name, "call path %zu has %u frames, more than the %u a document holds", i,
                            m->paths[i].depth, MP_JSON_PATH_DEPTH_MAX);
    }
    return 0;
}

/* A table of the model: NAME's object with "lost" (and SECOND, unless
 * NULL), then "entries", open for the entries; table_end closes both. */
static void table_start(struct mp_jw *w, const char *name, uint64_t lost, const char *second, uint64_t n)
{
    mp_jw_key(w, name);
    mp_jw_object(w, 0);
    mp_jw_kuint(w, "lost", lost);
    if (second)
        mp_jw_kuint(w, second, n);
    mp_jw_key(w, "entries");
    mp_jw_array(w, 0);
}

static void table_end(struct mp_jw *w)
{
    mp_jw_end(w);
    mp_jw_end(w);
}

/* KEY: the names of the bits of FLAGS set, bit 0 first. */
static void write_flags(struct mp_jw *w, const char *key, unsigned flags, const char *const *names, unsigned n)
{
    unsigned k;

    mp_jw_key(w, key);
    mp_jw_array(w, 1);
    for (k = 0; k < n; k++)
        if (flags & (1u << k))
            mp_jw_string(w, names[k]);
    mp_jw_end(w);
}

/* The function holding ADDR, by name (null outside every one). */
static void write_func_at(struct mp_jw *w, const char *key, const struct mp_model *m, uint64_t addr)
{
    long fn = mp_model_find_func(m, addr);

    mp_jw_kstring(w, key, fn >= 0 ? m->funcs[fn].name : NULL);
}

static void write_late(struct mp_jw *w, const struct mp_model *m)
{
    size_t i;

    table_start(w, "late", m->late_lost, NULL, 0);
    for (i = 0; i < m->nlate; i++) {
        mp_jw_object(w, 1);
        mp_jw_khex(w, "pc", m->late[i].pc);
        mp_jw_kuint(w, "samples", m->late[i].samples);
        mp_jw_kuint(w, "missed", m->late[i].missed);
        if (m->elf_path)
            write_func_at(w, "function", m, m->late[i].pc);
        mp_jw_end(w);
    }
    table_end(w);
}

static void write_blockers(struct mp_jw *w, const struct mp_model *m)
{
    size_t i;

    table_start(w, "blockers", m->blockers_lost, NULL, 0);
    for (i = 0; i < m->nblockers; i++) {
        const struct mp_model_blocker *b = &m->blockers[i];
        char name[48];

        mp_jw_object(w, 1);
        mp_jw_kuint(w, "source", b->source);
        mp_jw_kstring(w, "name", mp_context_name(m->machine, b->source, name, sizeof(name)));
        mp_jw_kuint(w, "priority", b->priority);
        mp_jw_kuint(w, "sampler_priority", b->sampler_priority);
        write_flags(w, "flags", b->flags, mp_json_blocker_flags, MP_JSON_BLOCKER_FLAGS);
        mp_jw_end(w);
    }
    table_end(w);
}

static void write_held(struct mp_jw *w, const struct mp_model *m)
{
    mp_jw_key(w, "held");
    mp_jw_object(w, 1);
    mp_jw_kuint(w, "samples", m->held.samples);
    mp_jw_kuint(w, "periods", m->held.periods);
    mp_jw_kuint(w, "threshold", m->held.threshold);
    mp_jw_kuint(w, "scans", m->held.scans);
    mp_jw_end(w);
}

static void write_machine(struct mp_jw *w, const struct mp_model *m)
{
    mp_jw_key(w, "machine");
    mp_jw_object(w, 1);
    mp_jw_kuint(w, "e_machine", m->machine);
    mp_jw_kstring(w, "name", mp_machine_name(m->machine));
    mp_jw_kuint(w, "ptr_size", m->ptr_size);
    mp_jw_kbool(w, "big_endian", m->big);
    mp_jw_end(w);
}

static void write_build_id(struct mp_jw *w, const struct mp_model *m)
{
    char hex[2 * MCUPROF_BUILD_ID_MAX + 1];
    unsigned i;

    for (i = 0; i < m->build_id_len && i < MCUPROF_BUILD_ID_MAX; i++)
        snprintf(hex + 2 * i, 3, "%02x", m->build_id[i]);
    hex[2 * i] = '\0';
    mp_jw_kstring(w, "build_id", m->build_id_len ? hex : NULL);
}

/* The header's words no other member holds, under their names in
 * mcuprof/image.h, on one line; null without an image's header. */
static void write_header(struct mp_jw *w, const struct mp_model *m)
{
    const struct mp_model_header *h = &m->header;
    size_t r;

    mp_jw_key(w, "header");
    if (!m->has_header) {
        mp_jw_null(w);
        return;
    }
    mp_jw_object(w, 1);
    mp_jw_khex(w, "image_addr", h->image_addr);
    mp_jw_kuint(w, "image_size", h->image_size);
    mp_jw_kuint(w, "header_size", h->header_size);
    mp_jw_kuint(w, "state", h->state);
    write_flags(w, "state_flags", h->state, mp_json_state_flags, MP_JSON_STATE_FLAGS);
    mp_jw_kuint(w, "freeze_request", h->freeze_request);
    mp_jw_kuint(w, "freeze_ack", h->freeze_ack);
    mp_jw_kuint(w, "arcs_offset", h->arcs_offset);
    mp_jw_kuint(w, "arcs_capacity", h->arcs_capacity);
    mp_jw_kuint(w, "arcs_used", h->arcs_used);
    mp_jw_kuint(w, "arc_record_size", h->arc_record_size);
    mp_jw_kuint(w, "hash_shift", h->hash_shift);
    mp_jw_kuint(w, "buckets_offset", h->buckets_offset);
    mp_jw_kuint(w, "nbuckets", h->nbuckets);
    mp_jw_kuint(w, "links_offset", h->links_offset);
    mp_jw_kuint(w, "ext_offset", h->ext_offset);
    mp_jw_key(w, "hist_offsets");
    mp_jw_array(w, 1);
    for (r = 0; r < m->nranges && r < MCUPROF_MAX_RANGES; r++)
        mp_jw_uint(w, h->hist_offset[r]);
    mp_jw_end(w);
    mp_jw_end(w);
}

static void write_counters(struct mp_jw *w, const struct mp_model *m)
{
    const struct mp_model_counters *c = &m->c;
    unsigned i;

    mp_jw_key(w, "counters");
    mp_jw_object(w, 0);
    mp_jw_kuint(w, "samples_taken", c->samples_taken);
    mp_jw_kuint(w, "binned", c->binned);
    mp_jw_key(w, "lost");
    mp_jw_object(w, 1);
    for (i = 0; i < MP_LOST_COUNT; i++)
        mp_jw_kuint(w, mp_lost_names[i], c->lost[i]);
    mp_jw_end(w);
    mp_jw_kuint(w, "missed_periods", c->missed_periods);
    mp_jw_kstring(w, "missed_source", mp_missed_source_name(c->missed_source));
    mp_jw_kuint(w, "timing_flags", c->timing_flags);
    mp_jw_kuint(w, "deferred_samples", c->deferred_samples);
    mp_jw_kuint(w, "arc_table_repairs", c->arc_table_repairs);
    mp_jw_kuint(w, "total_calls", c->total_calls);
    mp_jw_kuint(w, "outside_calls", c->outside_calls);
    mp_jw_kuint(w, "saturated_arcs", c->saturated_arcs);
    mp_jw_kuint(w, "saturated_bins", c->saturated_bins);
    mp_jw_kuint(w, "timer_period", c->timer_period);
    mp_jw_kuint(w, "jitter_percent", c->jitter_percent);
    mp_jw_kuint(w, "generation", c->generation);
    mp_jw_end(w);
}

static void write_ranges(struct mp_jw *w, const struct mp_model *m)
{
    size_t r;
    uint64_t b;

    mp_jw_key(w, "ranges");
    mp_jw_array(w, 0);
    for (r = 0; r < m->nranges; r++) {
        const struct mp_model_range *rg = &m->ranges[r];

        mp_jw_object(w, 0);
        mp_jw_khex(w, "low", rg->low);
        mp_jw_khex(w, "high", rg->high);
        mp_jw_kuint(w, "nbins", rg->nbins);
        mp_jw_kuint(w, "samples", rg->samples);
        mp_jw_key(w, "bins");
        mp_jw_array(w, 1);
        for (b = 0; b < rg->nbins; b++)
            mp_jw_uint(w, rg->bins[b]);
        mp_jw_end(w);
        mp_jw_end(w);
    }
    mp_jw_end(w);
}

static void write_arcs(struct mp_jw *w, const struct mp_model *m)
{
    size_t i;

    mp_jw_key(w, "arcs");
    mp_jw_array(w, 0);
    for (i = 0; i < m->narcs; i++) {
        const struct mp_model_arc *a = &m->arcs[i];

        mp_jw_object(w, 1);
        mp_jw_khex(w, "callsite", a->callsite);
        mp_jw_khex(w, "callee", a->callee);
        mp_jw_kuint(w, "count", a->count);
        mp_jw_kbool(w, "saturated", a->saturated);
        mp_jw_kstring(w, "caller", func_name(m, a->caller));
        mp_jw_kstring(w, "callee_name", func_name(m, a->callee_fn));
        mp_jw_end(w);
    }
    mp_jw_end(w);
}

static void write_contexts(struct mp_jw *w, const struct mp_model *m)
{
    size_t i;

    table_start(w, "contexts", m->contexts_lost, NULL, 0);
    for (i = 0; i < m->ncontexts; i++) {
        char name[48];

        mp_jw_object(w, 1);
        mp_jw_kuint(w, "key", m->contexts[i].key);
        mp_jw_kstring(w, "name", mp_context_name(m->machine, m->contexts[i].key, name, sizeof(name)));
        mp_jw_kuint(w, "samples", m->contexts[i].samples);
        mp_jw_end(w);
    }
    table_end(w);
}

static void write_tasks(struct mp_jw *w, const struct mp_model *m)
{
    size_t i;

    table_start(w, "tasks", m->tasks_lost, "invalid", m->tasks_invalid);
    for (i = 0; i < m->ntasks; i++) {
        mp_jw_object(w, 1);
        mp_jw_khex(w, "handle", m->tasks[i].handle);
        mp_jw_kstring(w, "name", m->tasks[i].name);
        mp_jw_kuint(w, "samples", m->tasks[i].samples);
        mp_jw_kbool(w, "deleted", m->tasks[i].deleted);
        mp_jw_end(w);
    }
    table_end(w);
}

/* One path per line: its flags by name, its frames outermost first and,
 * with the ELF, the function of each frame (null outside every one). A
 * path without samples says nothing and is left out, as the image's
 * model leaves out drained ones (the reader refuses them). */
static void write_paths(struct mp_jw *w, const struct mp_model *m)
{
    size_t i;
    unsigned k;

    table_start(w, "paths", m->paths_lost, "truncated", m->paths_truncated);
    for (i = 0; i < m->npaths; i++) {
        const struct mp_model_path *p = &m->paths[i];

        if (!p->samples)
            continue;
        mp_jw_object(w, 1);
        mp_jw_kuint(w, "samples", p->samples);
        write_flags(w, "flags", p->flags, mp_json_path_flags, MP_JSON_PATH_FLAGS);
        mp_jw_key(w, "frames");
        mp_jw_array(w, 1);
        for (k = 0; k < p->depth; k++)
            mp_jw_hex(w, p->frames[k]);
        mp_jw_end(w);
        if (m->elf_path) {
            mp_jw_key(w, "functions");
            mp_jw_array(w, 1);
            for (k = 0; k < p->depth; k++)
                mp_jw_string(w, func_name(m, mp_model_find_func(m, p->frames[k])));
            mp_jw_end(w);
        }
        mp_jw_end(w);
    }
    table_end(w);
}

static void write_functions(struct mp_jw *w, const struct mp_model *m)
{
    size_t i;

    mp_jw_key(w, "functions");
    mp_jw_array(w, 0);
    for (i = 0; i < m->nfuncs; i++) {
        const struct mp_model_func *f = &m->funcs[i];

        mp_jw_object(w, 1);
        mp_jw_kstring(w, "name", f->name);
        mp_jw_khex(w, "addr", f->addr);
        mp_jw_khex(w, "end", f->end);
        mp_jw_kuint(w, "size", f->size);
        mp_jw_kdouble(w, "self", f->self);
        mp_jw_kuint(w, "calls", f->calls);
        mp_jw_kbool(w, "hidden", f->hidden);
        mp_jw_kbool(w, "static", f->is_static);
        mp_jw_kbool(w, "shared", f->shared);
        mp_jw_kstring(w, "file", f->file);
        mp_jw_kuint(w, "line", f->line);
        mp_jw_kstring(w, "symbol", mp_model_func_symbol(f));
        mp_jw_end(w);
    }
    mp_jw_end(w);
    mp_jw_key(w, "attribution");
    mp_jw_object(w, 1);
    mp_jw_kdouble(w, "outside", m->outside);
    mp_jw_kdouble(w, "hidden", m->hidden);
    mp_jw_kdouble(w, "gprof_total", m->gprof_total);
    mp_jw_kuint(w, "shared_samples", m->shared_samples);
    mp_jw_end(w);
    mp_jw_kbool(w, "lines_missing", m->lines_missing);
}

static void write_lines(struct mp_jw *w, const struct mp_model *m)
{
    size_t i;

    mp_jw_key(w, "lines");
    mp_jw_array(w, 0);
    for (i = 0; i < m->nlines; i++) {
        const struct mp_model_line *l = &m->lines[i];

        mp_jw_object(w, 1);
        mp_jw_kstring(w, "function", func_name(m, l->func));
        mp_jw_key(w, "function_index");
        if (func_name(m, l->func))
            mp_jw_uint(w, (uint64_t)l->func);
        else
            mp_jw_null(w);
        mp_jw_kstring(w, "file", l->file);
        mp_jw_kuint(w, "line", l->line);
        mp_jw_khex(w, "addr", l->addr);
        mp_jw_kdouble(w, "samples", l->samples);
        mp_jw_end(w);
    }
    mp_jw_end(w);
}

static void write_line_table(struct mp_jw *w, const struct mp_model *m)
{
    size_t i;

    mp_jw_key(w, "line_table");
    mp_jw_array(w, 0);
    for (i = 0; i < m->nlinerows; i++) {
        const struct mp_model_linerow *r = &m->linerows[i];

        mp_jw_object(w, 1);
        mp_jw_khex(w, "addr", r->addr);
        mp_jw_khex(w, "end", r->end);
        mp_jw_kstring(w, "file", r->file);
        mp_jw_kuint(w, "line", r->line);
        mp_jw_end(w);
    }
    mp_jw_end(w);
}

void mp_json_profile(struct mp_jw *w, const struct mp_model *m)
{
    mp_jw_object(w, 0);
    mp_jw_kstring(w, "schema", MP_JSON_SCHEMA);
    mp_jw_kuint(w, "version", MP_JSON_VERSION);
    mp_jw_kstring(w, "source", source_name(m->source));
    write_machine(w, m);
    write_build_id(w, m);
    mp_jw_kuint(w, "image_version", m->image_version);
    write_header(w, m);
    mp_jw_kuint(w, "sample_rate_hz", m->sample_rate_hz);
    mp_jw_kuint(w, "bin_shift", m->bin_shift);
    mp_jw_kuint(w, "counter_bytes", m->counter_bytes);
    mp_jw_kuint(w, "samples_total", mp_model_samples_total(m));
    write_counters(w, m);
    write_ranges(w, m);
    write_arcs(w, m);
    if (m->has_contexts)
        write_contexts(w, m);
    if (m->has_tasks)
        write_tasks(w, m);
    if (m->has_paths)
        write_paths(w, m);
    if (m->has_late)
        write_late(w, m);
    if (m->has_blockers)
        write_blockers(w, m);
    if (m->has_held)
        write_held(w, m);
    mp_jw_kstring(w, "elf", m->elf_path);
    if (m->elf_path) {
        write_functions(w, m);
        /* which view the functions are in: each GCC clone its own, or
         * grouped with its origin (then the calls into a function's own
         * outlined pieces are in no arc) */
        mp_jw_key(w, "clones");
        mp_jw_object(w, 1);
        mp_jw_kbool(w, "grouped", m->clones_grouped);
        mp_jw_kuint(w, "internal_calls", m->internal_calls);
        mp_jw_end(w);
    }
    if (m->nlines)
        write_lines(w, m);
    if (m->nlinerows)
        write_line_table(w, m);
}

static int write_json(const struct mp_model *m, FILE *f)
{
    struct mp_jw w;

    mp_jw_init(&w, f);
    mp_json_profile(&w, m);
    mp_jw_end(&w);
    return ferror(f) ? -1 : 0;
}

const struct mp_format mp_format_json = {
    "json", "mcuprof.json", "the whole profile as JSON, for scripts and for reading back",
    MP_WANTS_ELF | MP_WANTS_LINES, mp_json_check, write_json,
    .rank = 60,
};

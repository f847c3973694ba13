/*
 * format_pprof.c - google/pprof's profile.proto, gzipped: what `go tool
 * pprof` (and pprof's web UI) reads. Field numbers are profile.proto's
 * (github.com/google/pprof, proto/profile.proto).
 *
 * Three sample types, in this order:
 *   samples/count    one Sample per non-zero histogram bin: its one
 *                    location is the bin's first address (a bin belongs
 *                    to one function, DESIGN.md), its value the bin's count
 *   cpu/nanoseconds  the same samples times the sampling period; left out
 *                    when the rate is unknown (0) rather than guessed
 *   calls/count      one Sample per arc: the stack [callee entry, call
 *                    site], leaf first as pprof wants, its value the count
 * so `-sample_index=samples` is gprof's flat profile and
 * `-sample_index=calls` its call counts. The loss counters are profile
 * comments (`pprof -comments`).
 *
 * With call paths (a PATHS build), two more, and the default:
 *   paths/count      one Sample per recorded path: its whole stack, the
 *                    innermost function's entry first, its value the
 *                    path's samples; a path whose outer frames are
 *                    missing has the label path=truncated or path=cut at
 *                    task switch; one deeper than the shadow stack the
 *                    label path=gap and, where frames were dropped, a
 *                    location in the Function [...]; the string labels
 *                    task (its name, model/task_label.c) and context (as
 *                    `mcuprof info` names it) say where it ran, when the
 *                    runtime recorded it: `-tagfocus task=NAME` is one task's
 *                    profile
 *   paths_cpu/nanoseconds  the same in time (left out without a rate)
 * Their own types, not values of samples/count: added there, every
 * sample would count twice (once in its bin, once in its path) and the
 * flat profile would no longer be gprof's. `-sample_index=paths` gives
 * measured inclusive time (cum) and flame graphs (`-http`).
 *
 * Streamed: each top-level field is encoded alone and compressed at once.
 * What is held until the end is the string table (the model's names, a
 * few constants) and the arcs' distinct addresses, both bounded by the
 * model, which is in memory already.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "formats.h"
#include "gzip_out.h"
#include "path_name.h"
#include "pb_write.h"
#include "sort.h"
#include "strtab.h"
#include "text_safe.h"
#include "timing.h"

/* Said once on stderr and as a comment: without a path table a time
 * sample is one frame, which pprof's flame graph and graph draw as
 * unconnected boxes, and nothing else would tell why. */
#define NO_PATHS                                                                                       \
    "the runtime was built without PATHS: each time sample is one frame, so the flame graph is one " \
    "level and the graph has no edges in time; -sample_index=calls has the call graph, in calls"

/* profile.proto field numbers, by message. */
enum {
    PROFILE_SAMPLE_TYPE = 1, PROFILE_SAMPLE = 2, PROFILE_MAPPING = 3, PROFILE_LOCATION = 4,
    PROFILE_FUNCTION = 5, PROFILE_STRING_TABLE = 6, PROFILE_DURATION_NANOS = 10, PROFILE_PERIOD_TYPE = 11,
    PROFILE_PERIOD = 12, PROFILE_COMMENT = 13, PROFILE_DEFAULT_SAMPLE_TYPE = 14,
};
enum { VALUE_TYPE_TYPE = 1, VALUE_TYPE_UNIT = 2 };
enum { SAMPLE_LOCATION_ID = 1, SAMPLE_VALUE = 2, SAMPLE_LABEL = 3 };
enum { LABEL_KEY = 1, LABEL_STR = 2 };
enum {
    MAPPING_ID = 1, MAPPING_MEMORY_START = 2, MAPPING_MEMORY_LIMIT = 3, MAPPING_FILE_OFFSET = 4,
    MAPPING_FILENAME = 5, MAPPING_BUILD_ID = 6, MAPPING_HAS_FUNCTIONS = 7, MAPPING_HAS_FILENAMES = 8,
    MAPPING_HAS_LINE_NUMBERS = 9,
};
enum { LOCATION_ID = 1, LOCATION_MAPPING_ID = 2, LOCATION_ADDRESS = 3, LOCATION_LINE = 4 };
enum { LINE_FUNCTION_ID = 1, LINE_LINE = 2 };
enum { FUNCTION_ID = 1, FUNCTION_NAME = 2, FUNCTION_SYSTEM_NAME = 3, FUNCTION_FILENAME = 4,
       FUNCTION_START_LINE = 5 };

/* The one mapping every location belongs to. */
#define MAPPING 1u
#define NS_PER_S 1000000000u
/* Compressed in chunks of about this size: large enough for zlib to work
 * well, small enough that a huge profile never sits in memory. */
#define FLUSH_AT 65536u

struct label {
    const char *key, *str;
};

struct pprof {
    const struct mp_model *m;
    struct mp_gzip gz;
    struct mp_pb top;        /* top-level fields not compressed yet */
    struct mp_pb msg, sub;   /* the message being built, one inside it */
    struct mp_strtab st;
    const char **func_file;  /* per function: the file its Function names, or NULL */
    uint64_t *arc_addr;      /* the arcs' distinct addresses, sorted */
    size_t narc_addr;
    uint64_t arc_loc0;       /* location id of arc_addr[0]; bins' ids come first */
    uint64_t *path_addr;     /* the paths' distinct frames, sorted */
    size_t npath_addr;
    uint64_t path_loc0;      /* location id of path_addr[0], after the arcs' */
    int has_gap;             /* a path has the gap: the Function [...] follows the model's */
    int oom;
};

/* pprof's values are int64: a count beyond that (never seen, but the
 * model is 64-bit) is written as the largest one rather than negative. */
static uint64_t clamp(uint64_t v)
{
    return v > INT64_MAX ? INT64_MAX : v;
}

/* N samples in nanoseconds at RATE Hz, rounded: N * 1e9 / RATE without
 * overflowing on the way (N = a * RATE + b), saturating at INT64_MAX. */
static uint64_t ns_of(uint64_t n, uint32_t rate)
{
    uint64_t q = NS_PER_S / rate, r = NS_PER_S % rate, a = n / rate, b = n % rate;
    uint64_t hi, rest;

    if (q && n > INT64_MAX / q)
        return INT64_MAX;
    hi = n * q;
    rest = a * r + (b * r + rate / 2) / rate; /* a * r < n; b * r < 2^64 */
    return rest > INT64_MAX - hi ? INT64_MAX : hi + rest;
}

static uint64_t str(struct pprof *p, const char *s)
{
    int64_t i = mp_strtab_add(&p->st, s);

    if (i < 0) {
        p->oom = 1;
        return 0;
    }
    return (uint64_t)i;
}

/* Hand the top-level fields to the compressor once there are enough.
 * After an allocation failed they may be incomplete: stop there. */
static int flush(struct pprof *p, size_t at)
{
    if (p->oom || p->top.failed)
        return -1;
    if (p->top.len < at)
        return 0;
    if (mp_gzip_write(&p->gz, p->top.data, p->top.len) < 0)
        return -1;
    mp_pb_clear(&p->top);
    return 0;
}

/* Append the message built in p->msg as top-level field FIELD. */
static int emit(struct pprof *p, unsigned field)
{
    mp_pb_message(&p->top, field, &p->msg);
    mp_pb_clear(&p->msg);
    return flush(p, FLUSH_AT);
}

static int value_type(struct pprof *p, unsigned field, const char *type, const char *unit)
{
    mp_pb_uint(&p->msg, VALUE_TYPE_TYPE, str(p, type));
    mp_pb_uint(&p->msg, VALUE_TYPE_UNIT, str(p, unit));
    return emit(p, field);
}

/* The line number a location of function FN may show. pprof takes the
 * file from the Function, so a line of another file (code inlined from a
 * header) is left out rather than shown against the wrong file. */
static unsigned line_of(const struct pprof *p, long fn, uint64_t addr)
{
    const char *file;
    unsigned line;

    if (!p->func_file[fn] || mp_model_line_at(p->m, addr, &file, &line) < 0 ||
        strcmp(file, p->func_file[fn]) != 0)
        return 0;
    return line;
}

/* Location ID at ADDR, with the function holding it (when the model has
 * functions) as its one Line. Without functions the address alone lets
 * pprof symbolize against the ELF itself. */
/* The location of ADDR, or GAP: the gap of the paths that have one (frame
 * 0), in the Function [...] after the model's. */
static int location(struct pprof *p, uint64_t id, uint64_t addr, int gap)
{
    long fn = mp_model_find_func(p->m, addr);

    mp_pb_uint(&p->msg, LOCATION_ID, id);
    mp_pb_uint(&p->msg, LOCATION_MAPPING_ID, MAPPING);
    mp_pb_uint(&p->msg, LOCATION_ADDRESS, addr);
    if (gap) {
        mp_pb_clear(&p->sub);
        mp_pb_uint(&p->sub, LINE_FUNCTION_ID, (uint64_t)p->m->nfuncs + 1);
        mp_pb_message(&p->msg, LOCATION_LINE, &p->sub);
    } else if (fn >= 0) {
        unsigned line = line_of(p, fn, addr);

        mp_pb_clear(&p->sub);
        mp_pb_uint(&p->sub, LINE_FUNCTION_ID, (uint64_t)fn + 1);
        if (line)
            mp_pb_int(&p->sub, LINE_LINE, line);
        mp_pb_message(&p->msg, LOCATION_LINE, &p->sub);
    }
    return emit(p, PROFILE_LOCATION);
}

/* PATHS: the path types' values (0 for a bin or an arc). */
static int sample_with(struct pprof *p, const uint64_t *loc, size_t nloc, uint64_t samples, uint64_t calls,
                       uint64_t paths, const struct label *labels, size_t nlabels)
{
    uint64_t v[5];
    size_t n = 0, i;

    v[n++] = clamp(samples);
    if (p->m->sample_rate_hz)
        v[n++] = ns_of(samples, p->m->sample_rate_hz);
    v[n++] = clamp(calls);
    if (p->m->has_paths) {
        v[n++] = clamp(paths);
        if (p->m->sample_rate_hz)
            v[n++] = ns_of(paths, p->m->sample_rate_hz);
    }
    mp_pb_packed(&p->msg, SAMPLE_LOCATION_ID, loc, nloc);
    mp_pb_packed(&p->msg, SAMPLE_VALUE, v, n);
    for (i = 0; i < nlabels; i++) {
        mp_pb_clear(&p->sub);
        mp_pb_uint(&p->sub, LABEL_KEY, str(p, labels[i].key));
        mp_pb_uint(&p->sub, LABEL_STR, str(p, labels[i].str));
        mp_pb_message(&p->msg, SAMPLE_LABEL, &p->sub);
    }
    return emit(p, PROFILE_SAMPLE);
}

static int sample(struct pprof *p, const uint64_t *loc, size_t nloc, uint64_t samples, uint64_t calls,
                  const struct label *labels, size_t nlabels)
{
    return sample_with(p, loc, nloc, samples, calls, 0, labels, nlabels);
}

/* Bin B's first address: exact for the power-of-two bins of an image and
 * for the fractional bins a foreign gmon.out may have. */
static uint64_t bin_addr(const struct mp_model_range *r, uint64_t b)
{
    uint64_t span = r->high - r->low;

    return r->low + b * (span / r->nbins) + b * (span % r->nbins) / r->nbins;
}

/* The time samples. Bins get location ids 1.. in range order, whether
 * they hold samples or not, so an id needs no table. */
static int time_samples(struct pprof *p)
{
    uint64_t base = 0, b;
    size_t r;

    for (r = 0; r < p->m->nranges; r++) {
        const struct mp_model_range *rg = &p->m->ranges[r];

        for (b = 0; b < rg->nbins; b++) {
            uint64_t id = base + b + 1;

            if (!rg->bins[b])
                continue;
            if (location(p, id, bin_addr(rg, b), 0) < 0 || sample(p, &id, 1, rg->bins[b], 0, NULL, 0) < 0)
                return -1;
        }
        base += rg->nbins;
    }
    p->arc_loc0 = base + 1;
    return 0;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

    return x < y ? -1 : x > y;
}

static uint64_t arc_loc(const struct pprof *p, uint64_t addr)
{
    const uint64_t *hit = mp_bsearch(&addr, p->arc_addr, p->narc_addr, sizeof(addr), cmp_u64);

    return p->arc_loc0 + (uint64_t)(hit - p->arc_addr);
}

/* One location per distinct callee entry and call site; then one sample
 * per arc. A caller outside code (an interrupt handler's entry, callsite
 * 0) has no frame: a one-frame stack, labelled as gprof names it. */
static int call_samples(struct pprof *p)
{
    const struct mp_model *m = p->m;
    size_t i, n = 0;

    if (!m->narcs)
        return 0;
    if (!(p->arc_addr = malloc(m->narcs * 2 * sizeof(*p->arc_addr)))) {
        p->oom = 1;
        return -1;
    }
    for (i = 0; i < m->narcs; i++) {
        p->arc_addr[n++] = m->arcs[i].callee;
        if (m->arcs[i].callsite)
            p->arc_addr[n++] = m->arcs[i].callsite;
    }
    mp_sort(p->arc_addr, n, sizeof(*p->arc_addr), cmp_u64);
    for (i = 0; i < n; i++)
        if (!p->narc_addr || p->arc_addr[i] != p->arc_addr[p->narc_addr - 1])
            p->arc_addr[p->narc_addr++] = p->arc_addr[i];
    for (i = 0; i < p->narc_addr; i++)
        if (location(p, p->arc_loc0 + i, p->arc_addr[i], 0) < 0)
            return -1;
    for (i = 0; i < m->narcs; i++) {
        const struct mp_model_arc *a = &m->arcs[i];
        uint64_t loc[2];
        struct label labels[2];
        size_t nloc = 0, nlabels = 0;

        loc[nloc++] = arc_loc(p, a->callee);
        if (a->callsite)
            loc[nloc++] = arc_loc(p, a->callsite);
        else
            labels[nlabels++] = (struct label){"caller", "<spontaneous>"};
        if (a->saturated)
            labels[nlabels++] = (struct label){"count", "saturated"};
        if (sample(p, loc, nloc, 0, a->count, labels, nlabels) < 0)
            return -1;
    }
    return 0;
}

static uint64_t path_loc(const struct pprof *p, uint64_t addr)
{
    const uint64_t *hit = mp_bsearch(&addr, p->path_addr, p->npath_addr, sizeof(addr), cmp_u64);

    return p->path_loc0 + (uint64_t)(hit - p->path_addr);
}

/* One location per distinct frame of the paths (after the arcs' ids),
 * then one sample per path, its stack leaf first as pprof wants. */
static int path_samples(struct pprof *p)
{
    const struct mp_model *m = p->m;
    uint64_t *loc = NULL;
    size_t nframes = 0, maxdepth = 0, n = 0, i;
    unsigned k;

    p->path_loc0 = p->arc_loc0 + p->narc_addr;
    for (i = 0; i < m->npaths; i++) {
        nframes += m->paths[i].depth;
        maxdepth = m->paths[i].depth > maxdepth ? m->paths[i].depth : maxdepth;
    }
    if (!(p->path_addr = malloc((nframes ? nframes : 1) * sizeof(*p->path_addr))) ||
        !(loc = malloc((maxdepth ? maxdepth : 1) * sizeof(*loc)))) {
        p->oom = 1;
        return -1;
    }
    for (i = 0; i < m->npaths; i++) {
        for (k = 0; k < m->paths[i].depth; k++)
            p->path_addr[n++] = m->paths[i].frames[k];
        p->has_gap |= (m->paths[i].flags & MCUPROF_PATH_GAP) != 0;
    }
    mp_sort(p->path_addr, n, sizeof(*p->path_addr), cmp_u64);
    for (i = 0; i < n; i++)
        if (!p->npath_addr || p->path_addr[i] != p->path_addr[p->npath_addr - 1])
            p->path_addr[p->npath_addr++] = p->path_addr[i];
    for (i = 0; i < p->npath_addr; i++)
        /* (0 is never a frame but the gap: the readers check) */
        if (location(p, p->path_loc0 + i, p->path_addr[i], p->has_gap && p->path_addr[i] == 0) < 0)
            goto fail;
    for (i = 0; i < m->npaths; i++) {
        const struct mp_model_path *path = &m->paths[i];
        struct label labels[6]; /* task, context and each path flag */
        size_t nlabels = 0;
        char context[48];

        if (!path->samples)
            continue;
        if (path->task >= 0)
            labels[nlabels++] = (struct label){"task", mp_model_task_label(m, path->task)};
        if (path->context != MCUPROF_PATH_NO_CONTEXT)
            labels[nlabels++] =
                (struct label){"context", mp_context_name(m->machine, path->context, context, sizeof(context))};
        for (k = 0; k < path->depth; k++)
            loc[k] = path_loc(p, path->frames[path->depth - 1 - k]);
        if (path->flags & MCUPROF_PATH_TRUNCATED)
            labels[nlabels++] = (struct label){"path", "truncated"};
        if (path->flags & MCUPROF_PATH_CUT)
            labels[nlabels++] = (struct label){"path", "cut at task switch"};
        if (path->flags & MCUPROF_PATH_GAP)
            labels[nlabels++] = (struct label){"path", "gap"};
        if (!path->depth)
            labels[nlabels++] = (struct label){"path", "no profiled function"};
        if (sample_with(p, loc, path->depth, 0, 0, path->samples, labels, nlabels) < 0)
            goto fail;
    }
    free(loc);
    return 0;
fail:
    free(loc);
    return -1;
}

/* The file each Function names: its DWARF declaration, else the line
 * table's file at its entry. */
static int function_files(struct pprof *p)
{
    const struct mp_model *m = p->m;
    size_t i;

    if (!m->nfuncs)
        return 0;
    if (!(p->func_file = calloc(m->nfuncs, sizeof(*p->func_file)))) {
        p->oom = 1;
        return -1;
    }
    for (i = 0; i < m->nfuncs; i++) {
        const char *file;
        unsigned line;

        if (m->funcs[i].file)
            p->func_file[i] = m->funcs[i].file;
        else if (mp_model_line_at(m, m->funcs[i].addr, &file, &line) == 0)
            p->func_file[i] = file;
    }
    return 0;
}

static int functions(struct pprof *p)
{
    size_t i;

    for (i = 0; i < p->m->nfuncs; i++) {
        const struct mp_model_func *f = &p->m->funcs[i];

        mp_pb_uint(&p->msg, FUNCTION_ID, i + 1);
        mp_pb_uint(&p->msg, FUNCTION_NAME, str(p, f->name));
        mp_pb_uint(&p->msg, FUNCTION_SYSTEM_NAME, str(p, mp_model_func_symbol(f)));
        if (p->func_file[i])
            mp_pb_uint(&p->msg, FUNCTION_FILENAME, str(p, p->func_file[i]));
        if (f->file && f->line)
            mp_pb_int(&p->msg, FUNCTION_START_LINE, f->line);
        if (emit(p, PROFILE_FUNCTION) < 0)
            return -1;
    }
    if (p->has_gap) {
        mp_pb_uint(&p->msg, FUNCTION_ID, p->m->nfuncs + 1);
        mp_pb_uint(&p->msg, FUNCTION_NAME, str(p, MP_PATH_GAP_NAME));
        mp_pb_uint(&p->msg, FUNCTION_SYSTEM_NAME, str(p, MP_PATH_GAP_NAME));
        return emit(p, PROFILE_FUNCTION);
    }
    return 0;
}

/* The firmware runs at its link addresses, so a location's address is
 * already what the ELF's symbols say. pprof's convention for that is a
 * mapping from 0 spanning everything with offset 0: with a mapping that
 * starts at the code, pprof would shift every address by the distance
 * from its start to the ELF's load address when it symbolizes. */
static int mapping(struct pprof *p)
{
    const struct mp_model *m = p->m;
    char hex[2 * MCUPROF_BUILD_ID_MAX + 1];
    size_t i, has_files = 0;

    mp_pb_uint(&p->msg, MAPPING_ID, MAPPING);
    mp_pb_uint(&p->msg, MAPPING_MEMORY_START, 0);
    mp_pb_uint(&p->msg, MAPPING_MEMORY_LIMIT, UINT64_MAX);
    mp_pb_uint(&p->msg, MAPPING_FILE_OFFSET, 0);
    if (m->elf_path) {
        mp_pb_uint(&p->msg, MAPPING_FILENAME, str(p, mp_path_base(m->elf_path)));
    }
    if (m->build_id_len) {
        for (i = 0; i < m->build_id_len; i++)
            snprintf(hex + 2 * i, 3, "%02x", m->build_id[i]);
        mp_pb_uint(&p->msg, MAPPING_BUILD_ID, str(p, hex));
    }
    for (i = 0; i < m->nfuncs; i++)
        has_files |= p->func_file[i] != NULL;
    mp_pb_uint(&p->msg, MAPPING_HAS_FUNCTIONS, m->nfuncs != 0);
    mp_pb_uint(&p->msg, MAPPING_HAS_FILENAMES, has_files != 0);
    mp_pb_uint(&p->msg, MAPPING_HAS_LINE_NUMBERS, m->nlinerows != 0);
    return emit(p, PROFILE_MAPPING);
}

/* One comment line, formatted, into the list of comment string ids. */
static void comment(struct pprof *p, uint64_t *ids, size_t *n, const char *fmt, ...) MP_PRINTF(4, 5);
static void comment(struct pprof *p, uint64_t *ids, size_t *n, const char *fmt, ...)
{
    char line[512];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    ids[(*n)++] = str(p, line);
}

/* The samples by context and by task as one comment line each ("name
 * count, ..."), cut at the comment's length with "..." when a table is
 * long: pprof has no field for a sample's context. */
static void contexts_comment(struct pprof *p, uint64_t *ids, size_t *n)
{
    const struct mp_model *m = p->m;
    char line[480], name[64];
    size_t len = 0, i;

    len += (size_t)snprintf(line, sizeof(line), "samples by context:");
    for (i = 0; i < m->ncontexts && len < sizeof(line); i++)
        len += (size_t)snprintf(line + len, sizeof(line) - len, "%s %s %" PRIu64, i ? "," : "",
                                mp_context_name(m->machine, m->contexts[i].key, name, sizeof(name)),
                                m->contexts[i].samples);
    if (len < sizeof(line))
        snprintf(line + len, sizeof(line) - len, ", table full %" PRIu64, m->contexts_lost);
    comment(p, ids, n, "%s", line);
}

static void tasks_comment(struct pprof *p, uint64_t *ids, size_t *n)
{
    const struct mp_model *m = p->m;
    char line[480];
    size_t len = 0, i;

    len += (size_t)snprintf(line, sizeof(line), "samples by task:");
    for (i = 0; i < m->ntasks && len < sizeof(line); i++)
        len += (size_t)snprintf(line + len, sizeof(line) - len, "%s %s%s %" PRIu64, i ? "," : "",
                                m->tasks[i].handle ? (m->tasks[i].name[0] ? m->tasks[i].name : "?") : "(no task)",
                                m->tasks[i].deleted ? " (deleted)" : "", m->tasks[i].samples);
    if (len < sizeof(line))
        snprintf(line + len, sizeof(line) - len, ", table full %" PRIu64 ", invalid handle %" PRIu64, m->tasks_lost,
                 m->tasks_invalid);
    comment(p, ids, n, "%s", line);
}

/* The sampler's timing: its counters on one line, then each sentence
 * of timing.h as one, while the comment list has room. */
struct timing_lines {
    struct pprof *p;
    uint64_t *ids;
    size_t *n, cap;
};

static void timing_line(void *ctx, int warn, const char *sentence)
{
    struct timing_lines *t = ctx;

    (void)warn;
    if (*t->n < t->cap)
        comment(t->p, t->ids, t->n, "timing: %s", sentence);
}

static void timing_comments(struct pprof *p, uint64_t *ids, size_t *n, size_t cap)
{
    const struct mp_model *m = p->m;
    struct timing_lines t = {p, ids, n, cap};
    char flags[96];

    if (!m->c.timing_flags && !m->c.missed_periods && !m->has_late && !m->has_blockers && !m->held.samples)
        return;
    comment(p, ids, n,
            "timing: timing_flags 0x%04x (%s), deferred_samples %" PRIu64 ", late places %zu, late_lost %" PRIu64
            ", held off %" PRIu64 " samples %" PRIu64 " periods, blockers %zu, blockers_lost %" PRIu64 "%s%s",
            m->c.timing_flags, mp_timing_flag_names(m->c.timing_flags, flags, sizeof(flags)), m->c.deferred_samples,
            m->nlate, m->late_lost, m->held.samples, m->held.periods, m->nblockers, m->blockers_lost,
            mp_model_charged(m) ? " (the missed periods charged are in the samples, where interrupts came back on)"
                                : "",
            m->held.samples ? " (the samples held off and their periods are in none: the shares are of the time"
                              " the sampler could see)"
                            : "");
    mp_timing_sentences(m, 100.0, timing_line, &t);
}

/* Everything the target counted but pprof has no field for: what was
 * lost, and what the numbers rest on. pprof prints comments above every
 * report (and alone with -comments), so they are a few dense lines, each
 * counter under the name `mcuprof info` gives it. */
static int comments(struct pprof *p)
{
    const struct mp_model *m = p->m;
    const struct mp_model_counters *c = &m->c;
    const char *missed = mp_missed_source_name(c->missed_source);
    uint64_t ids[32];
    size_t n = 0;
    char rate[48] = "unknown (no cpu/nanoseconds values)", view[128];

    if (m->sample_rate_hz)
        snprintf(rate, sizeof(rate), "%" PRIu32, m->sample_rate_hz);
    comment(p, ids, &n, "mcuprof %s: sample_rate_hz %s, bin_size %" PRIu64 " bytes", m->name, rate,
            m->bin_shift && m->bin_shift < 64 ? (uint64_t)1 << m->bin_shift : 0u);
    comment(p, ids, &n,
            "samples: samples_taken %" PRIu64 "%s, binned %" PRIu64 ", %s %" PRIu64 ", %s %" PRIu64 ", %s %" PRIu64
            ", saturated_bins %" PRIu64 ", missed_periods %" PRIu64 " (measured by %s)",
            c->samples_taken, c->samples_taken ? "" : " (not recorded)", c->binned,
            mp_lost_names[MP_LOST_SAMPLES_OUT_OF_RANGE], c->lost[MP_LOST_SAMPLES_OUT_OF_RANGE],
            mp_lost_names[MP_LOST_SAMPLES_SATURATED], c->lost[MP_LOST_SAMPLES_SATURATED],
            mp_lost_names[MP_LOST_SAMPLES_FROZEN], c->lost[MP_LOST_SAMPLES_FROZEN], c->saturated_bins,
            c->missed_periods, missed ? missed : "unknown");
    comment(p, ids, &n,
            "calls: %s %" PRIu64 ", %s %" PRIu64 ", %s %" PRIu64 ", saturated_arcs %" PRIu64
            " (lower bounds, label count=saturated), arc_table_repairs %" PRIu64 ", calls_from_outside_code %" PRIu64
            " (label caller=<spontaneous>)",
            mp_lost_names[MP_LOST_ARCS_TABLE_FULL], c->lost[MP_LOST_ARCS_TABLE_FULL],
            mp_lost_names[MP_LOST_CALLS_REENTRANT], c->lost[MP_LOST_CALLS_REENTRANT],
            mp_lost_names[MP_LOST_CALLS_FROZEN], c->lost[MP_LOST_CALLS_FROZEN], c->saturated_arcs,
            c->arc_table_repairs, c->outside_calls);
    if (m->nfuncs)
        comment(p, ids, &n,
                "functions: samples_outside_functions %.0f, shared_bin_samples %" PRIu64
                " (a bin two functions share is charged to the one at its start)",
                m->outside, m->shared_samples);
    if (mp_model_clone_view(m, view, sizeof(view)))
        comment(p, ids, &n, "clones: %s", view);
    if (m->has_contexts)
        contexts_comment(p, ids, &n);
    if (m->has_tasks)
        tasks_comment(p, ids, &n);
    if (m->has_paths)
        comment(p, ids, &n,
                "paths: %zu call paths, paths_lost %" PRIu64 " (the path table was full),"
                " paths_truncated %" PRIu64 " (deeper than the shadow stack: label path=gap, path=truncated"
                " from older runtimes)",
                m->npaths, m->paths_lost, m->paths_truncated);
    else
        comment(p, ids, &n, "paths: none, %s", NO_PATHS);
    timing_comments(p, ids, &n, sizeof(ids) / sizeof(ids[0]));
    mp_pb_packed(&p->top, PROFILE_COMMENT, ids, n);
    return flush(p, FLUSH_AT);
}

/* The profile's own fields: period, duration, default type. */
static int header(struct pprof *p)
{
    const struct mp_model *m = p->m;

    if (m->sample_rate_hz) {
        if (value_type(p, PROFILE_PERIOD_TYPE, "cpu", "nanoseconds") < 0)
            return -1;
        mp_pb_int(&p->top, PROFILE_PERIOD, (int64_t)ns_of(1, m->sample_rate_hz));
        mp_pb_int(&p->top, PROFILE_DURATION_NANOS, (int64_t)ns_of(mp_model_samples_total(m), m->sample_rate_hz));
    }
    /* measured stacks, when there are any, are what a flame graph and
     * cum want; -sample_index=samples is still gprof's flat profile */
    mp_pb_int(&p->top, PROFILE_DEFAULT_SAMPLE_TYPE, (int64_t)str(p, m->has_paths ? "paths" : "samples"));
    return comments(p);
}

/* The string table last: by then every string has its index. pprof
 * requires entry 0 to be "", which it is (added first). */
static int string_table(struct pprof *p)
{
    size_t i;

    for (i = 0; i < p->st.n; i++) {
        /* pprof prints names as they are: escaped by the rule of
         * text_safe.h (one to one, so distinct names stay distinct) */
        mp_pb_string(&p->top, PROFILE_STRING_TABLE, mp_esc(p->st.s[i]));
        if (flush(p, FLUSH_AT) < 0)
            return -1;
    }
    return 0;
}

static int write_all(struct pprof *p)
{
    const struct mp_model *m = p->m;

    str(p, "");
    if (function_files(p) < 0 || value_type(p, PROFILE_SAMPLE_TYPE, "samples", "count") < 0 ||
        (m->sample_rate_hz && value_type(p, PROFILE_SAMPLE_TYPE, "cpu", "nanoseconds") < 0) ||
        value_type(p, PROFILE_SAMPLE_TYPE, "calls", "count") < 0 ||
        (m->has_paths && value_type(p, PROFILE_SAMPLE_TYPE, "paths", "count") < 0) ||
        (m->has_paths && m->sample_rate_hz && value_type(p, PROFILE_SAMPLE_TYPE, "paths_cpu", "nanoseconds") < 0) ||
        time_samples(p) < 0 || call_samples(p) < 0 || (m->has_paths && path_samples(p) < 0) || mapping(p) < 0 ||
        functions(p) < 0 || header(p) < 0 ||
        string_table(p) < 0 || flush(p, 1) < 0)
        return -1;
    return mp_gzip_close(&p->gz);
}

static int write_pprof(const struct mp_model *m, FILE *f)
{
    struct pprof p;
    int ret;

    if (!m->has_paths)
        mp_note(m->name, "no call paths: %s", NO_PATHS);
    memset(&p, 0, sizeof(p));
    p.m = m;
    mp_pb_init(&p.top);
    mp_pb_init(&p.msg);
    mp_pb_init(&p.sub);
    mp_strtab_init(&p.st);
    if (mp_gzip_open(&p.gz, f, m->name) < 0)
        return -1;
    ret = write_all(&p);
    if (ret < 0 && (p.oom || p.top.failed))
        mp_error(m->name, "pprof: out of memory");
    mp_gzip_abort(&p.gz);
    mp_pb_free(&p.top);
    mp_pb_free(&p.msg);
    mp_pb_free(&p.sub);
    mp_strtab_free(&p.st);
    free(p.func_file);
    free(p.arc_addr);
    free(p.path_addr);
    return ret;
}

const struct mp_format mp_format_pprof = {
    "pprof",
    "mcuprof.pb.gz",
    "gzipped profile.proto for go tool pprof: samples, calls, losses; names and lines with --elf",
    MP_WANTS_ELF | MP_WANTS_LINES,
    NULL,
    write_pprof,
    .rank = 30,
};

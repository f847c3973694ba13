/*
 * format_callgrind.c - the profile in valgrind's Callgrind Profile Format,
 * version 1, for KCachegrind / QCachegrind and callgrind_annotate.
 *
 * One fn= block per function with samples or calls: its self samples by
 * source line (when the ELF has a line table, with the code address of
 * each line as the first subposition), then one calls= pair per call site
 * with the callees' inclusive time from callgraph.h. Calls from code that
 * is no function (interrupt entry, start-up code without symbols) come
 * from a function of their own, <spontaneous>; samples in no function are
 * the self cost of <no function>, so the summary is every sample.
 *
 * The format's costs are whole numbers; gprof's self samples are not
 * (a bin shared by two functions is split by bytes). The whole samples
 * are dealt out among the functions (and <no function>) by largest
 * remainder, so they add up to the bins' samples (rounding each function
 * alone would give two halves of one bin a sample each), and each
 * function's whole number among its lines the same way, so its lines add
 * up to exactly its self samples whatever the reader sums.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "callgraph.h"
#include "diag.h"
#include "formats.h"
#include "sort.h"
#include "text_safe.h"

#define UNKNOWN_FILE "???"

/* Per model line and per function: the whole samples written. */
struct costs {
    uint64_t *line;  /* per model line (mp_model_line) */
    uint64_t *entry; /* per function: samples no line holds, at its entry */
    uint64_t self_total[2], outside; /* the summary, and <no function>'s */
    /* The lines of function v: line[order[first[v]] .. order[first[v + 1]]) */
    size_t *first, *order;
};

struct writer {
    const struct mp_model *m;
    FILE *f;
    struct mp_callgraph g;
    struct costs c;
    int has_lines;           /* positions: instr line */
    double ns_per_sample;    /* 0: the rate is unknown, no Ns event */
    const char **files;      /* distinct file names, sorted: id = index + 1 */
    size_t nfiles;
    unsigned char *file_named, *fn_named; /* the "(id) name" already written */
    unsigned char *dup_name; /* per function: another function has its name */
    size_t *by_caller, *by_caller_first; /* arcs grouped by calling function */
    const char *cur_file;    /* the file of the cost lines that follow */
    size_t fn_spontaneous, fn_outside; /* ids of the two pseudo functions */
};

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* --- numbers ----------------------------------------------------------- */

/* Rounded to a whole count; what no count can hold (a model read from a
 * hand-edited JSON document) is clamped, never undefined. */
static uint64_t whole(double samples)
{
    if (!(samples > 0))
        return 0;
    return samples < 9.2e18 ? (uint64_t)llround(samples) : (uint64_t)INT64_MAX;
}

static uint64_t ns_of(const struct writer *w, uint64_t samples)
{
    return whole((double)samples * w->ns_per_sample);
}

struct share {
    double frac;
    size_t i;
};

static int cmp_share(const void *a, const void *b)
{
    const struct share *x = a, *y = b;

    if (x->frac != y->frac)
        return x->frac > y->frac ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

/* Deal TOTAL whole samples out among N weights in proportion to them: the
 * floors first, the rest one each to the largest remainders. SCRATCH has
 * room for N shares. */
static void deal(uint64_t total, const double *weight, size_t n, uint64_t *out, struct share *scratch)
{
    double sum = 0;
    uint64_t given = 0;
    size_t i;

    for (i = 0; i < n; i++)
        sum += weight[i];
    for (i = 0; i < n; i++) {
        double exact = sum > 0 ? (double)total * weight[i] / sum : 0;

        out[i] = (uint64_t)floor(exact);
        given += out[i];
        scratch[i].frac = exact - floor(exact);
        scratch[i].i = i;
    }
    mp_sort(scratch, n, sizeof(*scratch), cmp_share);
    for (i = 0; given < total && n; i = (i + 1) % n, given++)
        out[scratch[i].i]++;
}

/* The whole self samples of every function and line. */
static int compute_costs(struct writer *w)
{
    const struct mp_model *m = w->m;
    size_t i, *first, *order, *fill = NULL;
    double *weight = NULL;
    uint64_t *dealt = NULL;
    struct share *scratch = NULL;
    int ret = -1;

    size_t most = (m->nlines > m->nfuncs ? m->nlines : m->nfuncs) + 2;
    uint64_t *self = NULL;
    double sum = 0;

    if (!(w->c.line = calloc(m->nlines + 1, sizeof(uint64_t))) ||
        !(w->c.entry = calloc(m->nfuncs + 1, sizeof(uint64_t))) ||
        !(first = w->c.first = calloc(m->nfuncs + 2, sizeof(size_t))) ||
        !(order = w->c.order = calloc(m->nlines + 1, sizeof(size_t))) ||
        !(fill = calloc(m->nfuncs + 1, sizeof(size_t))) || !(self = calloc(m->nfuncs + 1, sizeof(uint64_t))) ||
        !(weight = calloc(most, sizeof(double))) || !(dealt = calloc(most, sizeof(uint64_t))) ||
        !(scratch = calloc(most, sizeof(*scratch)))) {
        mp_error(m->name, "callgrind: out of memory (%zu functions, %zu lines)", m->nfuncs, m->nlines);
        goto out;
    }
    /* The whole samples of each function and of <no function>. */
    for (i = 0; i < m->nfuncs; i++)
        sum += weight[i] = m->funcs[i].self > 0 ? m->funcs[i].self : 0;
    sum += weight[m->nfuncs] = m->outside > 0 ? m->outside : 0;
    deal(whole(sum), weight, m->nfuncs + 1, self, scratch);
    /* The lines of each function, whatever order the model keeps them in. */
    for (i = 0; i < m->nlines; i++)
        if (m->lines[i].func >= 0 && (size_t)m->lines[i].func < m->nfuncs)
            first[m->lines[i].func + 1]++;
    for (i = 0; i < m->nfuncs; i++)
        first[i + 1] += first[i];
    memcpy(fill, first, m->nfuncs * sizeof(size_t));
    for (i = 0; i < m->nlines; i++)
        if (m->lines[i].func >= 0 && (size_t)m->lines[i].func < m->nfuncs)
            order[fill[m->lines[i].func]++] = i;
    for (i = 0; i < m->nfuncs; i++) {
        size_t k, n = first[i + 1] - first[i];
        double on_lines = 0, fself = m->funcs[i].self;

        for (k = 0; k < n; k++) {
            weight[k] = m->lines[order[first[i] + k]].samples > 0 ? m->lines[order[first[i] + k]].samples : 0;
            on_lines += weight[k];
        }
        /* What the line table does not cover stays at the entry. */
        weight[n] = fself > on_lines ? fself - on_lines : 0;
        deal(self[i], weight, n + 1, dealt, scratch);
        for (k = 0; k < n; k++) {
            w->c.line[order[first[i] + k]] = dealt[k];
            w->c.self_total[0] += dealt[k];
            w->c.self_total[1] += ns_of(w, dealt[k]);
        }
        w->c.entry[i] = dealt[n];
        w->c.self_total[0] += dealt[n];
        w->c.self_total[1] += ns_of(w, dealt[n]);
    }
    w->c.outside = self[m->nfuncs];
    w->c.self_total[0] += w->c.outside;
    w->c.self_total[1] += ns_of(w, w->c.outside);
    ret = 0;
out:
    free(fill);
    free(self);
    free(weight);
    free(dealt);
    free(scratch);
    return ret;
}

/* --- names ------------------------------------------------------------- */

/* A function's file: its declaration, else the line of its entry. */
static const char *func_file(const struct writer *w, size_t v)
{
    const char *file;
    unsigned line;

    if (w->m->funcs[v].file)
        return w->m->funcs[v].file;
    if (mp_model_line_at(w->m, w->m->funcs[v].addr, &file, &line) == 0 && file)
        return file;
    return UNKNOWN_FILE;
}

static int collect_files(struct writer *w)
{
    const struct mp_model *m = w->m;
    size_t i, n = 0, cap = m->nfuncs + m->nlines + 1;

    if (!(w->files = calloc(cap, sizeof(*w->files))) || !(w->file_named = calloc(cap, 1)))
        return mp_error(m->name, "callgrind: out of memory (%zu file names)", cap);
    w->files[n++] = UNKNOWN_FILE;
    for (i = 0; i < m->nfuncs; i++)
        w->files[n++] = func_file(w, i);
    for (i = 0; i < m->nlines; i++)
        if (m->lines[i].file)
            w->files[n++] = m->lines[i].file;
    mp_sort(w->files, n, sizeof(*w->files), cmp_str);
    w->nfiles = 0;
    for (i = 0; i < n; i++)
        if (!w->nfiles || strcmp(w->files[w->nfiles - 1], w->files[i]) != 0)
            w->files[w->nfiles++] = w->files[i];
    return 0;
}

static size_t file_id(const struct writer *w, const char *file)
{
    const char **hit = mp_bsearch(&file, w->files, w->nfiles, sizeof(*w->files), cmp_str);

    return hit ? (size_t)(hit - w->files) + 1 : 1;
}

/* Static functions of the same name in different objects are different
 * functions, and a reader that keys functions by file and name would add
 * them up when the files are unknown: such names get their address. */
static int find_dup_names(struct writer *w)
{
    const struct mp_model *m = w->m;
    const char **names;
    size_t i;

    if (!(w->dup_name = calloc(m->nfuncs + 1, 1)) || !(names = calloc(m->nfuncs + 1, sizeof(*names))))
        return mp_error(m->name, "callgrind: out of memory (%zu functions)", m->nfuncs);
    for (i = 0; i < m->nfuncs; i++)
        names[i] = m->funcs[i].name;
    mp_sort(names, m->nfuncs, sizeof(*names), cmp_str);
    for (i = 0; i < m->nfuncs; i++) {
        const char *name = m->funcs[i].name, **hit = mp_bsearch(&name, names, m->nfuncs, sizeof(*names), cmp_str);
        size_t k = (size_t)(hit - names);

        w->dup_name[i] = (k > 0 && strcmp(names[k - 1], name) == 0) ||
                         (k + 1 < m->nfuncs && strcmp(names[k + 1], name) == 0);
    }
    free(names);
    return 0;
}

/* A name runs to the end of its line: a line break in a symbol would
 * start a line of its own, and a reader may print the file, so it is
 * escaped by the rule of text_safe.h. */
static void put_name(FILE *f, const char *s)
{
    mp_esc_put(f, s);
}

/* KEY=(id) name the first time, KEY=(id) after: name compression. */
static void put_file(struct writer *w, const char *key, const char *file)
{
    size_t id = file_id(w, file);

    fprintf(w->f, "%s=(%zu)", key, id);
    if (!w->file_named[id - 1]) {
        w->file_named[id - 1] = 1;
        fputc(' ', w->f);
        put_name(w->f, w->files[id - 1]);
    }
    fputc('\n', w->f);
}

static void put_fn(struct writer *w, const char *key, size_t id)
{
    const struct mp_model *m = w->m;

    fprintf(w->f, "%s=(%zu)", key, id + 1);
    if (w->fn_named[id])
        goto end;
    w->fn_named[id] = 1;
    fputc(' ', w->f);
    if (id == w->fn_spontaneous)
        fputs("<spontaneous>", w->f);
    else if (id == w->fn_outside)
        fputs("<no function>", w->f);
    else {
        put_name(w->f, m->funcs[id].name);
        if (w->dup_name[id])
            fprintf(w->f, " [0x%llx]", (unsigned long long)m->funcs[id].addr);
    }
end:
    fputc('\n', w->f);
}

/* --- positions and costs ------------------------------------------------ */

/* The cost lines after this come from FILE: fi= into another file than
 * the function's, fe= back to it. */
static void set_file(struct writer *w, const char *fn_file, const char *file)
{
    if (strcmp(file, w->cur_file) == 0)
        return;
    put_file(w, strcmp(file, fn_file) == 0 ? "fe" : "fi", file);
    w->cur_file = strcmp(file, fn_file) == 0 ? fn_file : file;
}

static void put_position(const struct writer *w, uint64_t addr, unsigned line)
{
    if (w->has_lines)
        fprintf(w->f, "0x%llx %u", (unsigned long long)addr, line);
    else
        fprintf(w->f, "%u", line);
}

static void put_cost(const struct writer *w, uint64_t samples)
{
    fprintf(w->f, " %llu", (unsigned long long)samples);
    if (w->ns_per_sample > 0)
        fprintf(w->f, " %llu", (unsigned long long)ns_of(w, samples));
    fputc('\n', w->f);
}

/* The source line of ADDR in function V (or in no function, V < 0):
 * the line table's, else V's declaration, else line 0 of FALLBACK. */
static unsigned line_of(const struct writer *w, long v, uint64_t addr, const char *fallback, const char **file)
{
    unsigned line;

    if (mp_model_line_at(w->m, addr, file, &line) == 0 && *file)
        return line;
    *file = fallback;
    return v >= 0 ? w->m->funcs[v].line : 0;
}

/* --- blocks ------------------------------------------------------------- */

static void put_calls(struct writer *w, const char *fn_file, size_t a)
{
    const struct mp_model *m = w->m;
    const struct mp_model_arc *arc = &m->arcs[a];
    size_t callee = (size_t)arc->callee_fn;
    const char *callee_file = func_file(w, callee), *site_file;
    unsigned target_line, site_line;
    const char *target_file;

    target_line = line_of(w, (long)callee, arc->callee, callee_file, &target_file);
    site_line = line_of(w, arc->caller, arc->callsite, fn_file, &site_file);
    set_file(w, fn_file, site_file);
    if (arc->saturated)
        fputs("# the target's counter saturated: at least this many calls\n", w->f);
    put_file(w, "cfl", callee_file);
    put_fn(w, "cfn", callee);
    fprintf(w->f, "calls=%llu ", (unsigned long long)arc->count);
    put_position(w, arc->callee, target_line);
    fputc('\n', w->f);
    put_position(w, arc->callsite, site_line);
    put_cost(w, whole(w->g.arc_time[a]));
}

static void put_function(struct writer *w, size_t v)
{
    const struct mp_model *m = w->m;
    const struct mp_model_func *fn = &m->funcs[v];
    const char *fn_file = func_file(w, v), *file;
    size_t k;
    unsigned line;

    fputc('\n', w->f);
    put_file(w, "fl", fn_file);
    put_fn(w, "fn", v);
    w->cur_file = fn_file;
    for (k = w->c.first[v]; k < w->c.first[v + 1]; k++) {
        size_t i = w->c.order[k];
        const struct mp_model_line *l = &m->lines[i];

        if (!w->c.line[i])
            continue;
        /* Line 0 is code no source line produced (padding): the
         * function's own file, so a reader keeps it with the function. */
        set_file(w, fn_file, l->file && l->line ? l->file : fn_file);
        put_position(w, l->addr, l->line);
        put_cost(w, w->c.line[i]);
    }
    if (w->c.entry[v]) {
        line = line_of(w, (long)v, fn->addr, fn_file, &file);
        set_file(w, fn_file, file);
        put_position(w, fn->addr, line);
        put_cost(w, w->c.entry[v]);
    }
    for (k = w->by_caller_first[v]; k < w->by_caller_first[v + 1]; k++)
        put_calls(w, fn_file, w->by_caller[k]);
}

static void put_spontaneous(struct writer *w)
{
    const struct mp_model *m = w->m;
    size_t k, n = w->by_caller_first[m->nfuncs + 1] - w->by_caller_first[m->nfuncs];

    if (!n)
        return;
    fputs("\n# calls from code that is no function (interrupt entry, start-up code)\n", w->f);
    put_file(w, "fl", UNKNOWN_FILE);
    put_fn(w, "fn", w->fn_spontaneous);
    w->cur_file = UNKNOWN_FILE;
    for (k = w->by_caller_first[m->nfuncs]; k < w->by_caller_first[m->nfuncs + 1]; k++)
        put_calls(w, UNKNOWN_FILE, w->by_caller[k]);
}

/* Arcs grouped by caller in address order, call sites in address order
 * within a caller; callers that are no function come last (group
 * nfuncs). Arcs to code that is no function have nowhere to go. */
struct arc_key {
    size_t group;
    uint64_t site, callee;
    size_t i;
};

static int cmp_arc_key(const void *a, const void *b)
{
    const struct arc_key *x = a, *y = b;

    if (x->group != y->group)
        return x->group < y->group ? -1 : 1;
    if (x->site != y->site)
        return x->site < y->site ? -1 : 1;
    if (x->callee != y->callee)
        return x->callee < y->callee ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

static int group_arcs(struct writer *w)
{
    const struct mp_model *m = w->m;
    struct arc_key *keys;
    size_t i, n = 0;

    if (!(w->by_caller = calloc(m->narcs + 1, sizeof(size_t))) ||
        !(w->by_caller_first = calloc(m->nfuncs + 3, sizeof(size_t))) ||
        !(keys = calloc(m->narcs + 1, sizeof(*keys))))
        return mp_error(m->name, "callgrind: out of memory (%zu arcs)", m->narcs);
    for (i = 0; i < m->narcs; i++) {
        const struct mp_model_arc *a = &m->arcs[i];

        if (a->callee_fn < 0)
            continue;
        keys[n].group = a->caller >= 0 ? (size_t)a->caller : m->nfuncs;
        keys[n].site = a->callsite;
        keys[n].callee = a->callee;
        keys[n++].i = i;
    }
    mp_sort(keys, n, sizeof(*keys), cmp_arc_key);
    for (i = 0; i < n; i++) {
        w->by_caller[i] = keys[i].i;
        w->by_caller_first[keys[i].group + 1]++;
    }
    for (i = 0; i <= m->nfuncs; i++)
        w->by_caller_first[i + 1] += w->by_caller_first[i];
    free(keys);
    return 0;
}

/* --- the file ------------------------------------------------------------ */

static void put_header(struct writer *w)
{
    const struct mp_model *m = w->m;
    uint64_t lost_calls = 0;
    char view[128];
    size_t i;

    for (i = 0; i < m->narcs; i++)
        if (m->arcs[i].callee_fn < 0)
            lost_calls += m->arcs[i].count;
    fputs("# callgrind format\nversion: 1\ncreator: mcuprof\n", w->f);
    fputs("cmd: ", w->f);
    put_name(w->f, m->elf_path ? m->elf_path : m->name);
    fputs("\ndesc: Profile: ", w->f);
    put_name(w->f, m->name);
    fputc('\n', w->f);
    if (m->sample_rate_hz)
        fprintf(w->f, "desc: Sample rate: %lu Hz\n", (unsigned long)m->sample_rate_hz);
    fputs("desc: Call costs: the callee's inclusive samples shared among its callers by call count;"
          " this assumes every call of a function costs the same (gprof)\n",
          w->f);
    if (lost_calls)
        fprintf(w->f, "# %llu calls to code in no function are not shown\n", (unsigned long long)lost_calls);
    if (mp_model_clone_view(m, view, sizeof(view)))
        fprintf(w->f, "desc: Clones: %s\n", view);
    fprintf(w->f, "positions: %s\n", w->has_lines ? "instr line" : "line");
    /* events: last: callgrind_annotate reads it as the header's end. */
    fputs("event: Samples : Timer samples\n", w->f);
    if (w->ns_per_sample > 0)
        fputs("event: Ns : Nanoseconds (samples / sample rate)\nevents: Samples Ns\n", w->f);
    else
        fputs("events: Samples\n", w->f);
    fprintf(w->f, "summary: %llu", (unsigned long long)w->c.self_total[0]);
    if (w->ns_per_sample > 0)
        fprintf(w->f, " %llu", (unsigned long long)w->c.self_total[1]);
    fputc('\n', w->f);
    if (m->elf_path) {
        fputs("\nob=(1) ", w->f);
        put_name(w->f, m->elf_path);
        fputc('\n', w->f);
    }
}

static void writer_free(struct writer *w)
{
    mp_callgraph_free(&w->g);
    free(w->c.line);
    free(w->c.entry);
    free(w->c.first);
    free(w->c.order);
    free(w->files);
    free(w->file_named);
    free(w->fn_named);
    free(w->dup_name);
    free(w->by_caller);
    free(w->by_caller_first);
}

static int write_callgrind(const struct mp_model *m, FILE *f)
{
    struct writer w;
    size_t v;
    int ret = -1;

    memset(&w, 0, sizeof(w));
    w.m = m;
    w.f = f;
    w.has_lines = m->nlinerows > 0;
    w.ns_per_sample = m->sample_rate_hz ? 1e9 / m->sample_rate_hz : 0;
    w.fn_spontaneous = m->nfuncs;
    w.fn_outside = m->nfuncs + 1;
    if (mp_callgraph_compute(&w.g, m) < 0)
        return -1;
    if (compute_costs(&w) < 0 || collect_files(&w) < 0 || find_dup_names(&w) < 0 || group_arcs(&w) < 0)
        goto out;
    if (!(w.fn_named = calloc(m->nfuncs + 2, 1))) {
        mp_error(m->name, "callgrind: out of memory (%zu functions)", m->nfuncs);
        goto out;
    }
    put_header(&w);
    for (v = 0; v < m->nfuncs; v++)
        if (whole(m->funcs[v].self) || w.by_caller_first[v + 1] > w.by_caller_first[v])
            put_function(&w, v);
    put_spontaneous(&w);
    if (w.c.outside) {
        fputs("\n# samples in no function of the ELF\n", f);
        put_file(&w, "fl", UNKNOWN_FILE);
        put_fn(&w, "fn", w.fn_outside);
        put_position(&w, 0, 0);
        put_cost(&w, w.c.outside);
    }
    ret = 0;
out:
    writer_free(&w);
    return ret;
}

const struct mp_format mp_format_callgrind = {
    "callgrind", "callgrind.out.mcuprof",
    "for KCachegrind and callgrind_annotate: self samples by source line, calls, inclusive time",
    MP_NEEDS_ELF | MP_WANTS_LINES, NULL, write_callgrind, .rank = 40,
};

/*
 * path_print.c - the "call paths" block of `info`: how full the profile's
 * path table is, the samples it could not place, and its heaviest paths,
 *
 *     main > work_b > ender  900 (45.00 %)
 *
 * outermost function first, each share of every sample the table counted
 * (the paths' and the lost ones). A path whose outer frames are missing
 * starts with the pseudo-frame the folded format gives it, so it never
 * reads as if its outermost function were a root; a path deeper than the
 * shadow stack shows [...] where frames were dropped. Where the runtime
 * recorded them, the task and (but for a thread sample) the context come
 * first, as in the folded-task format: `[task P] > [IRQ 9] > worker`.
 */
#include "path_print.h"
#include "text_safe.h"

#include <inttypes.h>
#include <stdint.h>

#define LABEL "  %-28s "

/* Paths listed. */
#define TOP_PATHS 10u

/* A deeper path shows its outermost and innermost frames only (and its
 * gap, wherever it lies): a deep recursion would make one line of
 * hundreds of names, and the innermost frames are where the time is. The
 * folded and JSON formats have every frame. */
#define SHOWN_OUTER 3u
#define SHOWN_INNER 8u

static void print_frame(FILE *f, const struct mp_model *m, const struct mp_model_path *p, unsigned k)
{
    long fn = mp_model_path_func(m, p, k);

    if (fn >= 0)
        mp_esc_put(f, m->funcs[fn].name);
    else if (mp_model_path_gap(p, k))
        fputs(MP_PATH_GAP_NAME, f);
    else
        fprintf(f, "0x%" PRIx64, p->frames[k]);
}

static void print_path(FILE *f, const struct mp_model *m, const struct mp_model_path *p, uint64_t total)
{
    int elide = p->depth > SHOWN_OUTER + SHOWN_INNER + 1;
    unsigned k, run = 0;

    fputs("    ", f);
    if (p->task >= 0)
        fprintf(f, "[task %s] > ", mp_esc(mp_model_task_label(m, p->task)));
    if (p->context != MCUPROF_PATH_NO_CONTEXT && p->context != MCUPROF_CTX_THREAD) {
        char name[48];

        fprintf(f, "[%s] > ", mp_esc(mp_context_name(m->machine, p->context, name, sizeof(name))));
    }
    if (p->flags & MCUPROF_PATH_TRUNCATED)
        fputs("[truncated] > ", f);
    if (p->flags & MCUPROF_PATH_CUT)
        fputs("[cut at task switch] > ", f);
    if (!p->depth)
        fputs("[no profiled function]", f);
    for (k = 0; k < p->depth; k++) {
        if (elide && k >= SHOWN_OUTER && k < p->depth - SHOWN_INNER && !mp_model_path_gap(p, k)) {
            run++;
            continue;
        }
        if (run)
            fprintf(f, " > ... %u frame%s ...", run, run > 1 ? "s" : "");
        run = 0;
        if (k)
            fputs(" > ", f);
        print_frame(f, m, p, k);
    }
    fprintf(f, "  %" PRIu64 " (%.2f %%)%s\n", p->samples, total ? 100.0 * p->samples / (double)total : 0.0,
            p->samples == UINT32_MAX ? " (saturated: at least)" : "");
}

void mp_print_paths(FILE *f, const struct mp_model *m)
{
    const struct mp_model_tables *t = &m->tables;
    size_t top[TOP_PATHS], i;
    unsigned ntop = 0, j;
    uint64_t total;

    if (!m->has_paths)
        return;
    total = mp_model_path_samples(m);
    /* the heaviest first; of equal ones the first in the table (the
     * model keeps the table's order, paths without samples left out) */
    for (i = 0; i < m->npaths; i++) {
        for (j = ntop; j > 0; j--) {
            if (m->paths[top[j - 1]].samples >= m->paths[i].samples)
                break;
            if (j < TOP_PATHS)
                top[j] = top[j - 1];
        }
        if (j < TOP_PATHS) {
            top[j] = i;
            ntop += ntop < TOP_PATHS;
        }
    }
    fprintf(f, "call paths\n");
    fprintf(f, LABEL "%" PRIu32 " of %" PRIu32 " (%zu with samples), up to %u frames each\n", "paths in use",
            t->paths_used, t->paths_capacity, m->npaths, t->path_depth_max);
    fprintf(f, LABEL "%" PRIu64 " samples (the table was full)%s\n", "lost", m->paths_lost,
            m->paths_lost == UINT32_MAX ? " (saturated: at least)" : "");
    fprintf(f, LABEL "%" PRIu64 " samples (deeper than the shadow stack: frames missing at [...])%s\n", "past depth",
            m->paths_truncated, m->paths_truncated == UINT32_MAX ? " (saturated: at least)" : "");
    if (!ntop) {
        fprintf(f, "  no path has samples\n");
        return;
    }
    fprintf(f, "  top %u paths by samples (share of the %" PRIu64 " the table counted, lost included):\n", ntop, total);
    for (j = 0; j < ntop; j++)
        print_path(f, m, &m->paths[top[j]], total);
}

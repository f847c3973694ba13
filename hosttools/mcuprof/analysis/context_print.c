/*
 * context_print.c - the split of the samples by context and by RTOS task,
 * as `info` and `report` print it: each share of the samples the table
 * counted, with its 95 % interval, and what the tables could not hold.
 */
#include "context_print.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "text_safe.h"
#include "wilson.h"

/* Samples each table counted, its lost (and invalid) included. The
 * late-sample total (timing_print.c) is the same sum: each table's rows are
 * a struct of their own, so each sum is written out over its own. */
static uint64_t context_total(const struct mp_model *m)
{
    uint64_t sum = m->contexts_lost;
    size_t i;

    for (i = 0; i < m->ncontexts; i++)
        sum += m->contexts[i].samples;
    return sum;
}

static uint64_t task_total(const struct mp_model *m)
{
    uint64_t sum = m->tasks_lost + m->tasks_invalid;
    size_t i;

    for (i = 0; i < m->ntasks; i++)
        sum += m->tasks[i].samples;
    return sum;
}

static void share_line(FILE *f, const char *name, uint64_t n, uint64_t total)
{
    double lo, hi;

    mp_wilson((double)n, (double)total, &lo, &hi);
    fprintf(f, "    %-30s %10" PRIu64 "  %6.2f %%  [%.2f, %.2f]\n", mp_esc(name), n,
            total ? 100.0 * (double)n / (double)total : 0.0, 100.0 * lo, 100.0 * hi);
}

/* The runtime's call hook: its entry points and its C slow path. */
static int is_hook(const char *name)
{
    return mp_arch_is_hook(name) || strcmp(name, "mcuprof_mcount") == 0 || strncmp(name, "mcuprof_hook_", 13) == 0 ||
           strcmp(name, "mcuprof_record_arc") == 0;
}

/* With the ELF: the samples that landed in the call hook, the part of
 * thread (or handler) time the profiler itself costs. The sampler's own
 * interrupt cannot sample itself: its cost is in bench/RESULTS.md. */
static void print_hook(FILE *f, const struct mp_model *m, uint64_t total)
{
    double hook = 0.0;
    size_t i;

    for (i = 0; i < m->nfuncs; i++)
        if (is_hook(mp_model_func_symbol(&m->funcs[i])))
            hook += m->funcs[i].self;
    if (m->nfuncs)
        fprintf(f, "    %-30s %10.0f  %6.2f %%  (of the samples above; the sampler cannot sample itself)\n",
                "of which in the call hook", hook, total ? 100.0 * hook / (double)total : 0.0);
}

void mp_print_contexts(FILE *f, const struct mp_model *m)
{
    char name[64];
    uint64_t total;
    size_t i;

    if (!m->has_contexts) {
        fprintf(f, "  contexts: not recorded (runtime built with MCUPROF_CFG_CONTEXTS 0)\n");
    } else {
        total = context_total(m);
        fprintf(f, "  samples by context (%" PRIu64 " periods counted; share, 95 %% interval):\n", total);
        for (i = 0; i < m->ncontexts; i++)
            share_line(f, mp_context_name(m->machine, m->contexts[i].key, name, sizeof(name)), m->contexts[i].samples,
                       total);
        if (m->contexts_lost)
            share_line(f, "(contexts the table had no room for)", m->contexts_lost, total);
        print_hook(f, m, total);
    }
    if (!m->has_tasks)
        return;
    total = task_total(m);
    fprintf(f, "  samples by task (%" PRIu64 " counted):\n", total);
    for (i = 0; i < m->ntasks; i++) {
        const struct mp_model_task *t = &m->tasks[i];

        if (t->handle == 0)
            snprintf(name, sizeof(name), "(no task: before the scheduler)");
        else
            snprintf(name, sizeof(name), "%s @0x%" PRIx64 "%s", t->name[0] ? t->name : "?", t->handle,
                     t->deleted ? " (deleted)" : "");
        share_line(f, name, t->samples, total);
    }
    if (m->tasks_lost)
        share_line(f, "(tasks the table had no room for)", m->tasks_lost, total);
    if (m->tasks_invalid)
        share_line(f, "(invalid task handle)", m->tasks_invalid, total);
}

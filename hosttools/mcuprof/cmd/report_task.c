/*
 * report_task.c - `mcuprof report --task NAME`: one task's flat profile
 * from the call paths recorded in it (task_profile.h), in the flat
 * profile's style: shares with their 95 % Wilson interval, of the
 * samples the task's paths hold.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "report.h"
#include "sort.h"
#include "text_safe.h"
#include "wilson.h"

static double pct(uint64_t part, uint64_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* qsort has no context argument in C11: a file-scope pointer, set only
 * around the call. */
static const struct mp_task_profile *sort_tp;
static const struct mp_model *sort_m;

/* Self samples, then inclusive, then name. */
static int cmp_task_flat(const void *x, const void *y)
{
    long a = *(const long *)x, b = *(const long *)y;
    int c;

    if (sort_tp->self[a] != sort_tp->self[b])
        return sort_tp->self[a] < sort_tp->self[b] ? 1 : -1;
    if (sort_tp->incl[a] != sort_tp->incl[b])
        return sort_tp->incl[a] < sort_tp->incl[b] ? 1 : -1;
    c = strcmp(sort_m->funcs[a].name, sort_m->funcs[b].name);
    return c ? c : (a < b ? -1 : a > b);
}

static void share(FILE *f, uint64_t k, uint64_t n)
{
    double lo, hi;

    mp_wilson((double)k, (double)n, &lo, &hi);
    fprintf(f, "  %7.2f  %6.2f..%-7.2f  %12" PRIu64, pct(k, n), 100.0 * lo, 100.0 * hi, k);
}

int mp_report_task(FILE *f, const struct mp_report *r, const struct mp_task_profile *tp, const char *name,
                   const struct mp_name_regex *re, uint64_t top)
{
    const struct mp_model *m = r->m;
    long *order = malloc((m->nfuncs ? m->nfuncs : 1) * sizeof(*order));
    size_t n = 0, i;

    if (!order)
        return mp_error(m->name, "out of memory for %zu functions", m->nfuncs);
    for (i = 0; i < m->nfuncs; i++)
        if ((tp->self[i] || tp->incl[i]) && mp_report_matches(re, &m->funcs[i]))
            order[n++] = (long)i;
    sort_tp = tp;
    sort_m = m;
    mp_sort(order, n, sizeof(*order), cmp_task_flat);
    sort_tp = NULL;
    sort_m = NULL;
    if (top && n > top)
        n = (size_t)top;

    fprintf(f, "\nflat profile of task %s (%% of the %" PRIu64 " samples of its call paths; 95 %% Wilson interval)\n",
            mp_esc(tp->label ? tp->label : name), tp->total);
    fprintf(f, "  %" PRIu64 " samples: %.2f %% of the %" PRIu64 " the path table counted; %" PRIu64
               " under a handler or idle (%.2f %%), %" PRIu64 " in no profiled function (%.2f %%)\n",
            tp->total, pct(tp->total, r->pi->total), r->pi->total, tp->in_handlers, pct(tp->in_handlers, tp->total),
            tp->no_function, pct(tp->no_function, tp->total));
    fprintf(f, "  %7s  %15s  %12s  %7s  %15s  %12s  %s\n", "% self", "95 % interval", "self samples", "% incl",
            "95 % interval", "incl samples", "name");
    for (i = 0; i < n; i++) {
        long k = order[i];

        share(f, tp->self[k], tp->total);
        share(f, tp->incl[k], tp->total);
        fprintf(f, "  %s\n", mp_esc(m->funcs[k].name));
    }
    if (!n)
        fprintf(f, "  (no function)\n");
    fprintf(f, "  self: samples whose innermost profiled function it was (code it called without\n"
               "  a hook included); incl: samples of the paths it was on\n");
    free(order);
    return 0;
}

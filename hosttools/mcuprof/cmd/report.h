/*
 * report.h - the parts of `mcuprof report` (cmd_report.c): what it
 * selected from the model, and one printer per section.
 */
#ifndef MCUPROF_REPORT_H
#define MCUPROF_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "callgraph.h"
#include "model.h"
#include "name_regex.h"
#include "path_incl.h"
#include "task_profile.h"

struct mp_report {
    const struct mp_model *m;
    const struct mp_callgraph *g;
    /* inclusive time measured from call paths; NULL when the model has
     * none (the columns that show it are left out) */
    const struct mp_path_incl *pi;
    /* Per function, the calls gprof counts in its flat profile: from
     * another function (recursive calls and calls from outside code,
     * such as an interrupt entry, are not among them), and the others. */
    uint64_t *calls, *self_calls, *outside_calls;
    long *flat;       /* the flat profile's functions, in its order */
    size_t nflat;
    long *graph;      /* the call graph's functions, in its order */
    size_t ngraph;
};

/* F matches --function's RE (NULL: every function) by its name or by
 * its symbol (a C++ name in either form). */
static inline int mp_report_matches(const struct mp_name_regex *re, const struct mp_model_func *f)
{
    return !re || mp_name_regex_search(re, f->name) || mp_name_regex_search(re, mp_model_func_symbol(f));
}

/* Percent of gprof's total, the denominator of every share printed. */
double mp_report_pct(const struct mp_report *r, double samples);
/* Percent of the samples the path table counted, the denominator of
 * every share measured from paths. */
double mp_report_path_pct(const struct mp_report *r, uint64_t samples);

/* R for model M (with the ELF's functions): its call graph into G and,
 * when M has call paths, their inclusive time into PI. Returns -1 on
 * failure (reported, nothing held); else mp_report_end frees all. */
int mp_report_begin(struct mp_report *r, struct mp_callgraph *g, struct mp_path_incl *pi, const struct mp_model *m);
void mp_report_end(struct mp_report *r, struct mp_callgraph *g, struct mp_path_incl *pi);

/* Fill R's calls and its flat and graph orders: the functions gprof
 * shows, with time or calls, matching RE (NULL: all), the first TOP of
 * each order (0: all). Returns -1 on out of memory (reported). */
int mp_report_select(struct mp_report *r, const struct mp_name_regex *re, uint64_t top);

/* The flat profile of M (with the ELF's functions), its first TOP lines:
 * what `record` prints after its run. Returns -1 on failure (reported). */
int mp_report_flat_top(FILE *f, const struct mp_model *m, uint64_t top);

void mp_report_header(FILE *f, const struct mp_report *r);
void mp_report_flat(FILE *f, const struct mp_report *r);
/* Returns -1 on out of memory (reported). */
int mp_report_graph(FILE *f, const struct mp_report *r);
void mp_report_lines(FILE *f, const struct mp_report *r);
/* The flat profile of task NAME (TP, from r->pi's model) restricted to
 * functions matching RE (NULL: all), the first TOP (0: all). Returns -1
 * on out of memory (reported). */
int mp_report_task(FILE *f, const struct mp_report *r, const struct mp_task_profile *tp, const char *name,
                   const struct mp_name_regex *re, uint64_t top);

#endif /* MCUPROF_REPORT_H */

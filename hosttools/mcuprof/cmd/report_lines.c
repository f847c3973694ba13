/*
 * report_lines.c - the hottest source lines of each function in the flat
 * profile (report.h), from the model's DWARF lines (model_lines.c).
 */
#include <string.h>

#include "line_samples.h"
#include "report.h"
#include "text_safe.h"

/* Lines listed per function; the rest are summed on one row, so a
 * function's rows always add up to its self samples. */
#define LINES_SHOWN 10

/* First entry of m->lines for function K (they are sorted by function). */
static size_t first_line(const struct mp_model *m, long k)
{
    size_t lo = 0, hi = m->nlines;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (m->lines[mid].func < k)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static void print_function(FILE *f, const struct mp_report *r, long k)
{
    const struct mp_model *m = r->m;
    const struct mp_model_func *fn = &m->funcs[k];
    size_t i = first_line(m, k), shown = 0, more = 0;
    double rest = 0.0;

    if (fn->file)
        fprintf(f, "\n%s (%s:%u): %.3f samples\n", mp_esc(fn->name), mp_esc(fn->file), fn->line, fn->self);
    else
        fprintf(f, "\n%s: %.3f samples\n", mp_esc(fn->name), fn->self);
    for (; i < m->nlines && m->lines[i].func == k; i++) {
        const struct mp_model_line *l = &m->lines[i];

        if (shown == LINES_SHOWN) {
            rest += l->samples;
            more++;
            continue;
        }
        if (strcmp(l->file, MP_LINE_UNKNOWN_FILE) == 0 && l->line == 0)
            fprintf(f, "  %12.3f  %7.2f %%  (no source line: padding, or code without -g)\n", l->samples,
                    mp_report_pct(r, l->samples));
        else
            fprintf(f, "  %12.3f  %7.2f %%  %s:%u\n", l->samples, mp_report_pct(r, l->samples), mp_esc(l->file),
                    l->line);
        shown++;
    }
    if (more)
        fprintf(f, "  %12.3f  %7.2f %%  (%zu more lines)\n", rest, mp_report_pct(r, rest), more);
}

void mp_report_lines(FILE *f, const struct mp_report *r)
{
    const struct mp_model *m = r->m;
    size_t i;

    fprintf(f, "\nsource lines (self samples per line, %% of gprof's total; each bin split among its"
               " lines by bytes)\n");
    if (m->lines_missing && m->lines_broken) {
        fprintf(f, "  none: the DWARF of %s is malformed (the warning above says where)\n", mp_esc(m->elf_path));
        return;
    }
    if (m->lines_missing) {
        fprintf(f, "  none: %s has no usable DWARF line table (build with -g)\n", mp_esc(m->elf_path));
        return;
    }
    for (i = 0; i < r->nflat; i++) {
        if (m->funcs[r->flat[i]].self > 0.0)
            print_function(f, r, r->flat[i]);
    }
}

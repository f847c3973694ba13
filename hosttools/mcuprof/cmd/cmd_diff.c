/*
 * cmd_diff.c - `mcuprof diff A B`: what changed between two profiles,
 * call counts exactly, time shares and self times with their
 * significance (profile_diff.h), and an exit status a CI job can gate on.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "diag.h"
#include "image_read.h"
#include "model_load.h"
#include "sort.h"
#include "text_safe.h"
#include "trust.h"
#include "profile_diff.h"

/* A threshold was passed: a result, not a failure of the tool. */
#define EXIT_THRESHOLD 3
/* Losses above this share of samples or calls get a warning. */
#define LOSS_WARN_PCT 1.0
/* Widest function column; longer names run over. */
#define NAME_COL_MAX 40

struct diff_opts {
    const char *elf_a, *elf_b;
    int fail_calls_set, fail_calls_pct;
    double fail_calls;    /* count, or percent with fail_calls_pct */
    int fail_share_set;
    double fail_share;    /* points */
    int fail_time_set;
    double fail_time;     /* percent */
    double alpha;
    uint64_t top;         /* rows per table, 0: all */
};

static void mp_help_diff(FILE *f)
{
    fputs("Usage: mcuprof diff A B [--elf ELF | --elf-a ELF --elf-b ELF]\n"
          "                    [--fail-calls N|PCT%] [--fail-share POINTS] [--fail-time PCT]\n"
          "                    [--alpha P] [--top N] [--no-demangle] [--group-clones]\n"
          "\n"
          "Compare two profiles, function by function: A before, B after. Each is a\n"
          "profile image, a gmon.out or a JSON document of 'convert --format json'.\n"
          "Functions are matched by name; static functions of one name by their\n"
          "source file (DWARF), else by their rank in address order, and said so.\n"
          "\n"
          "  -e, --elf ELF        the ELF of both (names; an image's build-id is checked)\n"
          "      --elf-a ELF      the ELF of A\n"
          "      --elf-b ELF      the ELF of B\n"
          "      --fail-calls N   exit 3 when a function's call count changes by more\n"
          "                       than N calls, or by more than PCT % with 'PCT%'\n"
          "      --fail-share P   exit 3 when a function's share of the samples changes\n"
          "                       significantly by more than P percentage points\n"
          "      --fail-time PCT  exit 3 when a function's self time (samples / rate)\n"
          "                       changes significantly by more than PCT %\n"
          "      --alpha P        significance level over all functions compared\n"
          "                       (default 0.001; each test uses P / functions compared)\n"
          "      --top N          rows per table (default 20, 0: all)\n"
          "      --no-demangle    C++ names as the ELF spells them (not demangled)\n"
          MP_GROUP_CLONES_HELP
          "  -h, --help           this text\n"
          "\n"
          "Printed: both totals (samples, losses, calls) with a warning when losses\n"
          "exceed 1 %; call-count changes per function and per arc (caller -> callee),\n"
          "exact, an entry of one side only marked 'only in A' or 'only in B'; share\n"
          "changes with the pooled two-proportion z-test; self-time changes with the\n"
          "test of two Poisson counts. A share is relative: when one function's time\n"
          "grows, every other share shrinks although its time did not change; the\n"
          "self-time table names the functions whose own cost changed (when both runs\n"
          "did the same job). Profiles of different machines are refused.\n"
          "\n"
          "Exit status: 0 no threshold passed, 3 a threshold passed (each listed),\n"
          "1 an input could not be compared, 2 usage error. See docs/diff.md.\n",
          f);
}

/* ---- options --------------------------------------------------------- */

static int parse_number(const char *opt, const char *s, double *v, int *pct)
{
    size_t n = strlen(s);
    char *end;

    *pct = n > 0 && s[n - 1] == '%';
    errno = 0;
    *v = strtod(s, &end);
    if (errno || end == s || end != s + n - (size_t)*pct || !(*v >= 0.0) || isinf(*v))
        return mp_error(NULL, "%s '%s' is not a non-negative number", opt, s);
    return 0;
}

static int parse_option(int c, const char *arg, struct diff_opts *o)
{
    int pct;

    switch (c) {
    case 'C':
        o->fail_calls_set = 1;
        return parse_number("--fail-calls", arg, &o->fail_calls, &o->fail_calls_pct);
    case 'S':
        o->fail_share_set = 1;
        if (parse_number("--fail-share", arg, &o->fail_share, &pct) < 0)
            return -1;
        if (pct || o->fail_share > 100.0)
            return mp_error(NULL, "--fail-share '%s': percentage points from 0 to 100, without '%%'", arg);
        return 0;
    case 'T':
        o->fail_time_set = 1;
        return parse_number("--fail-time", arg, &o->fail_time, &pct);
    case 'P':
        if (parse_number("--alpha", arg, &o->alpha, &pct) < 0)
            return -1;
        if (pct || !(o->alpha > 0.0 && o->alpha < 1.0))
            return mp_error(NULL, "--alpha '%s' is not a probability between 0 and 1", arg);
        return 0;
    default: {
        double top;

        if (parse_number("--top", arg, &top, &pct) < 0)
            return -1;
        if (pct || top != floor(top) || top > 1e9)
            return mp_error(NULL, "--top '%s' is not a count", arg);
        o->top = (uint64_t)top;
        return 0;
    }
    }
}

/* ---- inputs ---------------------------------------------------------- */

static int load(struct mp_model *m, const char *path, const char *elf, const char *side, enum mp_input_kind *kind)
{
    if (mp_model_load(m, path, elf, kind) < 0)
        return -1;
    if (m->nfuncs == 0) {
        mp_error(path, "no function names to match (a profile image or gmon.out takes them from its ELF): "
                       "give --elf or --elf-%s", side);
        mp_model_free(m);
        return -1;
    }
    return 0;
}

/* ---- printing -------------------------------------------------------- */

static double pct(double part, double whole)
{
    return whole > 0.0 ? 100.0 * part / whole : 0.0;
}

static uint64_t lost_samples(const struct mp_model *m)
{
    return m->c.lost[MP_LOST_SAMPLES_OUT_OF_RANGE] + m->c.lost[MP_LOST_SAMPLES_SATURATED] +
           m->c.lost[MP_LOST_SAMPLES_FROZEN];
}

static uint64_t lost_calls(const struct mp_model *m)
{
    return m->c.lost[MP_LOST_ARCS_TABLE_FULL] + m->c.lost[MP_LOST_CALLS_REENTRANT] + m->c.lost[MP_LOST_CALLS_FROZEN];
}

static void warn_losses(const struct mp_model *m)
{
    double total = (double)mp_model_samples_total(m);
    double calls = (double)m->c.total_calls + (double)lost_calls(m);

    if (pct((double)lost_samples(m), total) > LOSS_WARN_PCT)
        mp_warn(m->name, "%" PRIu64 " of %.0f samples (%.2f %%) were lost: its shares are lower bounds",
                lost_samples(m), total, pct((double)lost_samples(m), total));
    if (pct((double)m->c.missed_periods, total) > LOSS_WARN_PCT)
        mp_warn(m->name, "%" PRIu64 " sampler periods (%.2f %% of the samples) were missed", m->c.missed_periods,
                pct((double)m->c.missed_periods, total));
    if (pct((double)lost_calls(m), calls) > LOSS_WARN_PCT)
        mp_warn(m->name, "%" PRIu64 " calls (%.2f %%) were not recorded: call counts are lower bounds",
                lost_calls(m), pct((double)lost_calls(m), calls));
    if (m->c.saturated_arcs)
        mp_warn(m->name, "%" PRIu64 " arc counts saturated at 0xffffffff: lower bounds", m->c.saturated_arcs);
}

/* The names of side S's functions the other side lacks, up to TOP. */
static void print_only(const struct mp_diff *d, int s, size_t n, uint64_t top)
{
    size_t i, k = 0;

    if (!n)
        return;
    printf("  only in %c:", "AB"[s]);
    for (i = 0; i < d->nfuncs && (!top || k < top); i++) {
        const struct mp_diff_func *f = &d->funcs[i];

        if ((s ? f->fa : f->fb) < 0) {
            printf("%s %s", k ? "," : "", mp_esc(f->key));
            k++;
        }
    }
    if (k < n)
        printf(", ... %zu more", n - k);
    printf("\n");
}

static void print_totals(const struct mp_diff *d, const char *elf[2], const enum mp_input_kind kind[2],
                         uint64_t top)
{
    const struct mp_model *m[2] = {d->a, d->b};
    const char *mn = mp_machine_name(d->a->machine);
    size_t only[2] = {0, 0}, both = 0, i;
    char view[128];
    int s;

    for (i = 0; i < d->nfuncs; i++) {
        if (d->funcs[i].fa >= 0 && d->funcs[i].fb >= 0)
            both++;
        else
            only[d->funcs[i].fa < 0]++;
    }
    for (s = 0; s < 2; s++)
        printf("%c: %s (%s%s%s)\n", "AB"[s], mp_esc(m[s]->name), mp_input_kind_name(kind[s]),
               elf[s] ? ", names from " : "", elf[s] ? mp_esc(elf[s]) : "");
    printf("machine: %s, %u-byte addresses\n", mn ? mn : "unknown", d->a->ptr_size);
    for (s = 0; s < 2; s++)
        if (mp_model_clone_view(m[s], view, sizeof(view)))
            printf("%c clones: %s\n", "AB"[s], view);
    printf("\n%-22s %14s %14s\n", "", "A", "B");
    printf("%-22s %14.0f %14.0f   (%+.2f %%)\n", "samples", d->total_a, d->total_b,
           d->total_a > 0.0 ? pct(d->total_b - d->total_a, d->total_a) : 0.0);
    printf("%-22s %14" PRIu64 " %14" PRIu64 "\n", "lost samples", lost_samples(d->a), lost_samples(d->b));
    printf("%-22s %14" PRIu64 " %14" PRIu64 "\n", "missed periods", d->a->c.missed_periods, d->b->c.missed_periods);
    printf("%-22s %14" PRIu64 " %14" PRIu64 "\n", "calls", d->a->c.total_calls, d->b->c.total_calls);
    printf("%-22s %14" PRIu64 " %14" PRIu64 "\n", "calls not recorded", lost_calls(d->a), lost_calls(d->b));
    printf("%-22s %11" PRIu32 " Hz %11" PRIu32 " Hz\n", "sample rate", d->a->sample_rate_hz, d->b->sample_rate_hz);
    printf("%-22s %14zu %14zu   (%zu in both, %zu only in A, %zu only in B)\n", "functions",
           both + only[0], both + only[1], both, only[0], only[1]);
    for (s = 0; s < 2; s++)
        print_only(d, s, only[s], top);
    if (d->by_file)
        printf("note: %zu name%s of static functions matched by source file, as 'name (file)'\n", d->by_file,
               d->by_file == 1 ? "" : "s");
    if (d->by_position)
        printf("note: %zu name%s shared by several functions without a source file to tell them apart: "
               "matched by rank in address order, as 'name#k'\n",
               d->by_position, d->by_position == 1 ? "" : "s");
}

/* Rows of a table, most changed first. */
struct row {
    double weight;
    size_t i;
};

static int cmp_row(const void *pa, const void *pb)
{
    const struct row *a = pa, *b = pb;

    if (a->weight != b->weight)
        return a->weight < b->weight ? 1 : -1;
    return a->i < b->i ? -1 : a->i > b->i;
}

static size_t shown(size_t n, uint64_t top)
{
    return top && top < n ? (size_t)top : n;
}

/* The column of NAMES as shown (text_safe.h). */
static int name_width(const char *const *names, size_t n, int min)
{
    size_t w = (size_t)min, i;

    for (i = 0; i < n; i++)
        if (strlen(mp_esc(names[i])) > w)
            w = strlen(mp_esc(names[i]));
    return w > NAME_COL_MAX ? NAME_COL_MAX : (int)w;
}

static const char *side_note(long fa, long fb)
{
    return fa < 0 ? "  only in B" : fb < 0 ? "  only in A" : "";
}

static void more_rows(size_t n, size_t printed)
{
    if (printed < n)
        printf("  ... %zu more (--top 0 shows all)\n", n - printed);
}

/* B - A of two counts, signed. */
static const char *delta(uint64_t a, uint64_t b, char *buf, size_t cap)
{
    snprintf(buf, cap, "%c%" PRIu64, b >= a ? '+' : '-', b >= a ? b - a : a - b);
    return buf;
}

static void print_calls(const struct mp_diff *d, struct row *rows, const char **names, uint64_t top)
{
    size_t n = 0, i, k;
    char db[24];
    int w;

    for (i = 0; i < d->nfuncs; i++) {
        const struct mp_diff_func *f = &d->funcs[i];

        if (f->calls_a != f->calls_b || (f->calls_a + f->calls_b && (f->fa < 0 || f->fb < 0))) {
            rows[n].weight = fabs((double)f->calls_b - (double)f->calls_a);
            rows[n++].i = i;
        }
    }
    mp_sort(rows, n, sizeof(*rows), cmp_row);
    printf("\nCalls per function (exact): %zu changed\n", n);
    if (!n)
        return;
    for (k = 0; k < shown(n, top); k++)
        names[k] = d->funcs[rows[k].i].key;
    w = name_width(names, shown(n, top), 8);
    printf("  %-*s %14s %14s %12s\n", w, "function", "A", "B", "delta");
    for (k = 0; k < shown(n, top); k++) {
        const struct mp_diff_func *f = &d->funcs[rows[k].i];

        printf("  %-*s %14" PRIu64 " %14" PRIu64 " %12s", w, mp_esc(f->key), f->calls_a, f->calls_b,
               delta(f->calls_a, f->calls_b, db, sizeof(db)));
        if (f->calls_a)
            printf("  (%+.1f %%)", pct((double)f->calls_b - (double)f->calls_a, (double)f->calls_a));
        printf("%s\n", side_note(f->fa, f->fb));
    }
    more_rows(n, shown(n, top));
}

static void print_arcs(const struct mp_diff *d, struct row *rows, const char **names, char *buf, size_t cap,
                       uint64_t top)
{
    size_t n = 0, i, k, off = 0;
    char db[24];
    int w;

    for (i = 0; i < d->narcs; i++) {
        const struct mp_diff_arc *a = &d->arcs[i];

        if (a->count_a != a->count_b || !a->in_a || !a->in_b) {
            rows[n].weight = fabs((double)a->count_b - (double)a->count_a);
            rows[n++].i = i;
        }
    }
    mp_sort(rows, n, sizeof(*rows), cmp_row);
    printf("\nCalls per arc, caller -> callee (exact): %zu changed\n", n);
    if (!n)
        return;
    for (k = 0; k < shown(n, top); k++) {
        const struct mp_diff_arc *a = &d->arcs[rows[k].i];
        int len = snprintf(buf + off, cap - off, "%s -> %s", a->caller, a->callee);

        names[k] = buf + off;
        off += (size_t)len + 1 < cap - off ? (size_t)len + 1 : 0;
    }
    w = name_width(names, shown(n, top), 8);
    printf("  %-*s %14s %14s %12s\n", w, "arc", "A", "B", "delta");
    for (k = 0; k < shown(n, top); k++) {
        const struct mp_diff_arc *a = &d->arcs[rows[k].i];

        printf("  %-*s %14" PRIu64 " %14" PRIu64 " %12s%s%s\n", w, mp_esc(names[k]), a->count_a, a->count_b,
               delta(a->count_a, a->count_b, db, sizeof(db)), !a->in_a ? "  only in B" : !a->in_b ? "  only in A" : "",
               a->saturated ? "  (saturated: a lower bound)" : "");
    }
    more_rows(n, shown(n, top));
}

/* A p-value as %.2g, and what an underflow to 0 means. */
static const char *pvalue(double p, char *buf, size_t cap)
{
    if (p <= 0.0)
        snprintf(buf, cap, "<1e-300");
    else
        snprintf(buf, cap, "%.2g", p);
    return buf;
}

static void print_shares(const struct mp_diff *d, struct row *rows, const char **names, uint64_t top)
{
    size_t n = 0, sig = 0, i, k;
    char pb[16];
    int w;

    for (i = 0; i < d->nfuncs; i++) {
        const struct mp_diff_func *f = &d->funcs[i];

        if (f->tested && f->share_a != f->share_b) {
            rows[n].weight = fabs(f->share_b - f->share_a);
            rows[n++].i = i;
            sig += f->share_sig;
        }
    }
    mp_sort(rows, n, sizeof(*rows), cmp_row);
    printf("\nShare of all samples (two-proportion z-test; significant '*': p < %g / %zu = %.3g): "
           "%zu changed, %zu significantly\n",
           d->alpha, d->ntested, d->alpha_each, n, sig);
    if (!n)
        return;
    for (k = 0; k < shown(n, top); k++)
        names[k] = d->funcs[rows[k].i].key;
    w = name_width(names, shown(n, top), 8);
    printf("  %-*s %9s %9s %9s %8s %9s\n", w, "function", "share A", "share B", "points", "z", "p");
    for (k = 0; k < shown(n, top); k++) {
        const struct mp_diff_func *f = &d->funcs[rows[k].i];

        printf("  %-*s %7.2f %% %7.2f %% %+9.2f %+8.1f %9s%s%s\n", w, mp_esc(f->key), 100.0 * f->share_a,
               100.0 * f->share_b, 100.0 * (f->share_b - f->share_a), f->share_z, pvalue(f->share_p, pb, sizeof(pb)),
               f->share_sig ? " *" : "", side_note(f->fa, f->fb));
    }
    more_rows(n, shown(n, top));
}

static void print_times(const struct mp_diff *d, struct row *rows, const char **names, uint64_t top)
{
    size_t n = 0, sig = 0, i, k;
    char pb[16];
    int w;

    for (i = 0; i < d->nfuncs; i++) {
        const struct mp_diff_func *f = &d->funcs[i];

        if (f->tested && f->samples_a != f->samples_b) {
            rows[n].weight = fabs(f->time_b - f->time_a);
            rows[n++].i = i;
            sig += f->time_sig;
        }
    }
    mp_sort(rows, n, sizeof(*rows), cmp_row);
    printf("\nSelf time, %s (test of two Poisson counts; significant '*' at the same p): "
           "%zu changed, %zu significantly\n",
           d->seconds ? "samples / rate" : "samples (a rate is unknown)", n, sig);
    if (!n)
        return;
    for (k = 0; k < shown(n, top); k++)
        names[k] = d->funcs[rows[k].i].key;
    w = name_width(names, shown(n, top), 8);
    printf("  %-*s %13s %13s %9s %8s %9s\n", w, "function", d->seconds ? "A s" : "A samples",
           d->seconds ? "B s" : "B samples", "change", "z", "p");
    for (k = 0; k < shown(n, top); k++) {
        const struct mp_diff_func *f = &d->funcs[rows[k].i];
        char change[16];

        if (f->time_a > 0.0)
            snprintf(change, sizeof(change), "%+.1f %%", pct(f->time_b - f->time_a, f->time_a));
        else
            snprintf(change, sizeof(change), "new");
        printf("  %-*s %13.*f %13.*f %9s %+8.1f %9s%s%s\n", w, mp_esc(f->key), d->seconds ? 4 : 0, f->time_a,
               d->seconds ? 4 : 0, f->time_b, change, f->time_z, pvalue(f->time_p, pb, sizeof(pb)),
               f->time_sig ? " *" : "", side_note(f->fa, f->fb));
    }
    more_rows(n, shown(n, top));
}

/* ---- thresholds ------------------------------------------------------ */

static size_t check_thresholds(const struct mp_diff *d, const struct diff_opts *o)
{
    size_t passed = 0, i;
    char pb[16];

    if (!o->fail_calls_set && !o->fail_share_set && !o->fail_time_set)
        return 0;
    printf("\nThresholds:\n");
    for (i = 0; i < d->nfuncs; i++) {
        const struct mp_diff_func *f = &d->funcs[i];
        double dc = fabs((double)f->calls_b - (double)f->calls_a);
        double dc_pct = f->calls_a ? pct(dc, (double)f->calls_a) : (dc > 0.0 ? INFINITY : 0.0);
        double ds = 100.0 * (f->share_b - f->share_a);
        double dt_pct = f->time_a > 0.0 ? pct(f->time_b - f->time_a, f->time_a) : (f->time_b > 0.0 ? INFINITY : 0.0);

        if (o->fail_calls_set && (o->fail_calls_pct ? dc_pct > o->fail_calls : dc > o->fail_calls)) {
            printf("  %s: calls %" PRIu64 " -> %" PRIu64 " passes --fail-calls %g%s%s\n", mp_esc(f->key), f->calls_a,
                   f->calls_b, o->fail_calls, o->fail_calls_pct ? "%" : "", side_note(f->fa, f->fb));
            passed++;
        }
        if (o->fail_share_set && f->share_sig && fabs(ds) > o->fail_share) {
            printf("  %s: share %.2f %% -> %.2f %% (%+.2f points, p %s) passes --fail-share %g%s\n", mp_esc(f->key),
                   100.0 * f->share_a, 100.0 * f->share_b, ds, pvalue(f->share_p, pb, sizeof(pb)), o->fail_share,
                   side_note(f->fa, f->fb));
            passed++;
        }
        if (o->fail_time_set && f->time_sig && fabs(dt_pct) > o->fail_time) {
            printf("  %s: self time %+.1f %% (p %s) passes --fail-time %g%s\n", mp_esc(f->key), dt_pct,
                   pvalue(f->time_p, pb, sizeof(pb)), o->fail_time, side_note(f->fa, f->fb));
            passed++;
        }
    }
    if (!passed)
        printf("  none passed\n");
    return passed;
}

static int report(const struct mp_diff *d, const struct diff_opts *o, const char *elf[2],
                  const enum mp_input_kind kind[2])
{
    size_t n = d->nfuncs > d->narcs ? d->nfuncs : d->narcs, cap = 64 * 1024;
    struct row *rows = malloc((n ? n : 1) * sizeof(*rows));
    const char **names = malloc((n ? n : 1) * sizeof(*names));
    char *buf = malloc(cap);
    size_t passed;

    if (!rows || !names || !buf) {
        free(rows);
        free(names);
        free(buf);
        return mp_error(d->a->name, "out of memory printing %zu rows", n);
    }
    print_totals(d, elf, kind, o->top);
    print_calls(d, rows, names, o->top);
    print_arcs(d, rows, names, buf, cap, o->top);
    print_shares(d, rows, names, o->top);
    print_times(d, rows, names, o->top);
    passed = check_thresholds(d, o);
    free(rows);
    free(names);
    free(buf);
    return passed ? 1 : 0;
}

static int diff(const char *pa, const char *pb, const struct diff_opts *o)
{
    struct mp_model a, b;
    struct mp_diff d;
    enum mp_input_kind kind[2];
    const char *elf[2] = {o->elf_a, o->elf_b};
    int ret = MP_EXIT_FAIL, r;

    /* one error line on failure: warnings wait until the comparison stands */
    mp_diag_hold();
    if (load(&a, pa, o->elf_a, "a", &kind[0]) < 0)
        goto out_release;
    if (load(&b, pb, o->elf_b, "b", &kind[1]) < 0)
        goto out_a;
    if (mp_diff_compute(&d, &a, &b, o->alpha) < 0)
        goto out_b;
    mp_diag_release(1);
    warn_losses(&a);
    warn_losses(&b);
    fflush(stderr);
    r = report(&d, o, elf, kind);
    ret = r < 0 ? MP_EXIT_FAIL : r ? EXIT_THRESHOLD : MP_EXIT_OK;
    mp_diff_free(&d);
    mp_model_free(&b);
    mp_model_free(&a);
    return ret;
out_b:
    mp_model_free(&b);
out_a:
    mp_model_free(&a);
out_release:
    mp_diag_release(0);
    return ret;
}

static int mp_cmd_diff(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"elf", required_argument, NULL, 'e'},
        {"elf-a", required_argument, NULL, 'A'},
        {"elf-b", required_argument, NULL, 'B'},
        {"fail-calls", required_argument, NULL, 'C'},
        {"fail-share", required_argument, NULL, 'S'},
        {"fail-time", required_argument, NULL, 'T'},
        {"alpha", required_argument, NULL, 'P'},
        {"top", required_argument, NULL, 'N'},
        MP_NO_DEMANGLE_LONGOPT,
        MP_GROUP_CLONES_LONGOPT,
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct diff_opts o;
    const char *elf = NULL;
    char *pos[2];
    int npos = 0, c;

    memset(&o, 0, sizeof(o));
    o.alpha = 0.001;
    o.top = 20;
    while ((c = mp_getopt(argc, argv, "e:h", longopts, pos, 2, &npos)) != -1) {
        switch (c) {
        case 'e':
            elf = optarg;
            break;
        case 'A':
            o.elf_a = optarg;
            break;
        case 'B':
            o.elf_b = optarg;
            break;
        case 'C':
        case 'S':
        case 'T':
        case 'P':
        case 'N':
            if (parse_option(c, optarg, &o) < 0)
                return MP_EXIT_USAGE;
            break;
        case MP_OPT_NO_DEMANGLE:
        case MP_OPT_GROUP_CLONES:
            mp_names_option(c);
            break;
        case 'h':
            mp_help_diff(stdout);
            return MP_EXIT_OK;
        default:
            return MP_EXIT_USAGE;
        }
    }
    if (npos != 2) {
        mp_error(NULL, "diff: expected two profiles A B, got %d (see 'mcuprof help diff')", npos);
        return MP_EXIT_USAGE;
    }
    if (elf && (o.elf_a || o.elf_b)) {
        mp_error(NULL, "diff: --elf names the ELF of both: not with --elf-a or --elf-b");
        return MP_EXIT_USAGE;
    }
    if (elf)
        o.elf_a = o.elf_b = elf;
    return diff(pos[0], pos[1], &o);
}

const struct mp_command mp_command_diff = {
    .name = "diff",
    .summary = "compare two profiles: call-count and time-share changes",
    .run = mp_cmd_diff,
    .help = mp_help_diff,
};

#include "text_safe.h"
#include "trust.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "count_text.h"
#include "diag.h"
#include "sort.h"
#include "wilson.h"

int mp_trust_parse_pct(const char *opt, const char *s, double *pct)
{
    char *end;
    double v;

    errno = 0;
    v = strtod(s, &end);
    if (errno || end == s || *end != '\0' || !(v >= 0.0 && v <= 100.0))
        return mp_error(NULL, "%s '%s' is not a percentage from 0 to 100", opt, s);
    *pct = v;
    return 0;
}

int mp_trust_parse_count(const char *opt, const char *s, uint64_t *n)
{
    char *end;
    unsigned long long v;

    errno = 0;
    v = strtoull(s, &end, 10);
    if (errno || end == s || *end != '\0' || s[0] == '-')
        return mp_error(NULL, "%s '%s' is not a count", opt, s);
    *n = v;
    return 0;
}

int mp_trust_option(int code, const char *arg, struct mp_trust_opts *o)
{
    switch (code) {
    case 'W':
        return mp_trust_parse_pct("--warn", arg, &o->warn_pct);
    case 'S':
        return mp_trust_parse_pct("--shared-threshold", arg, &o->shared_pct);
    default:
        return mp_trust_parse_count("--min-samples", arg, &o->min_samples);
    }
}

/* ---- warnings -------------------------------------------------------- */

static double pct(double part, double whole)
{
    return whole > 0.0 ? 100.0 * part / whole : 0.0;
}

/* The Wilson score interval rather than p +- z sqrt(p(1-p)/n): the normal
 * approximation gives an interval of zero width at p = 0 or 1, reaches
 * below 0 % and above 100 % for small shares or few samples, and covers
 * the true share far less often than 95 % there, which is exactly where a
 * profile's small functions live. Wilson's interval stays inside [0, 1]
 * and keeps close to its nominal coverage down to a handful of samples.
 *
 * 95 % half-width, in points, of a 10 % share measured with N samples. */
static double halfwidth10(uint64_t n)
{
    double lo, hi;

    mp_wilson(0.1 * (double)n, (double)n, &lo, &hi);
    return 100.0 * (hi - lo) / 2.0;
}

/* The functions were named from an ELF: gprof's attribution is there. */
static int named(const struct mp_model *m)
{
    return m->elf_path != NULL;
}

static void pair_name(const struct mp_model *m, const struct mp_shared_pair *p, char *buf, size_t cap)
{
    long between = p->b - p->a - 1;

    if (between > 0)
        snprintf(buf, cap, "%s + %s (+%ld between)", m->funcs[p->a].name, m->funcs[p->b].name, between);
    else
        snprintf(buf, cap, "%s + %s", m->funcs[p->a].name, m->funcs[p->b].name);
}

static void warn_shared(const struct mp_model *m, const struct mp_trust_opts *o)
{
    char worst[160] = "";
    double share = pct((double)m->shared_samples, (double)m->c.binned);

    if (!m->shared_bins || share <= o->shared_pct)
        return;
    if (m->npairs)
        pair_name(m, &m->pairs[0], worst, sizeof(worst));
    /* diag.h keeps a message to 384 characters: the names go last */
    mp_warn(m->name,
            "%" PRIu64 " samples (%.2f %% of %" PRIu64 " binned) lie in %" PRIu64 " bins that"
            " gprof splits between functions by bytes; start each function on a %u-byte bin"
            " (" MP_ALIGN_FIX ") or use smaller bins (BIN_SHIFT %u: RAM = code size / bin size *"
            " %u bytes = %" PRIu64 " bytes); worst: %s (%" PRIu64 ")",
            m->shared_samples, share, m->c.binned, m->shared_bins, 1u << m->bin_shift, m->finer_shift,
            m->counter_bytes, m->finer_ram, worst, m->npairs ? m->pairs[0].samples : 0);
}

/* The call paths: samples with no path (the table was full) and paths
 * whose outer frames were dropped (deeper than the shadow stack), each
 * against every sample the path table counted. Flame graphs and the
 * inclusive time from paths are short by these. */
static void warn_paths(const struct mp_model *m, const struct mp_trust_opts *o)
{
    uint64_t counted;

    if (!m->has_paths)
        return;
    counted = mp_model_path_samples(m);
    if (m->paths_lost && pct((double)m->paths_lost, (double)counted) > o->warn_pct)
        mp_warn(m->name,
                "the path table was full for %" PRIu64 " samples (%.2f %% of %" PRIu64 "): their call paths are"
                " in no output and every inclusive time from paths is short by them; give the path table more"
                " entries",
                m->paths_lost, pct((double)m->paths_lost, (double)counted), counted);
    if (m->paths_truncated && pct((double)m->paths_truncated, (double)counted) > o->warn_pct)
        mp_warn(m->name,
                "%" PRIu64 " samples (%.2f %% of %" PRIu64 ") had call paths deeper than the shadow stack: frames"
                " between their outermost and innermost are missing (shown as " MP_PATH_GAP_NAME "; older runtimes"
                " dropped the outer ones, shown under [truncated]); PATH_DEPTH sets the depth",
                m->paths_truncated, pct((double)m->paths_truncated, (double)counted), counted);
}

/* Every loss counter: what it loses, in a few words (the line that says
 * an output was written), and for the samples why it matters and what to
 * do (the warning). Calls lost are in report's figures, not warned of. */
static const struct {
    enum mp_lost which;
    const char *unit;
    const char *brief;
    const char *what;
} losses[] = {
    {MP_LOST_ARCS_TABLE_FULL, "call", "arc table full", NULL},
    {MP_LOST_CALLS_REENTRANT, "call", "reentrant", NULL},
    {MP_LOST_CALLS_FROZEN, "call", "frozen", NULL},
    {MP_LOST_SAMPLES_OUT_OF_RANGE, "sample", "outside every range",
     "PCs outside every profiled range: that time is in no function; add the code's range"
     " (__mcuprof_text1_start/_end) or widen range 0"},
    {MP_LOST_SAMPLES_SATURATED, "sample", "bins full",
     "bins were full (past 65535 with the spill table full, or built with SPILL 0): the hottest code is"
     " under-counted; build with a larger SPILL, pull and reset more often (mcuprof pull --interval) or"
     " profile a shorter run"},
    {MP_LOST_SAMPLES_FROZEN, "sample", "frozen", "taken while a host snapshot was in progress; pull less often"},
};

void mp_trust_losses(const struct mp_model *m, char *buf, size_t size)
{
    size_t i, len = 0;

    snprintf(buf, size, "nothing lost");
    for (i = 0; i < sizeof(losses) / sizeof(losses[0]); i++) {
        uint64_t n = m->c.lost[losses[i].which];
        char count[MP_COUNT_TEXT_MAX];
        int k;

        if (!n || len >= size)
            continue;
        k = snprintf(buf + len, size - len, "%s%s %s%s lost (%s)", len ? ", " : "", mp_count_text(count, n),
                     losses[i].unit, n == 1 ? "" : "s", losses[i].brief);
        len += k > 0 ? (size_t)k : 0;
    }
}

void mp_trust_warn(const struct mp_model *m, const struct mp_trust_opts *o)
{
    struct mp_time_seen seen;
    unsigned i;

    if (m->c.arc_table_repairs)
        mp_warn(m->name,
                "arc_table_repairs %" PRIu64 ": the runtime found its arc table's chains damaged"
                " (something in the firmware wrote into the profile image) and cut them; every"
                " count is still exact, but look for a stray write near 0x%" PRIx64,
                m->c.arc_table_repairs, m->header.image_addr);
    warn_paths(m, o);
    if (m->nranges == 0)
        return;
    mp_model_time_seen(m, &seen);
    if (seen.taken == 0) {
        mp_warn(m->name, "no samples were taken: no time profile (start the sampler with"
                         " mcuprof_sampler_start before the code of interest)");
        return;
    }
    for (i = 0; i < sizeof(losses) / sizeof(losses[0]); i++) {
        uint64_t n = m->c.lost[losses[i].which];
        double share = pct((double)n, (double)seen.taken);

        if (losses[i].what && n && share > o->warn_pct)
            mp_warn(m->name, "%s %" PRIu64 " is %.2f %% of %" PRIu64 " samples taken: %s",
                    mp_lost_names[losses[i].which], n, share, seen.taken, losses[i].what);
    }
    /* missed periods, deferred samples and blockers: mp_timing_warn */
    if (seen.draws < o->min_samples)
        mp_warn(m->name,
                "only %" PRIu64 " samples (fewer than %" PRIu64 "): a 10 %% share is known to"
                " +- %.1f points (95 %%); run longer or raise the sample rate",
                seen.draws, o->min_samples, halfwidth10(seen.draws));
    if (named(m)) {
        warn_shared(m, o);
        if (m->hidden > 0.0)
            mp_warn(m->name,
                    "%.0f samples (%.2f %% of samples taken) are in functions gprof hides"
                    " (named like mcount): gprof leaves them out of its total and raises every"
                    " other share; give the code a name gprof shows (the runtime's hook has"
                    " mcuprof_mcount)",
                    m->hidden, pct(m->hidden, (double)seen.taken));
    }
}

/* ---- info ------------------------------------------------------------ */

#define LABEL "  %-28s "

static void print_count(FILE *f, double v)
{
    if (fabs(v - floor(v + 0.5)) < 0.005)
        fprintf(f, "%10.0f", v);
    else
        fprintf(f, "%10.2f", v);
}

/* qsort has no context argument in C11: a file-scope pointer, set only
 * around the one call. */
static const struct mp_model_func *sort_funcs;

/* Most self samples first; of equal ones, the lower address first. */
static int cmp_by_self(const void *x, const void *y)
{
    long l = *(const long *)x, r = *(const long *)y;

    if (sort_funcs[l].self != sort_funcs[r].self)
        return sort_funcs[l].self < sort_funcs[r].self ? 1 : -1;
    return l < r ? -1 : l > r;
}

static void print_functions(FILE *f, const struct mp_model *m, const struct mp_trust_opts *o,
                            const struct mp_time_seen *seen)
{
    uint64_t taken = seen->taken;
    long *order;
    size_t n = 0, i;
    double rest = 0.0;

    order = malloc((m->nfuncs ? m->nfuncs : 1) * sizeof(*order));
    if (!order) {
        mp_error(m->elf_path, "out of memory sorting %zu functions", m->nfuncs);
        return;
    }
    for (i = 0; i < m->nfuncs; i++) {
        if (m->funcs[i].self > 0.0)
            order[n++] = (long)i;
    }
    sort_funcs = m->funcs;
    mp_sort(order, n, sizeof(*order), cmp_by_self);
    sort_funcs = NULL;
    fprintf(f, "self time by function (as gprof attributes it; %% of %s %" PRIu64 ", 95 %% Wilson interval%s)\n",
            seen->charged ? "sampler periods" : "samples_taken", taken,
            seen->charged ? " over the samples taken, not the periods charged" : "");
    fprintf(f, "  %-28s %10s %8s %17s %8s  %s\n", "function", "samples", "% taken",
            "95 % interval", "% gprof", "note");
    for (i = 0; i < n; i++) {
        const struct mp_model_func *fn = &m->funcs[order[i]];
        double lo, hi;

        if (i >= o->top) {
            rest += fn->self;
            continue;
        }
        mp_wilson_draws(fn->self, (double)taken, (double)seen->draws, &lo, &hi);
        fprintf(f, "  %-28s ", mp_esc(fn->name));
        print_count(f, fn->self);
        fprintf(f, " %8.2f %7.2f..%-7.2f%s%8.2f  %s\n", pct(fn->self, (double)taken),
                100.0 * lo, 100.0 * hi, "  ", fn->hidden ? 0.0 : pct(fn->self, m->gprof_total),
                fn->hidden ? "hidden by gprof" : fn->shared ? "shared bin" : "");
    }
    if (n > o->top) {
        fprintf(f, "  %-28s ", "(other functions)");
        print_count(f, rest);
        fprintf(f, " %8.2f   %zu more\n", pct(rest, (double)taken), n - o->top);
    }
    fprintf(f, "  %-28s ", "(outside every function)");
    print_count(f, m->outside);
    fprintf(f, " %8.2f\n", pct(m->outside, (double)taken));
    free(order);
}

static void print_shared(FILE *f, const struct mp_model *m)
{
    size_t i;

    fprintf(f, LABEL "%" PRIu64 " samples in %" PRIu64 " bins (%.2f %% of binned)\n",
            "shared_samples", m->shared_samples, m->shared_bins,
            pct((double)m->shared_samples, (double)m->c.binned));
    for (i = 0; i < m->npairs && i < 5; i++) {
        char name[160];

        pair_name(m, &m->pairs[i], name, sizeof(name));
        fprintf(f, LABEL "%" PRIu64 " samples in %" PRIu32 " bins: %s\n", "shared by",
                m->pairs[i].samples, m->pairs[i].bins, mp_esc(name));
    }
    if (m->shared_bins)
        fprintf(f, LABEL "%u (%u-byte bins): %" PRIu64 " bytes of RAM instead of %" PRIu64 "\n",
                "finer BIN_SHIFT", m->finer_shift, 1u << m->finer_shift, m->finer_ram,
                m->finer_ram >> (m->bin_shift - m->finer_shift));
}

void mp_trust_print(FILE *f, const struct mp_model *m, const struct mp_trust_opts *o)
{
    struct mp_time_seen seen;
    char view[128];

    mp_model_time_seen(m, &seen);
    fprintf(f, "time profile\n");
    fprintf(f, LABEL "%" PRIu64 " (%s%s)\n", "all_samples", seen.taken,
            seen.charged && !seen.taken_derived ? "sampler periods: " : "",
            mp_time_seen_what(&seen, m->held.samples));
    fprintf(f, LABEL "%" PRIu64 " (%.2f %% of samples)\n", "binned", m->c.binned,
            pct((double)m->c.binned, (double)seen.taken));
    if (seen.draws)
        fprintf(f, LABEL "+- %.2f points at a 10 %% share (95 %%, %" PRIu64 " samples)\n", "uncertainty",
                halfwidth10(seen.draws), seen.draws);
    if (!named(m))
        return;
    fprintf(f, LABEL "%zu (%s)\n", "functions", m->nfuncs, mp_esc(m->elf_path));
    fprintf(f, LABEL "%.2f (%.2f %% of samples)\n", "outside_functions", m->outside,
            pct(m->outside, (double)seen.taken));
    fprintf(f, LABEL "%.2f\n", "hidden_by_gprof", m->hidden);
    fprintf(f, LABEL "%.2f (gprof's 100 %%)\n", "gprof_total", m->gprof_total);
    if (mp_model_clone_view(m, view, sizeof(view)))
        fprintf(f, LABEL "%s\n", "clones", view);
    print_shared(f, m);
    print_functions(f, m, o, &seen);
}

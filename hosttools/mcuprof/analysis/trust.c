#include "trust.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"

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

/* The Wilson score interval rather than p +- z sqrt(p(1-p)/n): the normal
 * approximation gives an interval of zero width at p = 0 or 1, reaches
 * below 0 % and above 100 % for small shares or few samples, and covers
 * the true share far less often than 95 % there, which is exactly where a
 * profile's small functions live. Wilson's interval stays inside [0, 1]
 * and keeps close to its nominal coverage down to a handful of samples. */
void mp_sample_totals(const struct mp_image *img, struct mp_sample_totals *t)
{
    struct mp_time_seen seen;
    uint64_t lost;
    unsigned r;

    memset(t, 0, sizeof(*t));
    for (r = 0; r < img->nranges; r++)
        t->binned += img->ranges[r].bin_sum;
    lost = (uint64_t)img->lost[MP_LOST_SAMPLES_OUT_OF_RANGE] +
           img->lost[MP_LOST_SAMPLES_SATURATED] + img->lost[MP_LOST_SAMPLES_FROZEN];
    /* shares are of the time the sampler could see: samples_taken less
     * the samples held off, plus the missed periods charged to the bins
     * (image_read.h) */
    mp_time_seen(&seen, img->samples_taken, img->missed_periods, img->timing_flags, img->held_entry.samples,
                 img->held_entry.periods, t->binned + lost);
    t->seen = seen;
    t->taken = seen.taken;
    t->taken_derived = seen.taken_derived;
    t->charged = seen.charged;
    t->draws = seen.draws;
}

/* ---- warnings -------------------------------------------------------- */

static double pct(double part, double whole)
{
    return whole > 0.0 ? 100.0 * part / whole : 0.0;
}

/* 95 % half-width, in points, of a 10 % share measured with N samples. */
static double halfwidth10(uint64_t n)
{
    double lo, hi;

    mp_wilson(0.1 * (double)n, (double)n, &lo, &hi);
    return 100.0 * (hi - lo) / 2.0;
}

static void pair_name(const struct mp_functab *t, const struct mp_shared_pair *p, char *buf,
                      size_t cap)
{
    long between = p->b - p->a - 1;

    if (between > 0)
        snprintf(buf, cap, "%s + %s (+%ld between)", t->f[p->a].name, t->f[p->b].name, between);
    else
        snprintf(buf, cap, "%s + %s", t->f[p->a].name, t->f[p->b].name);
}

static void warn_shared(const struct mp_image *img, const struct mp_trust_opts *o,
                        const struct mp_functab *t, const struct mp_attrib *a, uint64_t binned)
{
    char worst[160] = "";
    double share = pct((double)a->shared_samples, (double)binned);

    if (!a->shared_bins || share <= o->shared_pct)
        return;
    if (a->npairs)
        pair_name(t, &a->pairs[0], worst, sizeof(worst));
    /* diag.h keeps a message to 384 characters: the names go last */
    mp_warn(img->name,
            "%" PRIu64 " samples (%.2f %% of %" PRIu64 " binned) lie in %" PRIu32 " bins that"
            " gprof splits between functions by bytes; start each function on a %u-byte bin"
            " (" MP_ALIGN_FIX ") or use smaller bins (BIN_SHIFT %u: RAM = code size / bin size *"
            " %u bytes = %" PRIu64 " bytes); worst: %s (%" PRIu64 ")",
            a->shared_samples, share, binned, a->shared_bins, 1u << img->bin_shift,
            a->finer_shift, (unsigned)img->counter_bytes, a->finer_ram,
            worst, a->npairs ? a->pairs[0].samples : 0);
}

/* The call paths: samples with no path (the table was full) and paths
 * whose outer frames were dropped (deeper than the shadow stack), each
 * against every sample the path table counted. Flame graphs and the
 * inclusive time from paths are short by these. */
static void warn_paths(const struct mp_image *img, const struct mp_trust_opts *o)
{
    const struct mp_ext *e;
    uint64_t counted;
    uint32_t i;

    if (img->paths < 0)
        return;
    e = &img->ext[img->paths];
    counted = e->lost;
    for (i = 0; i < e->used; i++) {
        unsigned depth, flags;
        uint32_t samples;

        mp_image_path(img, i, &samples, &depth, &flags);
        counted += samples;
    }
    if (e->lost && pct(e->lost, (double)counted) > o->warn_pct)
        mp_warn(img->name,
                "the path table was full for %" PRIu32 " samples (%.2f %% of %" PRIu64 "): their call paths are"
                " in no output and every inclusive time from paths is short by them; give the path table more"
                " entries",
                e->lost, pct(e->lost, (double)counted), counted);
    if (e->invalid && pct(e->invalid, (double)counted) > o->warn_pct)
        mp_warn(img->name,
                "%" PRIu32 " samples (%.2f %% of %" PRIu64 ") had call paths deeper than the shadow stack: their"
                " outer frames are missing (shown under [truncated]); give the shadow stack more entries",
                e->invalid, pct(e->invalid, (double)counted), counted);
}

void mp_trust_warn(const struct mp_image *img, const struct mp_trust_opts *o,
                   const struct mp_functab *t, const struct mp_attrib *a)
{
    static const struct {
        enum mp_lost which;
        const char *what;
    } losses[] = {
        {MP_LOST_SAMPLES_OUT_OF_RANGE,
         "PCs outside every profiled range: that time is in no function; add the code's range"
         " (__mcuprof_text1_start/_end) or widen range 0"},
        {MP_LOST_SAMPLES_SATURATED,
         "bins were full (past 65535 with the spill table full, or built with SPILL 0): the hottest code is"
         " under-counted; build with a larger SPILL, pull and reset more often (mcuprof pull --interval) or"
         " profile a shorter run"},
        {MP_LOST_SAMPLES_FROZEN,
         "taken while a host snapshot was in progress; pull less often"},
    };
    struct mp_sample_totals tot;
    unsigned i;

    if (img->arc_table_repairs)
        mp_warn(img->name,
                "arc_table_repairs %" PRIu32 ": the runtime found its arc table's chains damaged"
                " (something in the firmware wrote into the profile image) and cut them; every"
                " count is still exact, but look for a stray write near 0x%" PRIx64,
                img->arc_table_repairs, img->image_addr);
    warn_paths(img, o);
    if (img->nranges == 0)
        return;
    mp_sample_totals(img, &tot);
    if (tot.taken == 0) {
        mp_warn(img->name, "no samples were taken: no time profile (start the sampler with"
                           " mcuprof_sampler_start before the code of interest)");
        return;
    }
    for (i = 0; i < sizeof(losses) / sizeof(losses[0]); i++) {
        uint32_t n = img->lost[losses[i].which];
        double share = pct(n, (double)tot.taken);

        if (n && share > o->warn_pct)
            mp_warn(img->name, "%s %" PRIu32 " is %.2f %% of %" PRIu64 " samples taken: %s",
                    mp_lost_names[losses[i].which], n, share, tot.taken, losses[i].what);
    }
    /* missed periods, deferred samples and blockers: mp_timing_warn */
    if (tot.draws < o->min_samples)
        mp_warn(img->name,
                "only %" PRIu64 " samples (fewer than %" PRIu64 "): a 10 %% share is known to"
                " +- %.1f points (95 %%); run longer or raise the sample rate",
                tot.draws, o->min_samples, halfwidth10(tot.draws));
    if (t && a) {
        warn_shared(img, o, t, a, tot.binned);
        if (a->hidden > 0.0)
            mp_warn(img->name,
                    "%.0f samples (%.2f %% of samples taken) are in functions gprof hides"
                    " (named like mcount): gprof leaves them out of its total and raises every"
                    " other share; give the code a name gprof shows (the runtime's hook has"
                    " mcuprof_mcount)",
                    a->hidden, pct(a->hidden, (double)tot.taken));
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

static int cmp_credit_desc(const void *x, const void *y, const double *credit)
{
    long l = *(const long *)x, r = *(const long *)y;

    if (credit[l] != credit[r])
        return credit[l] < credit[r] ? 1 : -1;
    return l < r ? -1 : l > r;
}

/* qsort has no context argument in C11: a file-scope pointer, set only
 * around the one call. */
static const double *sort_credit;

static int cmp_by_credit(const void *x, const void *y)
{
    return cmp_credit_desc(x, y, sort_credit);
}

static void print_functions(FILE *f, const struct mp_trust_opts *o, const struct mp_functab *t,
                            const struct mp_attrib *a, const struct mp_sample_totals *tot)
{
    uint64_t taken = tot->taken;
    long *order;
    size_t n = 0, i;
    double rest = 0.0;

    order = malloc((t->n ? t->n : 1) * sizeof(*order));
    if (!order) {
        mp_error(t->path, "out of memory sorting %zu functions", t->n);
        return;
    }
    for (i = 0; i < t->n; i++) {
        if (a->credit[i] > 0.0)
            order[n++] = (long)i;
    }
    sort_credit = a->credit;
    qsort(order, n, sizeof(*order), cmp_by_credit);
    sort_credit = NULL;
    fprintf(f, "self time by function (as gprof attributes it; %% of %s %" PRIu64 ", 95 %% Wilson interval%s)\n",
            tot->charged ? "sampler periods" : "samples_taken", taken,
            tot->charged ? " over the samples taken, not the periods charged" : "");
    fprintf(f, "  %-28s %10s %8s %17s %8s  %s\n", "function", "samples", "% taken",
            "95 % interval", "% gprof", "note");
    for (i = 0; i < n; i++) {
        long k = order[i];
        double lo, hi;

        if (i >= o->top) {
            rest += a->credit[k];
            continue;
        }
        mp_wilson_draws(a->credit[k], (double)taken, (double)tot->draws, &lo, &hi);
        fprintf(f, "  %-28s ", t->f[k].name);
        print_count(f, a->credit[k]);
        fprintf(f, " %8.2f %7.2f..%-7.2f%s%8.2f  %s\n", pct(a->credit[k], (double)taken),
                100.0 * lo, 100.0 * hi, "  ",
                t->f[k].hidden ? 0.0 : pct(a->credit[k], a->gprof_total),
                t->f[k].hidden ? "hidden by gprof" : a->shared[k] ? "shared bin" : "");
    }
    if (n > o->top) {
        fprintf(f, "  %-28s ", "(other functions)");
        print_count(f, rest);
        fprintf(f, " %8.2f   %zu more\n", pct(rest, (double)taken), n - o->top);
    }
    fprintf(f, "  %-28s ", "(outside every function)");
    print_count(f, a->outside);
    fprintf(f, " %8.2f\n", pct(a->outside, (double)taken));
    free(order);
}

static void print_shared(FILE *f, const struct mp_image *img, const struct mp_functab *t,
                         const struct mp_attrib *a, uint64_t binned)
{
    unsigned i;

    fprintf(f, LABEL "%" PRIu64 " samples in %" PRIu32 " bins (%.2f %% of binned)\n",
            "shared_samples", a->shared_samples, a->shared_bins,
            pct((double)a->shared_samples, (double)binned));
    for (i = 0; i < a->npairs && i < 5; i++) {
        char name[160];

        pair_name(t, &a->pairs[i], name, sizeof(name));
        fprintf(f, LABEL "%" PRIu64 " samples in %" PRIu32 " bins: %s\n", "shared by",
                a->pairs[i].samples, a->pairs[i].bins, name);
    }
    if (a->shared_bins)
        fprintf(f, LABEL "%u (%u-byte bins): %" PRIu64 " bytes of RAM instead of %" PRIu64 "\n",
                "finer BIN_SHIFT", a->finer_shift, 1u << a->finer_shift, a->finer_ram,
                a->finer_ram >> (img->bin_shift - a->finer_shift));
}

void mp_trust_print(FILE *f, const struct mp_image *img, const struct mp_trust_opts *o,
                    const struct mp_functab *t, const struct mp_attrib *a)
{
    struct mp_sample_totals tot;

    mp_sample_totals(img, &tot);
    fprintf(f, "time profile\n");
    fprintf(f, LABEL "%" PRIu64 " (%s%s)\n", "all_samples", tot.taken,
            tot.charged && !tot.taken_derived ? "sampler periods: " : "",
            mp_time_seen_what(&tot.seen, img->held_entry.samples));
    fprintf(f, LABEL "%" PRIu64 " (%.2f %% of samples)\n", "binned", tot.binned,
            pct((double)tot.binned, (double)tot.taken));
    if (tot.draws)
        fprintf(f, LABEL "+- %.2f points at a 10 %% share (95 %%, %" PRIu64 " samples)\n", "uncertainty",
                halfwidth10(tot.draws), tot.draws);
    if (!t || !a)
        return;
    fprintf(f, LABEL "%zu (%s)\n", "functions", t->n, t->path);
    fprintf(f, LABEL "%.2f (%.2f %% of samples)\n", "outside_functions", a->outside,
            pct(a->outside, (double)tot.taken));
    fprintf(f, LABEL "%.2f\n", "hidden_by_gprof", a->hidden);
    fprintf(f, LABEL "%.2f (gprof's 100 %%)\n", "gprof_total", a->gprof_total);
    print_shared(f, img, t, a, tot.binned);
    print_functions(f, o, t, a, &tot);
}

/*
 * report_flat.c - the header of `mcuprof report` (what was counted and
 * what was lost) and its flat profile (report.h).
 */
#include <inttypes.h>

#include "image_read.h"
#include "report.h"

#include "context_print.h"
#include "text_safe.h"
#include "timing.h"

#define LABEL "  %-28s "

static double pct(double part, double whole)
{
    return whole > 0.0 ? 100.0 * part / whole : 0.0;
}

double mp_report_pct(const struct mp_report *r, double samples)
{
    return pct(samples, r->m->gprof_total);
}

double mp_report_path_pct(const struct mp_report *r, uint64_t samples)
{
    return pct((double)samples, (double)r->pi->total);
}

/* What the path table counted and lost: the base of every "(paths)" share. */
static void print_paths(FILE *f, const struct mp_report *r)
{
    const struct mp_model *m = r->m;

    fprintf(f, LABEL "%" PRIu64 " samples in %zu paths, %" PRIu64 " more the table had no room for (%.2f %%):"
                     " 100 %% of '(paths)'\n",
            "call paths", r->pi->recorded, m->npaths, m->paths_lost,
            pct((double)m->paths_lost, (double)r->pi->total));
    fprintf(f, LABEL "%" PRIu64 " (%.2f %%; frames missing at " MP_PATH_GAP_NAME " or [truncated])\n",
            "deeper than the shadow stack",
            m->paths_truncated, pct((double)m->paths_truncated, (double)r->pi->total));
}

static void print_losses(FILE *f, const struct mp_model *m, uint64_t total)
{
    static const enum mp_lost samples[] = {MP_LOST_SAMPLES_OUT_OF_RANGE, MP_LOST_SAMPLES_SATURATED,
                                           MP_LOST_SAMPLES_FROZEN};
    static const enum mp_lost calls[] = {MP_LOST_ARCS_TABLE_FULL, MP_LOST_CALLS_REENTRANT,
                                         MP_LOST_CALLS_FROZEN};
    uint64_t calls_seen = m->c.total_calls;
    unsigned i;

    for (i = 0; i < sizeof(samples) / sizeof(samples[0]); i++)
        fprintf(f, LABEL "%" PRIu64 " (%.2f %% of samples)\n", mp_lost_names[samples[i]],
                m->c.lost[samples[i]], pct((double)m->c.lost[samples[i]], (double)total));
    /* Calls lost are measured against every call, recorded or not. */
    for (i = 0; i < sizeof(calls) / sizeof(calls[0]); i++)
        calls_seen += m->c.lost[calls[i]];
    for (i = 0; i < sizeof(calls) / sizeof(calls[0]); i++)
        fprintf(f, LABEL "%" PRIu64 " (%.2f %% of calls)\n", mp_lost_names[calls[i]], m->c.lost[calls[i]],
                pct((double)m->c.lost[calls[i]], (double)calls_seen));
    if (m->c.missed_source == MCUPROF_MISSED_NONE)
        fprintf(f, LABEL "not measurable (no clock beside the sampler's timer: see"
                         " mcuprof_sampler_set_clock)\n",
                "missed_periods");
    else
        fprintf(f, LABEL "%" PRIu64 " (%.2f %% of sampler periods, counted by %s)\n", "missed_periods",
                m->c.missed_periods,
                pct((double)m->c.missed_periods,
                    (double)(total - mp_model_charged(m) + m->held.samples + m->c.missed_periods)),
                mp_missed_source_name(m->c.missed_source) ? mp_missed_source_name(m->c.missed_source) : "?");
}

void mp_report_header(FILE *f, const struct mp_report *r)
{
    const struct mp_model *m = r->m;
    uint64_t total = mp_model_samples_total(m);
    struct mp_time_seen seen;
    double lo, hi;
    char view[128];

    mp_model_time_seen(m, &seen);
    fprintf(f, "profile %s, firmware %s (%zu functions)\n", mp_esc(m->name), mp_esc(m->elf_path), m->nfuncs);
    if (m->source == MP_MODEL_IMAGE) {
        if (seen.charged || seen.taken_derived || m->held.samples)
            fprintf(f, LABEL "%" PRIu64 " (%s)\n", seen.charged ? "sampler periods" : "samples taken", total,
                    mp_time_seen_what(&seen, m->held.samples));
        else
            fprintf(f, LABEL "%" PRIu64 "\n", "samples taken", total);
        fprintf(f, LABEL "%" PRIu64 " (%.2f %% of samples)\n", "binned", m->c.binned,
                pct((double)m->c.binned, (double)total));
        print_losses(f, m, total);
    } else {
        fprintf(f, LABEL "%" PRIu64 " (binned: what the file holds)\n", "samples", total);
        fprintf(f, LABEL "not recorded (the image has them, a gmon.out has not)\n", "losses, missed periods");
    }
    fprintf(f, LABEL "%" PRIu64 " (%.2f %% of binned; split between functions by bytes)\n",
            "samples in shared bins", m->shared_samples, pct((double)m->shared_samples, (double)m->c.binned));
    fprintf(f, LABEL "%.2f (%.2f %% of samples)\n", "outside every function", m->outside,
            pct(m->outside, (double)total));
    fprintf(f, LABEL "%.2f (%.2f %% of samples)\n", "in functions gprof hides", m->hidden,
            pct(m->hidden, (double)total));
    fprintf(f, LABEL "%.2f (%.2f %% of samples): 100 %% below\n", "gprof's total", m->gprof_total,
            pct(m->gprof_total, (double)total));
    if (mp_model_clone_view(m, view, sizeof(view)))
        fprintf(f, LABEL "%s\n", "clones", view);
    if (m->sample_rate_hz)
        fprintf(f, LABEL "%" PRIu32 " Hz: a sample stands for %.6g s, the samples for %.6g s\n", "rate",
                m->sample_rate_hz, 1.0 / m->sample_rate_hz, (double)total / m->sample_rate_hz);
    else
        fprintf(f, LABEL "unknown (the sampler never ran)\n", "rate");
    mp_model_interval(m, 0.1 * (double)total, (double)total, &lo, &hi);
    if (total)
        fprintf(f, LABEL "+- %.2f points at a 10 %% share (95 %%)\n", "uncertainty", 50.0 * (hi - lo));
    mp_print_timing(f, m);
    if (r->pi)
        print_paths(f, r);
    if (m->has_contexts || m->has_tasks)
        mp_print_contexts(f, m);
}

void mp_report_flat(FILE *f, const struct mp_report *r)
{
    const struct mp_model *m = r->m;
    size_t i;
    int shared = 0;

    fprintf(f, "\nflat profile (%% of gprof's total %.2f samples; 95 %% Wilson interval%s)\n", m->gprof_total,
            r->pi ? "; '(paths)': % of the samples the path table counted" : "");
    fprintf(f, "  %7s  %15s  %12s  %10s  %7s  %s%s\n", "% time", "95 % interval", "self samples", "calls",
            "incl %", r->pi ? "incl % (paths)  " : "", "name");
    for (i = 0; i < r->nflat; i++) {
        long k = r->flat[i];
        const struct mp_model_func *fn = &m->funcs[k];
        double lo, hi;

        mp_model_interval(m, fn->self, m->gprof_total, &lo, &hi);
        fprintf(f, "  %7.2f  %6.2f..%-7.2f  %12.2f  %10" PRIu64 "  %7.2f  ", mp_report_pct(r, fn->self),
                100.0 * lo, 100.0 * hi, fn->self, r->calls[k], mp_report_pct(r, r->g->inclusive[k]));
        if (r->pi)
            fprintf(f, "%14.2f  ", mp_report_path_pct(r, r->pi->incl[k]));
        fprintf(f, "%s%s\n", mp_esc(fn->name), fn->shared ? " *" : "");
        shared |= fn->shared;
    }
    if (!r->nflat)
        fprintf(f, "  (no function)\n");
    if (shared)
        fprintf(f, "  * shares a histogram bin with another function: split by bytes, as gprof does\n");
}

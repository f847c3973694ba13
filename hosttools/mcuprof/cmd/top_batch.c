/*
 * top_batch.c - the batch form of `mcuprof top` (top_batch.h).
 */
#include "top_batch.h"

#include <inttypes.h>
#include <stdlib.h>

#include "text_safe.h"

/* "N", or "-" when the target cannot measure it. */
static const char *count_or_dash(char *buf, size_t size, int known, uint64_t n)
{
    if (!known)
        return "-";
    snprintf(buf, size, "%" PRIu64, n);
    return buf;
}

static void parts(FILE *f, const char *kind, const struct top_parts *ps)
{
    size_t i;

    for (i = 0; i < ps->n; i++) {
        double lo, hi, share = top_share((double)ps->p[i].samples, ps->total, ps->total, &lo, &hi);

        if (!ps->p[i].samples)
            continue;
        fprintf(f, "%s %s %.2f %.2f %.2f\n", kind, mp_esc(ps->p[i].name), share, lo, hi);
    }
}

void top_batch_block(FILE *f, const struct top_view *v, unsigned lines)
{
    const struct top_span *s = &v->last, *run = &v->run;
    char when[32], missed[24], deferred[24];
    size_t *order, n, k;

    top_time(v->when, when, sizeof(when));
    fprintf(f,
            "interval %u time %s wall_s %.3f target_s %.3f samples %" PRIu64 " lost_samples %" PRIu64
            " lost_calls %" PRIu64 " missed_periods %s deferred_samples %s held_off %" PRIu64 " table_lost %" PRIu64
            " run_intervals %u run_samples %" PRIu64 " sort %s\n",
            v->number, when, s->wall_s, top_span_seconds(s), s->total, top_span_samples_lost(s),
            top_span_calls_lost(s), count_or_dash(missed, sizeof(missed), s->missed_known, s->missed),
            count_or_dash(deferred, sizeof(deferred), s->deferred_known, s->deferred), s->held, s->table_lost,
            run->intervals, run->total, top_sort_name(v->sort));
    fprintf(f, "self%% self_lo self_hi run%% run_lo run_hi calls/s calls run_calls incl%% incl_lo incl_hi function\n");
    if (!(order = malloc((v->nfn ? v->nfn : 1) * sizeof(*order))))
        return;
    n = top_view_order(v, s, order);
    for (k = 0; k < n && (!lines || k < lines); k++) {
        struct top_cells c;

        top_view_cells(s, run, order[k], &c);
        fprintf(f, "%.2f %.2f %.2f %.2f %.2f %.2f %.1f %" PRIu64 " %" PRIu64, c.self, c.self_lo, c.self_hi, c.other,
                c.other_lo, c.other_hi, c.rate, c.calls, run->fn[order[k]].calls);
        if (c.has_incl)
            fprintf(f, " %.2f %.2f %.2f", c.incl, c.incl_lo, c.incl_hi);
        else
            fputs(" - - -", f);
        fprintf(f, " %s\n", v->names[order[k]]);
    }
    free(order);
    if (s->has_contexts)
        parts(f, "context", &s->ctx);
    if (s->has_tasks)
        parts(f, "task", &s->task);
    fputc('\n', f);
    fflush(f);
}

void top_batch_restart(FILE *f, const struct top_view *v, const char *why)
{
    char when[32];

    top_time(v->when, when, sizeof(when));
    fprintf(f, "interval %u time %s restarted: %s\n\n", v->number, when, why);
    fflush(f);
}

/*
 * timing_model.c - the sampler's own timing in the model (model.h): the
 * header's timing words, the late-sample, held-off and blocker tables
 * of a validated image, and the error bars of shares of a profile whose
 * bins hold charged periods.
 */
#include "model.h"
#include "wilson.h"

static int copy_late(struct mp_model *m, const struct mp_image *img)
{
    const struct mp_ext *e = &img->ext[img->late];
    uint32_t i;

    m->has_late = 1;
    m->late_lost = e->lost;
    m->nlate = e->used;
    if (!(m->late = mp_model_alloc(m, (e->used ? e->used : 1) * sizeof(*m->late))))
        return -1;
    for (i = 0; i < e->used; i++) {
        uint32_t samples, missed;

        mp_image_late(img, i, &m->late[i].pc, &samples, &missed);
        m->late[i].samples = samples;
        m->late[i].missed = missed;
    }
    return 0;
}

static int copy_blockers(struct mp_model *m, const struct mp_image *img)
{
    const struct mp_ext *e = &img->ext[img->blockers];
    uint32_t i;

    m->has_blockers = 1;
    m->blockers_lost = e->lost;
    m->nblockers = e->used;
    if (!(m->blockers = mp_model_alloc(m, (e->used ? e->used : 1) * sizeof(*m->blockers))))
        return -1;
    for (i = 0; i < e->used; i++) {
        struct mp_model_blocker *b = &m->blockers[i];

        mp_image_blocker(img, i, &b->source, &b->priority, &b->sampler_priority, &b->flags);
    }
    return 0;
}

int mp_model_timing_from_image(struct mp_model *m, const struct mp_image *img)
{
    m->c.timing_flags = img->timing_flags;
    m->c.deferred_samples = img->deferred_samples;
    if (img->held >= 0) {
        m->has_held = 1;
        m->held.samples = img->held_entry.samples;
        m->held.periods = img->held_entry.periods;
        m->held.threshold = img->held_entry.threshold;
        m->held.scans = img->held_entry.scans;
    }
    if (img->late >= 0 && copy_late(m, img) < 0)
        return -1;
    return img->blockers >= 0 ? copy_blockers(m, img) : 0;
}

/* N for the error bars. A late sample that comes back after k missed
 * periods adds k + 1 to one bin: one draw of where the time went, not
 * k + 1 independent ones. Counting the charged periods as samples would
 * narrow every interval by sqrt(periods / samples) with nothing measured
 * to show for it; so the share stays one of time (K of TOTAL periods)
 * and the interval is that share's over the independent draws, the
 * samples the sampler could see (samples_taken less those held off, which
 * are in no bin: struct mp_time_seen): K and TOTAL scaled by draws /
 * periods. */
void mp_model_interval(const struct mp_model *m, double k, double total, double *lo, double *hi)
{
    struct mp_time_seen t;
    double f;

    mp_model_time_seen(m, &t);
    f = t.charged && t.taken ? (double)t.draws / (double)t.taken : 1.0;
    mp_wilson_draws(k, total, total * f, lo, hi);
}

#include "profile.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "callsite.h"
#include "diag.h"

/* A model without ranges still gets one histogram record, because gprof
 * refuses a gmon.out without one ("missing histogram") and prints -nan in
 * the call graph. It has a single bin holding 0 samples, so it adds no time
 * to any function, and it spans the addresses the arcs mention so it does
 * not claim to cover unrelated memory. */
static void empty_histogram(struct mp_profile *p)
{
    const struct mp_model *m = p->m;
    uint64_t lo = UINT64_MAX, hi = 0;
    uint64_t top = m->ptr_size == 4 ? UINT32_MAX - 1 : UINT64_MAX - 1;
    size_t i;

    for (i = 0; i < m->narcs; i++) {
        const struct mp_model_arc *a = &m->arcs[i];

        if (a->callsite != 0) {
            lo = a->callsite < lo ? a->callsite : lo;
            hi = a->callsite > hi ? a->callsite : hi;
        }
        lo = a->callee < lo ? a->callee : lo;
        hi = a->callee > hi ? a->callee : hi;
    }
    /* Even bounds: gprof counts histogram addresses in 2-byte units. */
    lo &= ~(uint64_t)1;
    hi &= ~(uint64_t)1;
    hi = hi < top ? hi + 2 : top;
    if (lo >= hi)
        lo = hi - 2;
    p->nhist = 1;
    p->hist[0].low = lo;
    p->hist[0].high = hi;
    p->hist[0].nbins = 1;
    p->hist[0].bins = NULL;
    p->hist[0].max = 0;
}

static int copy_ranges(struct mp_profile *p, uint64_t *clamped)
{
    const struct mp_model *m = p->m;
    size_t r;

    p->nhist = m->nranges;
    for (r = 0; r < m->nranges; r++) {
        const struct mp_model_range *rg = &m->ranges[r];
        struct mp_hist *h = &p->hist[r];
        uint64_t b;

        /* gmon.out's bin count is 32 bits, its addresses the ELF's width */
        if (rg->nbins == 0 || rg->nbins > UINT32_MAX || rg->high <= rg->low ||
            (m->ptr_size == 4 && rg->high > UINT32_MAX))
            return mp_error(m->name, "range %zu (0x%" PRIx64 "..0x%" PRIx64 ", %" PRIu64
                                     " bins) cannot be written to gmon.out",
                            r, rg->low, rg->high, rg->nbins);
        h->low = rg->low;
        h->high = rg->high;
        h->nbins = (uint32_t)rg->nbins;
        h->bins = rg->bins;
        h->max = rg->max_bin > MP_GPROF_BIN_MAX ? MP_GPROF_BIN_MAX : (uint32_t)rg->max_bin;
        if (rg->max_bin > MP_GPROF_BIN_MAX)
            for (b = 0; b < rg->nbins; b++)
                *clamped += rg->bins[b] > MP_GPROF_BIN_MAX;
    }
    return 0;
}

static void warn_counts(const struct mp_model *m, uint64_t clamped)
{
    const struct mp_model_counters *c = &m->c;

    if (c->saturated_arcs)
        mp_warn(m->name, "%" PRIu64 " arc%s saturated at count 0xffffffff: written as is, a lower bound",
                c->saturated_arcs, c->saturated_arcs == 1 ? " is" : "s are");
    if (c->saturated_bins)
        mp_warn(m->name, "%" PRIu64 " histogram bin%s saturated at 0x%" PRIx64 ": a lower bound",
                c->saturated_bins, c->saturated_bins == 1 ? " is" : "s are",
                m->counter_bytes == 2 ? (uint64_t)UINT16_MAX : (uint64_t)UINT32_MAX);
    if (clamped)
        mp_warn(m->name,
                "%" PRIu64 " histogram bin%s above %" PRIu32 ", the most gprof can add up per bin: clamped",
                clamped, clamped == 1 ? " is" : "s are", MP_GPROF_BIN_MAX);
}

/* "ARM (40)": an architecture with a call-site rule, and its machine number. */
static void name_and_machine(const struct mp_arch *a, char *buf, size_t size)
{
    snprintf(buf, size, "%s (%u)", a->name, (unsigned)a->machine);
}

int mp_profile_prepare(struct mp_profile *p, const struct mp_model *m)
{
    uint64_t clamped = 0;

    memset(p, 0, sizeof(*p));
    p->m = m;
    if (m->nranges == 0 && m->narcs == 0)
        return mp_error(m->name, "nranges 0 and arcs_used 0: the profile holds no samples and no arcs, "
                                 "nothing to convert");
    if (!(p->hist = calloc(m->nranges ? m->nranges : 1, sizeof(*p->hist))))
        return mp_error(m->name, "out of memory for %zu histogram ranges", m->nranges);
    if (m->nranges == 0) {
        empty_histogram(p);
        mp_warn(m->name,
                "nranges 0: no histogram in the profile; writing one empty 1-bin histogram "
                "0x%" PRIx64 "..0x%" PRIx64 " so gprof accepts the call graph",
                p->hist[0].low, p->hist[0].high);
    } else if (copy_ranges(p, &clamped) < 0) {
        mp_profile_free(p);
        return -1;
    }

    /* gprof divides by the rate ("each sample counts as 1/rate seconds"):
     * 0 would print inf and nan everywhere. 1 Hz makes its "seconds" read
     * as sample counts, which is exactly what the bins hold. */
    p->rate = m->sample_rate_hz;
    if (p->rate == 0) {
        p->rate = 1;
        if (m->c.binned != 0)
            mp_warn(m->name,
                    "sample_rate_hz is 0 but the bins hold %" PRIu64 " samples: rate written as 1 Hz, "
                    "so gprof's seconds are sample counts",
                    m->c.binned);
    }
    if (!mp_callsite_known(m->machine)) {
        char known[128];

        mp_warn(m->name, "machine %u is neither %s: call sites are written as the recorded return addresses",
                (unsigned)m->machine, mp_arch_list(known, sizeof(known), " nor ", name_and_machine));
    }
    warn_counts(m, clamped);
    return 0;
}

void mp_profile_free(struct mp_profile *p)
{
    free(p->hist);
    p->hist = NULL;
    p->nhist = 0;
}

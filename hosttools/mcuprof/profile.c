#include "profile.h"

#include <inttypes.h>
#include <string.h>

#include "callsite.h"
#include "diag.h"

void mp_stats_compute(const struct mp_image *img, struct mp_stats *st)
{
    uint32_t i, b;
    unsigned r;

    memset(st, 0, sizeof(*st));
    for (i = 1; i <= img->arcs_used; i++) {
        struct mp_arc arc;

        mp_image_arc(img, i, &arc);
        st->total_calls += arc.count;
        if (arc.count == UINT32_MAX)
            st->saturated_arcs++;
        if (mp_frompc_outside_code(img->machine, arc.frompc)) {
            st->outside_arcs++;
            st->outside_calls += arc.count;
        }
    }
    /* the sums, maxima and saturated bins mp_image_parse counted */
    for (r = 0; r < img->nranges; r++) {
        st->samples[r] = img->ranges[r].bin_sum;
        st->saturated_bins += img->ranges[r].bins_saturated;
        st->max_bin[r] = img->ranges[r].bin_max;
        if (img->ranges[r].bin_max <= MP_GPROF_BIN_MAX)
            continue; /* always so with 16-bit counters: no pass over the bins */
        for (b = 0; b < img->ranges[r].nbins; b++)
            if (mp_image_bin(img, r, b) > MP_GPROF_BIN_MAX)
                st->clamped_bins++;
    }
}

/* An image without ranges still gets one histogram record, because gprof
 * refuses a gmon.out without one ("missing histogram") and prints -nan in
 * the call graph. It has a single bin holding 0 samples, so it adds no time
 * to any function, and it spans the addresses the arcs mention so it does
 * not claim to cover unrelated memory. */
static void empty_histogram(struct mp_profile *p)
{
    const struct mp_image *img = p->img;
    uint64_t lo = UINT64_MAX, hi = 0;
    uint64_t top = img->ptr_size == 4 ? UINT32_MAX - 1 : UINT64_MAX - 1;
    uint32_t i;

    for (i = 1; i <= img->arcs_used; i++) {
        struct mp_arc arc;

        mp_profile_arc(p, i, &arc);
        if (arc.frompc != 0) {
            lo = arc.frompc < lo ? arc.frompc : lo;
            hi = arc.frompc > hi ? arc.frompc : hi;
        }
        lo = arc.selfpc < lo ? arc.selfpc : lo;
        hi = arc.selfpc > hi ? arc.selfpc : hi;
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
    p->hist[0].range = -1;
}

static void warn_counts(const struct mp_profile *p)
{
    const struct mp_image *img = p->img;
    const struct mp_stats *st = &p->stats;

    if (st->saturated_arcs)
        mp_warn(img->name, "%" PRIu32 " arc%s saturated at count 0xffffffff: written as is, a lower bound",
                st->saturated_arcs, st->saturated_arcs == 1 ? " is" : "s are");
    if (st->saturated_bins)
        mp_warn(img->name, "%" PRIu32 " histogram bin%s saturated at 0x%" PRIx32 ": a lower bound",
                st->saturated_bins, st->saturated_bins == 1 ? " is" : "s are", mp_image_bin_max(img));
    if (st->clamped_bins)
        mp_warn(img->name,
                "%" PRIu32 " histogram bin%s above %" PRIu32 ", the most gprof can add up per bin: clamped",
                st->clamped_bins, st->clamped_bins == 1 ? " is" : "s are", MP_GPROF_BIN_MAX);
}

int mp_profile_prepare(struct mp_profile *p, const struct mp_image *img)
{
    uint64_t samples = 0;
    unsigned r;

    memset(p, 0, sizeof(*p));
    p->img = img;
    mp_stats_compute(img, &p->stats);
    for (r = 0; r < img->nranges; r++)
        samples += p->stats.samples[r];

    if (img->nranges == 0) {
        if (img->arcs_used == 0)
            return mp_error(img->name,
                            "nranges 0 and arcs_used 0: the image holds no samples and no arcs, "
                            "nothing to convert");
        empty_histogram(p);
        mp_warn(img->name,
                "nranges 0: no histogram in the image; writing one empty 1-bin histogram "
                "0x%" PRIx64 "..0x%" PRIx64 " so gprof accepts the call graph",
                p->hist[0].low, p->hist[0].high);
    } else {
        p->nhist = img->nranges;
        for (r = 0; r < img->nranges; r++) {
            p->hist[r].low = img->ranges[r].low;
            p->hist[r].high = img->ranges[r].high;
            p->hist[r].nbins = img->ranges[r].nbins;
            p->hist[r].range = (int)r;
        }
    }

    /* gprof divides by the rate ("each sample counts as 1/rate seconds"):
     * 0 would print inf and nan everywhere. 1 Hz makes its "seconds" read
     * as sample counts, which is exactly what the bins hold. */
    p->rate = img->sample_rate_hz;
    if (p->rate == 0) {
        p->rate = 1;
        if (samples != 0)
            mp_warn(img->name,
                    "sample_rate_hz is 0 but the bins hold %" PRIu64 " samples: rate written as 1 Hz, "
                    "so gprof's seconds are sample counts",
                    samples);
    }
    if (!mp_callsite_known(img->machine))
        mp_warn(img->name,
                "machine %u is neither ARM (%u) nor RISC-V (%u): call sites are written as the "
                "recorded return addresses",
                (unsigned)img->machine, (unsigned)MCUPROF_MACHINE_ARM, (unsigned)MCUPROF_MACHINE_RISCV);
    warn_counts(p);
    return 0;
}

uint32_t mp_profile_max_bin(const struct mp_profile *p, unsigned h)
{
    uint32_t v;

    if (p->hist[h].range < 0)
        return 0;
    v = p->stats.max_bin[p->hist[h].range];
    return v > MP_GPROF_BIN_MAX ? MP_GPROF_BIN_MAX : v;
}

void mp_profile_arc(const struct mp_profile *p, uint32_t index, struct mp_arc *arc)
{
    uint16_t machine = p->img->machine;

    mp_image_arc(p->img, index, arc);
    arc->frompc = mp_callsite(machine, arc->frompc);
    arc->selfpc = mp_selfpc(machine, arc->selfpc);
}

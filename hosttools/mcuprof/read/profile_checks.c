/* profile_checks.c - the checks of profile_checks.h. */
#include "profile_checks.h"

int mp_bins_span(uint64_t low, uint64_t high, uint64_t nbins, unsigned shift)
{
    return nbins <= (UINT64_MAX >> shift) && high - low == nbins << shift;
}

int mp_ranges_overlap(uint64_t a_low, uint64_t a_high, uint64_t b_low, uint64_t b_high)
{
    return a_low < b_high && b_low < a_high;
}

int mp_held_exceeds(uint64_t samples, uint64_t periods, uint64_t samples_taken, uint64_t missed_periods,
                    uint64_t saturated)
{
    if (samples_taken != saturated && samples > samples_taken)
        return 1;
    if (missed_periods != saturated && periods > missed_periods)
        return 2;
    return 0;
}

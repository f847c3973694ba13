/*
 * profile_checks.h - what a profile's numbers must satisfy whatever they
 * were read from: a profile image (image_read.c, timing_read.c) or a JSON
 * document (the model's json_*.c). Each check says only whether the
 * numbers hold; the reader words the error for what it read (a header
 * field, a member at a byte offset), so the two readers agree on what
 * they refuse without sharing their messages.
 */
#ifndef MCUPROF_PROFILE_CHECKS_H
#define MCUPROF_PROFILE_CHECKS_H

#include <stdint.h>

#include <mcuprof/image.h>

/* The MCUPROF_TIMING_* bits this mcuprof knows. Others are a later
 * runtime's: every reader drops them with a warning. */
#define MP_TIMING_KNOWN                                                                                      \
    (MCUPROF_TIMING_DEFERRED | MCUPROF_TIMING_CHARGED | MCUPROF_TIMING_BLOCKERS | MCUPROF_TIMING_CLOCK_STALLED | \
     MCUPROF_TIMING_CLOCK_JUMPED)

/* NBINS bins of 2^SHIFT bytes span LOW..HIGH exactly (without the shift
 * overflowing 64 bits). */
int mp_bins_span(uint64_t low, uint64_t high, uint64_t nbins, unsigned shift);

/* Two ranges LOW..HIGH (end exclusive) share an address: it would be
 * counted twice. */
int mp_ranges_overlap(uint64_t a_low, uint64_t a_high, uint64_t b_low, uint64_t b_high);

/* The samples held off (struct mcuprof_held) are samples taken and the
 * periods missed before them missed periods: 0 when both hold, 1 when the
 * samples exceed SAMPLES_TAKEN, else 2 when the periods exceed
 * MISSED_PERIODS. A counter at SATURATED (the header's saturated 32-bit
 * count) bounds nothing. */
int mp_held_exceeds(uint64_t samples, uint64_t periods, uint64_t samples_taken, uint64_t missed_periods,
                    uint64_t saturated);

#endif /* MCUPROF_PROFILE_CHECKS_H */

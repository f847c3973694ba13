/*
 * late.c - samples the sampler took late: what its interrupt was held off
 * by, where the time goes, and which interrupts it cannot preempt. The
 * rare path of a tick, called by the architectures' timer code through
 * mcuprof_timing_check() (sample_timing.h) when a sample comes at least
 * the deferral threshold after it was due.
 *
 * A late sample is charged where it lands when the instruction before its
 * PC unmasked interrupts (or waited in WFI): the code that masked them ran
 * for the whole delay, so the sample and the periods it missed belong
 * there, next to where interrupts came back on. Anywhere else the delay
 * was a handler the sampler cannot preempt (equal priority on Cortex-M, a
 * masked trap handler on RISC-V): the interrupted PC did not run during
 * it, so the sample is binned nowhere and counted as held off. Either way
 * the runtime looks (now and then) for the interrupts that can hold the
 * sampler off and records them.
 */
#include "late.h"

#include "mcuprof_layout.h"
#include "mcuprof_port.h"
#include "mcuprof_symbols.h"
#include "sample_body.h"
#include "sample_timing.h"
#include "spill.h"

/* Late samples between two looks for blockers: a look reads every enabled
 * interrupt's priority (tens of register reads on a large NVIC), too much
 * for each of thousands of deferred samples. */
#define SCAN_EVERY 32u
static uint32_t scan_countdown;

/* PC with n bytes of profiled code before it, in range 0 or 1: only then
 * is the code before it read (a wild PC must not fault here). */
MCUPROF_NOINSTR static int code_before(uintptr_t pc, uintptr_t n)
{
    uintptr_t off = pc - MCUPROF_SYM(__mcuprof_range0_low) - n;
    if (off < MCUPROF_SYM(__mcuprof_range0_size) - n && MCUPROF_SYM(__mcuprof_range0_size) > n)
        return 1;
    off = pc - MCUPROF_SYM(__mcuprof_range1_low) - n;
    return off < MCUPROF_SYM(__mcuprof_range1_size) - n && MCUPROF_SYM(__mcuprof_range1_size) > n;
}

/* Bytes before PC that unmasked_before() reads: two halfwords before
 * each of the three ends it tries. */
#define UNMASK_READ_BYTES 8u

/* Non-zero when an instruction that unmasks interrupts ends at PC, or one
 * instruction (of 2 or 4 bytes) before it: an ISB or the like after it.
 * The same walk on every architecture with 2- and 4-byte instructions;
 * the port decodes the instruction. */
__attribute__((no_instrument_function, always_inline)) static inline int unmasked_before(uintptr_t pc)
{
    const volatile uint16_t *p = (const volatile uint16_t *)pc;
    return mcuprof_port_unmask_at(p) || mcuprof_port_unmask_at(p - 1) || mcuprof_port_unmask_at(p - 2);
}

/* Add n periods to PC's bin (through the spill table when it passes
 * 65,535), or to the samples outside every range. */
MCUPROF_NOINSTR static void charge(uintptr_t pc, uint64_t n)
{
    struct mcuprof_header *h = &mcuprof_region.header;
    uint16_t *bin = mcuprof_bin_of(pc);
    if (!bin) {
        mcuprof_count_add_saturating(&h->lost_samples_out_of_range, n);
        return;
    }
    /* more than 2^32 periods late: the excess is lost as saturated */
    if (n > UINT32_MAX) {
        mcuprof_count_add_saturating(&h->lost_samples_saturated, n - UINT32_MAX);
        n = UINT32_MAX;
    }
    if (*bin + n <= 0xFFFFu)
        *bin = (uint16_t)(*bin + n);
    else
        mcuprof_spill_add(bin, (uint32_t)n);
}

#if MCUPROF_CFG_LATE > 0
MCUPROF_NOINSTR static void note_late(uintptr_t pc, uint64_t missed)
{
    struct mcuprof_ext *e = &mcuprof_region.late_ext;
    struct mcuprof_late *l = mcuprof_region.lates;
    uint32_t used = e->used, i;
    for (i = 0; i < used && l[i].pc != (uint64_t)pc; i++)
        ;
    if (i == used) {
        if (used == MCUPROF_CFG_LATE) {
            mcuprof_count_saturating(&e->lost);
            return;
        }
        l[i].pc = pc;
        e->used = used + 1u;
    }
    mcuprof_count_saturating(&l[i].samples);
    mcuprof_count_add_saturating(&l[i].missed, missed);
}
#else
#define note_late(pc, missed) ((void)(pc), (void)(missed))
#endif

/* The late sample and its periods are PC's. */
MCUPROF_NOINSTR static void charge_late(uintptr_t pc, uint64_t missed)
{
    if (missed) {
        charge(pc, missed);
        mcuprof_missed_pending = missed > UINT32_MAX ? UINT32_MAX : (uint32_t)missed;
    }
    note_late(pc, missed);
}

/* The late sample's periods and deferral, counted while samples are (so
 * that samples_taken + missed_periods is the number of periods
 * profiled). Returns 0 when nothing more is to be done: sampling off, or
 * frozen (the sample is counted as frozen, and so are its periods). */
MCUPROF_NOINSTR static int count_late(struct mcuprof_header *h, uint64_t missed)
{
    uint32_t state = h->state;
    if (!(state & MCUPROF_STATE_SAMPLING_Msk))
        return 0;
    mcuprof_count_add_saturating(&h->missed_periods, missed);
    if (missed == 0u)
        mcuprof_count_saturating(&h->deferred_samples);
    if (state & MCUPROF_STATE_FROZEN_Msk) {
        mcuprof_count_add_saturating(&h->lost_samples_frozen, missed);
        return 0;
    }
    return 1;
}

MCUPROF_NOINSTR void mcuprof_late_handler(uintptr_t pc, uint64_t missed)
{
    if (count_late(&mcuprof_region.header, missed))
        charge_late(pc, missed);
}

MCUPROF_NOINSTR void mcuprof_blocker_seen(uint32_t source, uint32_t priority, uint32_t sampler_priority,
                                          int blocking)
{
#if MCUPROF_CFG_BLOCKERS > 0
    struct mcuprof_ext *e = &mcuprof_region.blocker_ext;
    struct mcuprof_blocker *b = mcuprof_region.blockers;
    uint32_t used = e->used, i;
    for (i = 0; i < used && b[i].source != source; i++)
        ;
    if (i == used) {
        if (!blocking)
            return; /* never seen blocking: nothing to say */
        if (used == MCUPROF_CFG_BLOCKERS) {
            mcuprof_count_saturating(&e->lost);
            return;
        }
        b[i].source = source;
        e->used = used + 1u;
    }
    if (blocking) {
        b[i].priority = (uint8_t)priority;
        b[i].sampler_priority = (uint8_t)sampler_priority;
        b[i].flags |= MCUPROF_BLOCKER_SEEN_BLOCKING;
    } else {
        b[i].flags |= MCUPROF_BLOCKER_SEEN_PREEMPTIBLE;
    }
#else
    (void)source;
    (void)priority;
    (void)sampler_priority;
    (void)blocking;
#endif
}

MCUPROF_NOINSTR void mcuprof_blockers_scan(void)
{
    mcuprof_count_saturating(&mcuprof_region.held.scans);
    mcuprof_port_scan_blockers();
}

MCUPROF_NOINSTR void mcuprof_late_start(uint32_t threshold)
{
    mcuprof_region.held.threshold = threshold;
    mcuprof_region.header.timing_flags = MCUPROF_TIMING_DEFERRED | MCUPROF_TIMING_CHARGED |
                                         (MCUPROF_CFG_BLOCKERS > 0 ? MCUPROF_TIMING_BLOCKERS : 0u);
    scan_countdown = SCAN_EVERY;
    mcuprof_blockers_scan();
}

MCUPROF_NOINSTR int mcuprof_late_sample(uintptr_t pc, uint64_t missed)
{
    struct mcuprof_header *h = &mcuprof_region.header;
    if (!(h->state & MCUPROF_STATE_SAMPLING_Msk))
        return 0;
    if (--scan_countdown == 0u) {
        scan_countdown = SCAN_EVERY;
        mcuprof_blockers_scan();
    }
    if (!count_late(h, missed))
        return 0;
    if (!code_before(pc, UNMASK_READ_BYTES) || unmasked_before(pc) ||
        mcuprof_port_waited_before(pc)) {
        /* the code before pc held the sampler off: the sample is its, and
         * so are the periods missed (a core that slept through them in
         * WFI was idle: sample_context.h). A PC whose code cannot be read
         * (outside the profiled ranges) is charged too: nothing says a
         * handler ran instead. */
        charge_late(pc, missed);
        return 0;
    }
    mcuprof_count_saturating(&h->samples_taken);
    mcuprof_count_saturating(&mcuprof_region.held.samples);
    mcuprof_count_add_saturating(&mcuprof_region.held.periods, missed);
    return 1;
}

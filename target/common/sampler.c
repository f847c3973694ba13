/*
 * sampler.c - count one PC sample into the histogram.
 *
 * Called from the timer interrupt with the interrupted PC. The ranges and
 * the bin size are link-time constants (the linker fragment's symbols), so
 * this reads no table to find the bin.
 */
#include "mcuprof.h"
#include "mcuprof_layout.h"
#include "mcuprof_port.h"
#include "mcuprof_symbols.h"

/* Saturate instead of wrapping: a wrapped bin silently turns the hottest
 * spot into a cold one. Saturation is counted, so the loss is visible. */
MCUPROF_NOINSTR static inline void bump(uint16_t *bin, struct mcuprof_header *h)
{
    uint16_t v = *bin;
    if (v != UINT16_MAX)
        *bin = (uint16_t)(v + 1u);
    else
        mcuprof_count_saturating(&h->lost_samples_saturated);
}

MCUPROF_NOINSTR void mcuprof_sample_pc(uintptr_t pc)
{
    struct mcuprof_header *h = &mcuprof_region.header;
    mcuprof_freeze_poll(pc);
    uint32_t state = h->state; /* read once: nothing else changes it in this interrupt */
    if (!(state & MCUPROF_STATE_SAMPLING_Msk))
        return;
    mcuprof_count_saturating(&h->samples_taken);
    if (state & MCUPROF_STATE_FROZEN_Msk) {
        mcuprof_count_saturating(&h->lost_samples_frozen);
        return;
    }

    uintptr_t shift = MCUPROF_SYM(__mcuprof_bin_shift);
    /* One unsigned compare per range: pc below low wraps to a huge offset. */
    uintptr_t off = pc - MCUPROF_SYM(__mcuprof_range0_low);
    if (off < MCUPROF_SYM(__mcuprof_range0_high) - MCUPROF_SYM(__mcuprof_range0_low)) {
        bump((uint16_t *)(void *)__mcuprof_hist0 + (off >> shift), h);
        return;
    }
    off = pc - MCUPROF_SYM(__mcuprof_range1_low);
    if (off < MCUPROF_SYM(__mcuprof_range1_high) - MCUPROF_SYM(__mcuprof_range1_low)) {
        bump((uint16_t *)(void *)__mcuprof_hist1 + (off >> shift), h);
        return;
    }
    mcuprof_count_saturating(&h->lost_samples_out_of_range);
}

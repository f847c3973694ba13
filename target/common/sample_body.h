/*
 * sample_body.h - counting one PC sample, as an inline function, so that
 * each architecture's timer interrupt does it without a call: a call from
 * an interrupt costs the saving of every register the callee may clobber
 * (all of them on RISC-V, where the trap entry saves them by hand).
 * mcuprof_sample_pc() (sampler.c) is the same as a function.
 */
#ifndef MCUPROF_SAMPLE_BODY_H
#define MCUPROF_SAMPLE_BODY_H

#include "mcuprof_layout.h"
#include "mcuprof_port.h"
#include "mcuprof_symbols.h"
#include "sample_context.h"
#include "spill.h"

/* A host's freeze request is waiting to be served by mcuprof_freeze_poll():
 * the only part of a sample that needs a call, and a rare one. */
MCUPROF_NOINSTR __attribute__((always_inline)) static inline int mcuprof_freeze_pending(void)
{
    const struct mcuprof_header *h = &mcuprof_region.header;
    return h->freeze_request != h->freeze_ack;
}

/* A bin that would pass 65,535 wraps to 0 and its spill entry counts the
 * carry (spill.c): the rare path, reached by a call. It gets the sampled
 * PC and finds the bin again, so the common path computes nothing for it
 * (given the bin's address, GCC computes that ahead of the compare on
 * Cortex-M: one instruction more a sample). A file whose calls cost more
 * than an ordinary call defines MCUPROF_SPILL_CALL(bin, pc) before
 * including this (RISC-V's machine timer trap, mtimer.c), or its port
 * MCUPROF_PORT_SPILL_CALL (Cortex-M: a call that keeps every register). Without a spill
 * table the bin saturates, counted, so the loss is visible: a wrapped bin
 * must never silently turn the hottest spot into a cold one. */
#ifndef MCUPROF_SPILL_CALL
#ifdef MCUPROF_PORT_SPILL_CALL
#define MCUPROF_SPILL_CALL(bin, pc) MCUPROF_PORT_SPILL_CALL(bin, pc)
#else
#define MCUPROF_SPILL_CALL(bin, pc) ((void)(bin), mcuprof_spill_pc(pc))
#endif
#endif
MCUPROF_NOINSTR __attribute__((always_inline)) static inline void mcuprof_bin_bump(uint16_t *bin, uintptr_t pc,
                                                                                  struct mcuprof_header *h)
{
    uint32_t v = *bin + 1u; /* 0x10000: it was full */
    if (v != 0x10000u) {
        *bin = (uint16_t)v;
    } else {
#if MCUPROF_CFG_SPILL > 0
        (void)h;
        MCUPROF_SPILL_CALL(bin, pc);
#else
        (void)pc;
        mcuprof_count_saturating(&h->lost_samples_saturated);
#endif
    }
}

/* The bin of PC, or the count of samples outside every range. One bump
 * for both ranges: two copies of it, identical but for their registers,
 * invite GCC to merge them with a branch in the first range's path. */
MCUPROF_NOINSTR __attribute__((always_inline)) static inline void mcuprof_sample_bin(uintptr_t pc,
                                                                                    struct mcuprof_header *h)
{
    uintptr_t shift = MCUPROF_SYM(__mcuprof_bin_shift);
    uint16_t *hist = (uint16_t *)(void *)__mcuprof_hist0;
    /* One unsigned compare per range: pc below low wraps to a huge offset. */
    uintptr_t off = pc - MCUPROF_SYM(__mcuprof_range0_low);
    if (off >= MCUPROF_SYM(__mcuprof_range0_size)) {
        off = pc - MCUPROF_SYM(__mcuprof_range1_low);
        if (off >= MCUPROF_SYM(__mcuprof_range1_size)) {
            mcuprof_count_saturating(&h->lost_samples_out_of_range);
            return;
        }
        hist = (uint16_t *)(void *)__mcuprof_hist1;
    }
    mcuprof_bin_bump(hist + (off >> shift), pc, h);
}

/* The sample itself, after mcuprof_freeze_poll(): the ranges and the bin
 * size are link-time constants (the linker fragment's symbols), so this
 * reads no table to find the bin. KEY is the context the architecture
 * found (MCUPROF_CTX_THREAD or a handler's). Returns non-zero when the
 * task table needs mcuprof_task_resolve() (sample_context.h). */
MCUPROF_NOINSTR __attribute__((always_inline)) static inline int mcuprof_sample_body(uintptr_t pc,
                                                                                   uint32_t key)
{
    struct mcuprof_header *h = &mcuprof_region.header;
    uint32_t state = h->state; /* read once: nothing else changes it in this interrupt */
    if (!(state & MCUPROF_STATE_SAMPLING_Msk))
        return 0;
    mcuprof_count_saturating(&h->samples_taken);
    if (state & MCUPROF_STATE_FROZEN_Msk) {
        mcuprof_count_saturating(&h->lost_samples_frozen);
        return 0;
    }
    mcuprof_sample_bin(pc, h);
    mcuprof_context_count(pc, key);
    return mcuprof_task_count();
}

#endif /* MCUPROF_SAMPLE_BODY_H */

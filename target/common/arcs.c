/*
 * arcs.c - the slow path of the call hook: arcs not at the head of their
 * bucket's chain, and new arcs.
 *
 * The architecture's hook handles the common case itself (the arc is the
 * first in its chain) and calls mcuprof_record_arc() for everything else.
 * Records are never moved or freed while profiling runs, so a fast path in
 * another context that has already picked a record stays valid whatever
 * happens here; only the links and the bucket heads change.
 */
#include "mcuprof_layout.h"
#include "mcuprof_port.h"
#include "mcuprof_symbols.h"

/* Set while a slow path runs. Interrupts are masked then, so only an NMI or
 * a fault handler that is itself profiled can see it set. */
static volatile uint8_t slow_path_busy;

MCUPROF_NOINSTR static inline uint32_t bucket_of(uintptr_t frompc)
{
    return (uint32_t)(frompc >> MCUPROF_PORT_HASH_SHIFT) & (MCUPROF_BUCKETS - 1u);
}

/* A bucket's record reference (a word offset, see mcuprof/image.h) as a
 * record index. ARMv6-M has no divide instruction, and GCC turns a division by a
 * constant into a library call there: for 3-word records multiply by
 * 2^17 / 3 instead, exact for every 16-bit reference. */
MCUPROF_NOINSTR static inline uint32_t index_of(uint32_t ref)
{
#if MCUPROF_ARC_WORDS == 3
    return (ref * 0xAAABu) >> 17;
#else
    return ref / MCUPROF_ARC_WORDS;
#endif
}

/* No call can return to FROMPC: it is 0, or not a return address of the
 * port's form, or it lies in the profiled code (the histogram's ranges)
 * where no call instruction ends. A kernel starts a task that way, with a
 * return address of its own choosing in the link register (FreeRTOS: its
 * task-exit function on Cortex-M; on RISC-V 0, or the task function itself
 * for the first task): an arc from there would be a call that no code
 * made, charged to whatever function lies before. Such an entry is left
 * without a caller, as gprof shows a thread's start. Outside the ranges
 * (a library, ROM) a caller cannot be read, and the arc is kept. Only a
 * new arc asks: once per task start. */
MCUPROF_NOINSTR static int no_call_returns_to(uintptr_t frompc)
{
#ifndef MCUPROF_PORT_CALL_INSN_BYTES
    (void)frompc; /* a port that cannot read its code (the host's, for tests) */
    return 0;
#else
    if (frompc == 0u || (frompc & 1u) != MCUPROF_PORT_RETURN_BIT0)
        return 1;
    uintptr_t pc = frompc - MCUPROF_PORT_RETURN_BIT0;
    uintptr_t lo0 = MCUPROF_SYM(__mcuprof_range0_low), lo1 = MCUPROF_SYM(__mcuprof_range1_low);
    if ((pc - lo0 >= MCUPROF_PORT_CALL_INSN_BYTES && pc - lo0 <= MCUPROF_SYM(__mcuprof_range0_size)) ||
        (pc - lo1 >= MCUPROF_PORT_CALL_INSN_BYTES && pc - lo1 <= MCUPROF_SYM(__mcuprof_range1_size)))
        return !mcuprof_port_called_before(pc);
    return 0;
#endif
}

MCUPROF_NOINSTR void mcuprof_record_arc(uintptr_t frompc, uintptr_t selfpc)
{
    struct mcuprof_header *h = &mcuprof_region.header;
    mcuprof_irq_state_t s = mcuprof_port_irq_save();

    if (slow_path_busy) {
        mcuprof_count_saturating(&h->lost_calls_reentrant);
        goto out;
    }
    slow_path_busy = 1;
    if (!(h->state & MCUPROF_STATE_ARCS_Msk))
        goto done; /* stopped between the hook's check and here */
    if (h->state & MCUPROF_STATE_FROZEN_Msk) {
        /* a host is reading the tables: leave them alone, count the call */
        mcuprof_count_saturating(&h->lost_calls_frozen);
        goto done;
    }

    /* A bucket holds its first record as a word offset, which the fast
     * path needs; links hold record indexes, which are cheaper here (see
     * mcuprof/image.h). */
    uint16_t *head = &mcuprof_region.buckets[bucket_of(frompc)];
    uint16_t *links = mcuprof_region.links;
    uint32_t prev = 0, steps = 0;
    for (uint32_t i = index_of(*head); i != 0; prev = i, i = links[i]) {
        /* A stray write into the image can leave a reference past the
         * table or a cycle: cut the chain there rather than write outside
         * the image or spin with interrupts masked. What is behind the cut
         * stays recorded; its arcs get new records from here on (the host
         * adds duplicate arcs up). */
        if (i > h->arcs_used || i > MCUPROF_CFG_ARCS || ++steps > MCUPROF_CFG_ARCS) {
            mcuprof_count_saturating(&h->arc_table_repairs);
            if (prev != 0)
                links[prev] = 0;
            else
                *head = 0;
            break;
        }
        mcuprof_arc_t *a = &mcuprof_region.arcs[i];
        if (a->frompc != frompc || a->selfpc != selfpc)
            continue;
        mcuprof_port_count_inc(&a->count);
        if (prev != 0) {
            /* Move to the front, so that the next call of this arc takes
             * the fast path (a call site that alternates between callees
             * keeps paying the walk; that is the price of a small table). */
            links[prev] = links[i];
            links[i] = (uint16_t)index_of(*head);
            *head = (uint16_t)(i * MCUPROF_ARC_WORDS);
        }
        goto done;
    }

    if (no_call_returns_to(frompc))
        goto done;
    if (h->arcs_used >= MCUPROF_CFG_ARCS) {
        /* Full: count the call, never overwrite what is recorded. */
        mcuprof_count_saturating(&h->lost_arcs_table_full);
        goto done;
    }
    uint16_t n = (uint16_t)(h->arcs_used + 1u);
    mcuprof_arc_t *a = &mcuprof_region.arcs[n];
    a->frompc = frompc;
    a->selfpc = selfpc;
    a->count = 1;
    links[n] = (uint16_t)index_of(*head);
    /* The record is complete before anything can reach it. */
    mcuprof_port_barrier();
    *head = (uint16_t)(n * MCUPROF_ARC_WORDS);
    h->arcs_used = n;

done:
    slow_path_busy = 0;
out:
    mcuprof_port_irq_restore(s);
}

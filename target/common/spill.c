/*
 * spill.c - the carries of histogram bins that pass 65,535 (spill.h).
 */
#include "spill.h"
#include "mcuprof_layout.h"
#include "mcuprof_port.h"
#include "mcuprof_symbols.h"

#if MCUPROF_CFG_SPILL > 0
/* The entry of the bin at byte offset OFF, made if new; 0 if the table is
 * full. Entries are only ever added, in the order bins first wrapped, and
 * removed all at once by a reset or a host's drain. */
MCUPROF_NOINSTR static struct mcuprof_spill *spill_entry(uint32_t off)
{
    struct mcuprof_ext *e = &mcuprof_region.spill_ext;
    struct mcuprof_spill *s = mcuprof_region.spills;
    uint32_t used = e->used;
    if (used > MCUPROF_CFG_SPILL) /* a stray write: trust only the capacity */
        used = MCUPROF_CFG_SPILL;
    for (uint32_t i = 0; i < used; i++)
        if (s[i].bin_offset == off)
            return &s[i];
    if (used == MCUPROF_CFG_SPILL)
        return 0;
    s[used].bin_offset = off;
    s[used].carries = 0;
    mcuprof_port_barrier(); /* a host reading the table sees the entry before it is counted as used */
    e->used = used + 1u;
    return &s[used];
}
#endif

/* With interrupts masked: firmware that feeds samples itself
 * (mcuprof_sample_pc) may do so at more than one priority, and a nested
 * call must not make a second entry for the same bin. */
MCUPROF_NOINSTR void mcuprof_spill_add(uint16_t *bin, uint32_t n)
{
    struct mcuprof_header *h = &mcuprof_region.header;
    mcuprof_irq_state_t irq = mcuprof_port_irq_save();
    uint64_t total = (uint64_t)*bin + n;
    if (total <= 0xFFFFu) {
        *bin = (uint16_t)total;
        goto out;
    }
#if MCUPROF_CFG_SPILL > 0
    uint32_t off = (uint32_t)((uintptr_t)bin - (uintptr_t)&mcuprof_region);
    struct mcuprof_spill *s = spill_entry(off);
    if (s) {
        uint64_t carries = (uint64_t)s->carries + (total >> 16);
        if (carries <= UINT32_MAX) {
            s->carries = (uint32_t)carries;
            *bin = (uint16_t)total;
            goto out;
        }
        /* 2^48 samples in one bin: not reachable, but never wrong */
    } else {
        mcuprof_count_add_saturating(&mcuprof_region.spill_ext.lost, total - 0xFFFFu);
    }
#endif
    *bin = 0xFFFFu;
    mcuprof_count_add_saturating(&h->lost_samples_saturated, total - 0xFFFFu);
out:
    mcuprof_port_irq_restore(irq);
}

MCUPROF_NOINSTR void mcuprof_spill_carry(uint16_t *bin)
{
    mcuprof_spill_add(bin, 1u);
}

MCUPROF_NOINSTR uint16_t *mcuprof_bin_of(uintptr_t pc)
{
    uintptr_t shift = MCUPROF_SYM(__mcuprof_bin_shift);
    uintptr_t off = pc - MCUPROF_SYM(__mcuprof_range0_low);
    if (off < MCUPROF_SYM(__mcuprof_range0_size))
        return (uint16_t *)(void *)__mcuprof_hist0 + (off >> shift);
    off = pc - MCUPROF_SYM(__mcuprof_range1_low);
    if (off < MCUPROF_SYM(__mcuprof_range1_size))
        return (uint16_t *)(void *)__mcuprof_hist1 + (off >> shift);
    return 0;
}

MCUPROF_NOINSTR void mcuprof_spill_pc(uintptr_t pc)
{
    uint16_t *bin = mcuprof_bin_of(pc);
    if (bin)
        mcuprof_spill_carry(bin);
}

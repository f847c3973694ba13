/*
 * spill.h - histogram bins that pass 65,535 (the spill table,
 * MCUPROF_EXT_SPILL in mcuprof/image.h). A 16-bit bin wraps to 0 and its
 * spill entry counts the carry, so a bin's true count is carries * 65536
 * plus its value. Only the wrap calls in here: the sample's common path
 * (sample_body.h) is an increment and a compare, as without the table.
 */
#ifndef MCUPROF_SPILL_H
#define MCUPROF_SPILL_H

#include <stdint.h>

/* Add n (at least 1) to *bin when *bin + n passes 65,535: the bin keeps
 * the low 16 bits and its entry (made when new) the carries. With the
 * table full, or an entry at its maximum, the bin stays at 65,535 and
 * what did not fit is counted in lost_samples_saturated and in the
 * table's lost. It masks interrupts while it runs, so a nested sample
 * cannot make a second entry for a bin; a host changes the table only
 * while the image is frozen, when no sample is counted. */
void mcuprof_spill_add(uint16_t *bin, uint32_t n);

/* One sample into a bin that holds 65,535 (sample_body.h): by the bin's
 * address, or by the sampled PC (which must lie in a profiled range). */
void mcuprof_spill_carry(uint16_t *bin);
void mcuprof_spill_pc(uintptr_t pc);

/* The bin of PC as mcuprof_sample_bin() finds it inline (sample_body.h),
 * for the rare paths; 0 outside every range. */
uint16_t *mcuprof_bin_of(uintptr_t pc);

#endif /* MCUPROF_SPILL_H */

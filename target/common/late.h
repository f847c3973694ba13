/*
 * late.h - samples the sampler took late (late.c): charged where
 * interrupts came back on, or counted as held off by a handler; and the
 * table of interrupts the sampler cannot preempt.
 */
#ifndef MCUPROF_LATE_H
#define MCUPROF_LATE_H

#include <stdint.h>

#include "mcuprof_port.h"

/* The sampler starts with this deferral threshold (timer ticks): set the
 * timing flags, look for blockers once. */
void mcuprof_late_start(uint32_t threshold);

/* A sample at PC that came at least the threshold late, MISSED whole
 * periods after the one it was due in. Counts the deferral or the missed
 * periods; charges them to PC's bin when the code before PC masked
 * interrupts (returns 0: count the sample as usual), or counts the sample
 * as held off (returns 1: it is counted in samples_taken already and must
 * not be binned). */
int mcuprof_late_sample(uintptr_t pc, uint64_t missed);

/* A sample the architecture knows belongs to the handler at PC that held
 * the sampler off (RISC-V: a trap handler run by the runtime's trap entry
 * with interrupts masked, checked when it returns): counted and charged
 * to PC like a sample after unmasking, the caller then samples PC. */
void mcuprof_late_handler(uintptr_t pc, uint64_t missed);

/* Look for blockers now (mcuprof_port_scan_blockers), counting the look. */
void mcuprof_blockers_scan(void);

/* For the architecture's look: interrupt SOURCE (MCUPROF_CTX_* key) was
 * found enabled at PRIORITY, the sampler at SAMPLER_PRIORITY; BLOCKING if
 * the sampler cannot preempt it. An interrupt never seen blocking gets no
 * entry; one seen blocking and later not is flagged as changed. */
void mcuprof_blocker_seen(uint32_t source, uint32_t priority, uint32_t sampler_priority, int blocking);

/* The architecture's part (its port file): read which interrupts are
 * enabled and at what priority, and report each with
 * mcuprof_blocker_seen(). */
void mcuprof_port_scan_blockers(void);

#endif /* MCUPROF_LATE_H */

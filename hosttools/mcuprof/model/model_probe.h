/*
 * model_probe.h - a profile model from PCs sampled by a debug probe
 * (`mcuprof sample`): a histogram over the firmware's code ranges
 * (elf_code.h) in place of the target's own, and the arcs the target
 * counted during the sampling window (the image at its end minus the
 * image at its start).
 */
#ifndef MCUPROF_MODEL_PROBE_H
#define MCUPROF_MODEL_PROBE_H

#include <stddef.h>
#include <stdint.h>

#include "elf_code.h"
#include "model.h"

/* 2-byte bins: every instruction of Thumb and of compressed RISC-V code
 * starts on its own bin, so no bin holds two functions and gprof never
 * splits one by bytes. They cost host memory only. */
#define MP_PROBE_BIN_SHIFT 1u
/* Coarser bins where the code spans more than this many 2-byte bins. */
#define MP_PROBE_BINS_MAX (16u << 20)

/* Replace M's histogram (and everything its own sampler counted: loss
 * counters, timing, contexts, tasks, paths) with empty bins over the N
 * code RANGES, RATE_HZ the rate the samples were taken at. The arcs and
 * the call counters stay. */
int mp_model_probe_ranges(struct mp_model *m, const struct mp_code_range *ranges, size_t n, uint32_t rate_hz);

/* Count the sampled PC: 1 binned, 0 outside every range (counted in
 * lost_samples_out_of_range, as the target's sampler counts its own). */
int mp_model_probe_add(struct mp_model *m, uint64_t pc);

/* The arcs of END minus those of START (matched by call site and
 * callee), and the call loss counters likewise: the calls made between
 * the two images. Returns 0, or 1 when some count went down (the target
 * was reset, or drained, in between): END is then left as it is. */
int mp_model_arcs_since(struct mp_model *end, const struct mp_model *start);

#endif /* MCUPROF_MODEL_PROBE_H */

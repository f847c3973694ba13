/*
 * sampler.c - count one PC sample into the histogram, as a function: for
 * firmware that drives its own timer. The runtime's own timer interrupts
 * inline the same code (sample_body.h).
 */
#include "mcuprof.h"
#include "sample_body.h"

MCUPROF_NOINSTR void mcuprof_sample_pc(uintptr_t pc)
{
    mcuprof_freeze_poll(pc);
    mcuprof_sample_body(pc);
}

/*
 * sampler.c - count one PC sample into the histogram, as a function: for
 * firmware that drives its own timer. The runtime's own timer interrupts
 * inline the same code (sample_body.h).
 */
#include "mcuprof.h"
#include "sample_body.h"

MCUPROF_NOINSTR void mcuprof_sample_pc_in(uintptr_t pc, uint32_t context)
{
    mcuprof_freeze_poll(pc);
    if (mcuprof_sample_body(pc, context))
        mcuprof_task_resolve();
}

MCUPROF_NOINSTR void mcuprof_sample_pc(uintptr_t pc)
{
    mcuprof_sample_pc_in(pc, MCUPROF_CTX_THREAD);
}

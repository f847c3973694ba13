/*
 * sampler.c - count one PC sample into the histogram, as a function: for
 * firmware that drives its own timer. The runtime's own timer interrupts
 * inline the same code (sample_body.h).
 */
#include "mcuprof.h"
#include "sample_body.h"
#include "paths.h"

MCUPROF_NOINSTR void mcuprof_sample_pc_in(uintptr_t pc, uint32_t context)
{
    mcuprof_freeze_poll(pc);
    if (mcuprof_sample_body(pc, context))
        mcuprof_task_resolve();
#if MCUPROF_CFG_PATHS > 0
    /* The interrupted sp, if a trap entry left it; else this frame's, which
     * lies below it on the same stack (paths.h). */
    mcuprof_path_sample(mcuprof_path_take_sp((uintptr_t)__builtin_frame_address(0)), mcuprof_port_stack_id(), 0,
                        MCUPROF_PATH_ACT_UNKNOWN);
#endif
}

MCUPROF_NOINSTR void mcuprof_sample_pc(uintptr_t pc)
{
    mcuprof_sample_pc_in(pc, MCUPROF_CTX_THREAD);
}

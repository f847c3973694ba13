/*
 * hook_mode.c - what the call hook does on each call.
 *
 * Every architecture's hook (__gnu_mcount_nc, _mcount) starts by jumping
 * through mcuprof_hook_dispatch to one of its three entry points:
 *   mcuprof_hook_off     return at once (profiling stopped)
 *   mcuprof_hook_record  the fast path: bump the arc at the head of its
 *                        chain, or go to mcuprof_record_arc()
 *   mcuprof_hook_slow    always mcuprof_record_arc(), which counts the call
 *                        as lost while a host snapshot is in progress
 *   mcuprof_hook_paths   (call-path builds, instead of the two above)
 *                        mcuprof_path_enter(), which keeps the shadow stack
 *                        and counts the arc as the other two would
 * One load and a jump decide, which is cheaper than loading and testing a
 * flag. mcuprof_hook_span holds where the hook's code begins and ends,
 * so the freeze logic can tell whether a tick interrupted it.
 */
#include "mcuprof_port.h"
#include "paths.h"

void mcuprof_hook_off(void);
void mcuprof_hook_record(void);
void mcuprof_hook_slow(void);
#if MCUPROF_CFG_PATHS > 0
void mcuprof_hook_paths(void);
#endif
extern const uintptr_t mcuprof_hook_span[2]; /* [begin, end) of the hook's code */

/* In .data so it is valid as soon as the C runtime has set up RAM; code
 * that runs before that must not be built with -pg. */
void (*volatile mcuprof_hook_dispatch)(void) = mcuprof_hook_off;

MCUPROF_NOINSTR void mcuprof_hook_set_mode(enum mcuprof_hook_mode mode)
{
#if MCUPROF_CFG_PATHS > 0
    /* Call paths: one entry point while calls are recorded, frozen or not
     * (it keeps the shadow stack, and counts the arc or the lost call as
     * the state says), so the stack follows every call. Starting to
     * record, it knows no frame yet. Called with interrupts masked. */
    if (mode != MCUPROF_HOOK_OFF) {
        if (mcuprof_hook_dispatch == mcuprof_hook_off)
            mcuprof_paths_restart();
        mcuprof_hook_dispatch = mcuprof_hook_paths;
    } else {
        mcuprof_hook_dispatch = mcuprof_hook_off;
    }
#else
    mcuprof_hook_dispatch = mode == MCUPROF_HOOK_RECORD ? mcuprof_hook_record
                            : mode == MCUPROF_HOOK_SLOW ? mcuprof_hook_slow
                                                        : mcuprof_hook_off;
#endif
    mcuprof_port_barrier();
}

MCUPROF_NOINSTR int mcuprof_pc_in_hook(uintptr_t pc)
{
    return pc - mcuprof_hook_span[0] < mcuprof_hook_span[1] - mcuprof_hook_span[0];
}

/*
 * port.c - RISC-V: switching the call hook (mcount.S).
 */
#include "mcuprof_port.h"

/* Entry points and bounds of the hook. */
void mcuprof_hook_off(void);
void mcuprof_hook_record(void);
void mcuprof_hook_slow(void);
extern const char mcuprof_hook_begin[], mcuprof_hook_end[];

/* _mcount jumps through this pointer: a load and a jump decide between
 * "record" and "return at once", as cheap as testing a flag, and a third
 * mode costs nothing more. In .data so it is valid as soon as the C
 * runtime has set up RAM; code that runs before that must not be built
 * with -pg. */
void (*volatile mcuprof_hook_dispatch)(void) = mcuprof_hook_off;

MCUPROF_NOINSTR void mcuprof_port_hook_mode(enum mcuprof_hook_mode mode)
{
    mcuprof_hook_dispatch = mode == MCUPROF_HOOK_RECORD ? mcuprof_hook_record
                            : mode == MCUPROF_HOOK_SLOW ? mcuprof_hook_slow
                                                        : mcuprof_hook_off;
    mcuprof_port_barrier();
}

MCUPROF_NOINSTR int mcuprof_port_pc_in_hook(uintptr_t pc)
{
    return pc - (uintptr_t)mcuprof_hook_begin < (uintptr_t)(mcuprof_hook_end - mcuprof_hook_begin);
}

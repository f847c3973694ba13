/*
 * paths.h - call paths (MCUPROF_CFG_PATHS > 0): what the call hooks, the
 * samplers and the control code call. The shadow stack is kept in
 * shadow_stack.c (with return_scan.h) and task_stacks.c, the sampler's
 * path table in path_table.c. Nothing here exists in a build without
 * paths.
 */
#ifndef MCUPROF_PATHS_H
#define MCUPROF_PATHS_H

#include <stdint.h>

#include "mcuprof_config.h"

#if MCUPROF_CFG_PATHS > 0
/* From the hook's mcuprof_hook_paths entry, before the arc is counted: a
 * profiled function was entered. SELFPC is the hook's return address in
 * it, SP its stack pointer after its prologue (before GCC's `push {lr}`
 * on ARM), FROMPC its return address. Returns FROMPC, so that the hook
 * need not keep a copy of it on the stack (return_scan.h looks for return
 * addresses in stack memory). */
uintptr_t mcuprof_path_enter(uintptr_t selfpc, uintptr_t sp, uintptr_t frompc);

/* From the sampler, after the sample is counted: count the path that was
 * live. SP is the interrupted code's stack pointer (any lower address of
 * the same stack when it is not known, which makes the path less exact,
 * never wrong by more than what the frames' contents tell); STACK is
 * mcuprof_port_stack_id() of the interrupted code; LR (ARM) the
 * interrupted code's lr, 0 when not known. Not re-entrant: one sampler. */
void mcuprof_path_sample(uintptr_t sp, uint32_t stack, uintptr_t lr);

/* A trap handler that knows the interrupted stack pointer leaves it here
 * for the sample it is about to take (RISC-V: mcuprof_mtimer_trap before
 * its calls, mcuprof_mtimer_isr_sp); the sampler takes it and sets it
 * back to 0. */
extern volatile uintptr_t mcuprof_path_trap_sp;

/* The trap entry's stack pointer if one was left, else HERE (an address in
 * the sampler's own frame, below the interrupted code's). */
uintptr_t mcuprof_path_take_sp(uintptr_t here);

/* Recording starts (the hook leaves mode off, interrupts masked): the
 * shadow stack starts empty, or with the root set below. */
void mcuprof_paths_restart(void);

/* mcuprof_init(): forget every path and the index. */
void mcuprof_paths_init(void);

/* mcuprof_reset(): zero the counts, keep the paths. */
void mcuprof_paths_reset(void);

/* The public entry points that start recording (mcuprof_start, moncontrol,
 * the resume after mcuprof_write_semihosting) name the function that
 * called them as the root of the next restart: ROOT_PC an address in it
 * (their return address), ROOT_SP its stack pointer (their CFA); ROOT_SP
 * 0: no root (autostart). The first call wins until
 * mcuprof_paths_clear_root(), so an entry point that calls another keeps
 * its own caller. */
void mcuprof_paths_set_root(uintptr_t root_pc, uintptr_t root_sp);
void mcuprof_paths_clear_root(void);

#if MCUPROF_CFG_PATH_TASKS > 0
/* The task HANDLE was created and has not run: its stack starts empty and
 * its paths whole (mcuprof_task_created); it was deleted: its kept stack
 * is freed (tasks.c, interrupts masked). */
void mcuprof_paths_task_new(uintptr_t handle);
void mcuprof_paths_task_gone(uintptr_t handle);
#endif
#endif

#endif /* MCUPROF_PATHS_H */

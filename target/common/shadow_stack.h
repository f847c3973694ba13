/*
 * shadow_stack.h - the shadow stack of exact call paths (MCUPROF_CFG_PATHS
 * > 0): its frames and its state, and the tests on a frame that every
 * part of the call paths makes, inline. The hook keeps the stack
 * (shadow_stack.c, with return_scan.h), a task switch swaps it
 * (task_stacks.c), the sampler counts the path it holds (path_table.c).
 * docs/paths.md has the design and its limits.
 *
 * The hook sees every profiled function enter, never return. Each frame of
 * the shadow stack keeps what later tells whether it is still live:
 *   sp      the function's stack pointer after its prologue (GCC calls the
 *           hook after the prologue on ARM and RISC-V alike);
 *   top     the top of its frame, which is its caller's sp, once known (0
 *           until then);
 *   frompc  its return address. GCC saves it at the top of the frame of
 *           every function that calls (ARM `push {..., lr}` comes first,
 *           RISC-V keeps ra in the highest slot), where it stays until the
 *           function returns.
 * A frame is dead once the stack pointer has risen above it, or once the
 * word under its top has been overwritten.
 */
#ifndef MCUPROF_SHADOW_STACK_H
#define MCUPROF_SHADOW_STACK_H

#include <stdint.h>

#include "mcuprof_config.h"
#include "mcuprof_port.h"
#include "sample_context.h"

#if MCUPROF_CFG_PATHS > 0

#define MCUPROF_SHADOW_DEPTH ((uint32_t)MCUPROF_CFG_PATH_DEPTH)
#define MCUPROF_SHADOW_PTR ((uintptr_t)sizeof(uintptr_t))

struct mcuprof_path_entry; /* mcuprof_layout.h */

struct mcuprof_frame {
    uintptr_t selfpc; /* the frame in a path: the hook's return address */
    uintptr_t frompc; /* its return address */
    uintptr_t sp;     /* its sp after its prologue */
    uintptr_t top;    /* the top of its frame (its caller's sp); 0: unknown */
#if MCUPROF_PORT_STACKS > 1
    uint32_t stack; /* mcuprof_port_stack_id() when it was entered */
#endif
    /* The sampler's: the path table entry of the last path sampled with a
     * callee of this frame innermost (this frame, those below it and the
     * callee), 0 when none yet. A push writes 0 (path_sample.h). */
    struct mcuprof_path_entry *child;
};

/* The stack's state besides its frames: the bytes first, within the
 * short reach of an ARMv6-M byte load from its address. Defined next to
 * the frames (shadow_stack.c), so that a compiler with section anchors
 * reaches both from one base address. */
struct mcuprof_shadow_stack {
    /* frames[0] is the root (the function that started recording): it
     * stays when a full stack drops its outermost frames, so that paths
     * are whole again once the deep calls have returned. */
    uint8_t rooted;
    uint8_t cut;  /* a task switch emptied the stack (MCUPROF_PATH_CUT) */
    uint8_t busy; /* mcuprof_path_enter() runs (an NMI that calls profiled code) */
    uint32_t depth;
    /* Not 0: outermost frames were dropped (the stack overflowed); this is
     * the sp of the first one dropped, the outermost, so its paths are
     * TRUNCATED until it has returned. */
    uintptr_t truncated_sp;
#if MCUPROF_CFG_TASKS > 0
    uintptr_t owner; /* the task whose frames the stack holds */
#endif
};
extern struct mcuprof_shadow_stack mcuprof_shadow;
/* The frames, outermost first */
extern struct mcuprof_frame mcuprof_shadow_frames[MCUPROF_SHADOW_DEPTH];

MCUPROF_NOINSTR __attribute__((always_inline)) static inline struct mcuprof_frame *frame_at(uint32_t i)
{
    return &mcuprof_shadow_frames[i];
}

MCUPROF_NOINSTR __attribute__((always_inline)) static inline uintptr_t stack_word(uintptr_t address)
{
    return *(const volatile uintptr_t *)address;
}

/* Its top is known and the word under it no longer holds its return
 * address: something later has written over its frame, it has returned.
 * (A frame without a frame of its own, top == sp, tells nothing.) */
MCUPROF_NOINSTR __attribute__((always_inline)) static inline int frame_overwritten(const struct mcuprof_frame *f)
{
    return f->top != 0u && f->top != f->sp && stack_word(f->top - MCUPROF_SHADOW_PTR) != f->frompc;
}

/* Known to be live: its top is known and the word under it still holds
 * its return address. */
MCUPROF_NOINSTR __attribute__((always_inline)) static inline int frame_intact(const struct mcuprof_frame *f)
{
    return f->top != 0u && f->top != f->sp && stack_word(f->top - MCUPROF_SHADOW_PTR) == f->frompc;
}

/* The frame was entered on STACK (mcuprof_port_stack_id()). */
MCUPROF_NOINSTR __attribute__((always_inline)) static inline uint32_t frame_on_stack(const struct mcuprof_frame *f,
                                                                                     uint32_t stack)
{
#if MCUPROF_PORT_STACKS > 1
    return f->stack == stack;
#else
    (void)f;
    (void)stack;
    return 1u;
#endif
}

#if MCUPROF_CFG_TASKS > 0
/* Another task than the stack's owner runs (task_stacks.c): keep the
 * frames for when their task runs again, and take the new one's, or
 * empty the stack. */
void mcuprof_shadow_switch_task(uintptr_t task);
#if MCUPROF_CFG_PATH_TASKS > 0
/* Forget every task's kept frames (task_stacks.c). */
void mcuprof_shadow_forget_tasks(void);
#endif

/* With a watched RTOS, the frames belong to one task: when another runs,
 * they say nothing about it. */
MCUPROF_NOINSTR __attribute__((always_inline)) static inline void shadow_check_task(void)
{
    void *const volatile *current = mcuprof_task_watch.current;
    if (!current)
        return;
    uintptr_t task = (uintptr_t)*current;
    if (task != mcuprof_shadow.owner)
        mcuprof_shadow_switch_task(task);
}
#else
#define shadow_check_task() ((void)0)
#endif

#endif /* MCUPROF_CFG_PATHS > 0 */

#endif /* MCUPROF_SHADOW_STACK_H */

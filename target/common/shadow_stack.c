/*
 * shadow_stack.c - the shadow stack of call paths (MCUPROF_CFG_PATHS > 0),
 * kept by the call hook: on every call, drop the frames that have
 * returned, find the new function's caller, push its frame, and count the
 * arc. The frames and what each tells are in shadow_stack.h.
 *
 * A new call (selfpc, sp, frompc) finds its caller as the frame whose sp
 * is the top of the new function's frame: the word under that sp is
 * frompc, which the new function has just saved there. Frames above the
 * caller have returned. That is the whole rule on a port where every
 * profiled function has a frame of its own (MCUPROF_PORT_FRAMELESS 0:
 * RISC-V, whose _mcount is an ordinary call). Where a leaf that saves
 * nothing has no frame and shares its caller's sp (MCUPROF_PORT_FRAMELESS
 * 1: ARM), only the first of a run of frames with one sp can be a caller,
 * and a new function whose sp equals its caller's was called by the first
 * of the run.
 */
#include "mcuprof.h"
#include "mcuprof_layout.h"
#include "mcuprof_port.h"
#include "paths.h"
#include "return_scan.h"
#include "sample_context.h"
#include "shadow_stack.h"

#if MCUPROF_CFG_PATHS > 0

struct mcuprof_shadow_stack mcuprof_shadow;
struct mcuprof_frame mcuprof_shadow_frames[MCUPROF_SHADOW_DEPTH];
static uintptr_t root_pc, root_sp;
static uint8_t root_set;

/* A frame whose sp is SP_FRAME is dead when a function with sp SP is
 * entered (or interrupted) on the same stack: it lies wholly below. On
 * RISC-V a function with the same sp has returned too: the caller's sp is
 * always above its callee's. */
MCUPROF_NOINSTR __attribute__((always_inline)) static inline int below(uintptr_t sp_frame, uintptr_t sp)
{
    return MCUPROF_PORT_FRAMELESS ? sp_frame < sp : sp_frame <= sp;
}

/* Returned for certain when the function SELFPC is entered with SP: the
 * frame lies wholly below (a callee its caller made before), or it is an
 * earlier call of the same function at the same sp. */
MCUPROF_NOINSTR __attribute__((always_inline)) static inline int returned(const struct mcuprof_frame *f,
                                                                         uintptr_t selfpc, uintptr_t sp)
{
    return below(f->sp, sp) || (f->sp == sp && f->selfpc == selfpc);
}

/* The call's arc, as the hook's record path counts it: a hit at the head
 * of its bucket's chain here, with interrupts masked (a handler cannot
 * undo the increment, and a fast path it interrupted, LDREX/STREX or
 * LR/SC, retries), so that a tick never splits the state check from the
 * count. Returns 0 when mcuprof_record_arc() must count it (a chain to
 * walk, a new arc, a host snapshot in progress, recording stopped).
 * Counted here rather than by the assembly fast path so that the hook's
 * exit can leave selfpc, not frompc, in the word GCC pushed (see the
 * hooks). */
MCUPROF_NOINSTR __attribute__((always_inline)) static inline int count_arc(uintptr_t selfpc, uintptr_t frompc)
{
    const uint32_t state = mcuprof_region.header.state;
    if ((state & (MCUPROF_STATE_ARCS_Msk | MCUPROF_STATE_FROZEN_Msk)) != MCUPROF_STATE_ARCS_Msk)
        return 0;
    uint32_t ref = mcuprof_region.buckets[(frompc >> MCUPROF_PORT_HASH_SHIFT) & (MCUPROF_BUCKETS - 1u)];
    mcuprof_arc_t *a = (mcuprof_arc_t *)(void *)((uint8_t *)mcuprof_region.arcs + ((uintptr_t)ref << 2));
    /* record 0 has frompc 0: never a hit */
    if (a->frompc != frompc || a->selfpc != selfpc)
        return 0;
    if (a->count != UINT32_MAX)
        a->count++;
    return 1;
}

/* The new function (SELFPC, FROMPC), which has a frame, saved its return
 * address under F's sp: F is its caller. The hooks leave selfpc, never a
 * return address, in the word under a function's sp, but other copies of
 * return addresses lie about in free stack: an exception entry stacks
 * the interrupted lr, which holds the return address of the last call
 * (when it comes just after that call returned) or of the new function
 * itself (when it comes during its prologue). So a frame is taken for the
 * caller only if it can be: it is not an earlier call from the new call's
 * own call site (unless the same function: recursion), and, where its top
 * is known, its own return address is still in place under it. */
MCUPROF_NOINSTR __attribute__((always_inline)) static inline int returns_to(const struct mcuprof_frame *f,
                                                                           uintptr_t selfpc, uintptr_t frompc)
{
    return stack_word(f->sp - MCUPROF_SHADOW_PTR) == frompc && (f->frompc != frompc || f->selfpc == selfpc) &&
           (f->top == 0u || frame_intact(f));
}

/* A frame with the new function's own sp (ARM) is its caller, and the
 * new function has no frame, when the frame is live and is not an earlier
 * call of the same function, nor a call from the same call site: those
 * are calls that have returned (whose return address the new call has
 * just saved again, in the same place). */
MCUPROF_NOINSTR __attribute__((always_inline)) static inline int may_call(const struct mcuprof_frame *f,
                                                                         uintptr_t selfpc, uintptr_t frompc)
{
    return f->selfpc != selfpc && f->frompc != frompc && frame_intact(f);
}

/* The general case of a new call (selfpc, sp, frompc) on STACK, whose
 * frames above K have returned for certain: find its caller and the top
 * of its frame (0: unknown), and leave in *K the frames that stay. */
MCUPROF_NOINSTR __attribute__((noinline)) static uintptr_t find_caller(uint32_t *kp, uintptr_t selfpc, uintptr_t sp,
                                                                      uintptr_t frompc, uint32_t stack)
{
    uint32_t k = *kp;
    /* [run, k): frames with the new function's own sp. Only a function
     * without a frame shares its caller's sp (ARM), so of these only the
     * first can be live (the others are leaves that returned), and only as
     * the caller of a new function that has no frame either. */
    uint32_t run = k;
    while (MCUPROF_PORT_FRAMELESS && run && frame_on_stack(frame_at(run - 1u), stack) &&
           frame_at(run - 1u)->sp == sp)
        run--;
    int keep_first = 0;
    if (run < k) {
        const struct mcuprof_frame *b = frame_at(run);
        if (may_call(b, selfpc, frompc)) {
            *kp = run + 1u; /* live: the caller, and the new function has no frame */
            return sp;
        }
        /* not the caller if it is the same function, or was called from
         * the same call site, or has no frame itself, or has returned;
         * else perhaps (its top is unknown) */
        keep_first = b->selfpc != selfpc && b->frompc != frompc && b->top == 0u &&
                     frameless_callee(b, selfpc, sp, frompc);
        k = run;
    }

    /* The caller of a function with a frame: the word under its sp is the
     * new function's saved return address (see returns_to). */
    for (uint32_t i = k; i-- > 0u;) {
        const struct mcuprof_frame *t = frame_at(i);
        if (!frame_on_stack(t, stack))
            break; /* an interrupted task's frames: the caller is not below */
        if (returns_to(t, selfpc, frompc)) {
            /* frames with t's sp above the first of them have no frame
             * of their own: they are leaves that returned */
            while (i && frame_at(i - 1u)->sp == t->sp && frame_on_stack(frame_at(i - 1u), stack))
                i--;
            *kp = i + 1u;
            return frame_at(i)->sp;
        }
        /* (A return address still in place under a frame's top does not
         * prove that frame live: a larger frame that replaced it may not
         * have written that word yet. So the search goes on down.) */
    }
    if (keep_first) {
        /* no caller found below: take the first frame with the new
         * function's sp for its caller, the new function for one without
         * a frame */
        *kp = run + 1u;
        return sp;
    }
    /* the caller is not known: keep what is not known to have returned */
    /* A frame whose extent is not known (its caller unknown, or it has no
     * frame of its own) may have returned without a trace: the new
     * function's own frame may tell. Not for the root, live until a call
     * above it (and which a loop of calls from code without the hook
     * would otherwise pay for at every call). The first function on its
     * stack (a task's, a handler's over a task) has no caller to tell its
     * top: its own frame tells, and later whether it is live under a
     * callee without a frame, or has returned. */
    const struct mcuprof_frame *t = k ? frame_at(k - 1u) : 0;
    uintptr_t top = !t || !frame_on_stack(t, stack) || (t->frompc != 0u && (t->top == 0u || t->top == t->sp))
                        ? own_top(selfpc, sp, frompc)
                        : 0u;
    while (k && frame_on_stack(frame_at(k - 1u), stack) &&
           (frame_overwritten(frame_at(k - 1u)) || frame_at(k - 1u)->sp < top))
        k--;
    *kp = k;
    return top; /* its caller's sp, if its frame told */
}

/* Push the new call's frame above the K frames that stay; TOP is the top
 * of its frame (0: unknown). */
MCUPROF_NOINSTR __attribute__((always_inline)) static inline void push(uint32_t k, uintptr_t selfpc,
                                                                      uintptr_t sp, uintptr_t frompc,
                                                                      uintptr_t top, uint32_t stack)
{
    struct mcuprof_shadow_stack *s = &mcuprof_shadow;
    struct mcuprof_frame *f = frame_at(k);
    f->selfpc = selfpc;
    f->frompc = frompc;
    f->sp = sp;
    f->top = top;
#if MCUPROF_PORT_STACKS > 1
    f->stack = stack;
#else
    (void)stack;
#endif
    f->child = 0; /* no callee sampled yet */
    /* the frame is whole before the depth counts it (an NMI sampler) */
    __asm__ volatile("" ::: "memory");
    s->depth = k + 1u;
}

/* The arc is not a hit at the head of its chain: mcuprof_record_arc()
 * counts it, with interrupts masked by itself. */
MCUPROF_NOINSTR __attribute__((noinline)) static uintptr_t record_arc(uintptr_t selfpc, uintptr_t frompc)
{
    mcuprof_record_arc(frompc, selfpc);
    return frompc;
}

/* mcuprof_path_enter() past its common cases, interrupts masked (IRQ). */
MCUPROF_NOINSTR __attribute__((noinline)) static uintptr_t enter(uintptr_t selfpc, uintptr_t sp, uintptr_t frompc,
                                                                mcuprof_irq_state_t irq)
{
    struct mcuprof_shadow_stack *s = &mcuprof_shadow;
    if (s->busy)
        goto out; /* an NMI or fault handler interrupted an update: leave it */
    s->busy = 1;
    shadow_check_task();

    uint32_t stack = mcuprof_port_stack_id();
    uint32_t k = s->depth;
#if MCUPROF_PORT_STACKS > 1
    /* On the process stack, frames of the main stack on top are handlers
     * that have returned. Frames of the other stack further down stay as
     * they are, and no stack pointer is compared across stacks: a task's
     * frames under a handler were interrupted, main-stack frames under a
     * task's are code from before its scheduler. */
    while (stack && k && !frame_at(k - 1u)->stack)
        k--;
#endif
    /* The outermost dropped frame has returned once a call is at or above
     * its sp: it had callees, so it had a frame of its own. */
    if (s->truncated_sp && s->truncated_sp <= sp)
        s->truncated_sp = 0;
    while (k && frame_on_stack(frame_at(k - 1u), stack) && returned(frame_at(k - 1u), selfpc, sp))
        k--;
    uintptr_t top = find_caller(&k, selfpc, sp, frompc, stack);
    if (k == 0u)
        s->rooted = 0;
    if (k == MCUPROF_SHADOW_DEPTH) {
        /* full: drop the outermost frame but the root; paths are
         * TRUNCATED until it returns */
        uint32_t first = s->rooted;
        if (!s->truncated_sp)
            s->truncated_sp = frame_at(first)->sp;
        for (uint32_t i = first; i + 1u < k; i++) {
            *frame_at(i) = *frame_at(i + 1u);
            frame_at(i)->child = 0; /* its callee's path is another now */
        }
        k--;
    }
    push(k, selfpc, sp, frompc, top, stack);
    s->busy = 0;
out:;
    int counted = count_arc(selfpc, frompc);
    mcuprof_port_irq_restore(irq);
    if (!counted)
        mcuprof_record_arc(frompc, selfpc);
    return frompc;
}

/* The common cases here, without a call (so without saving registers):
 * after the frames that returned, the top frame is the caller of a
 * function with a frame, which saved its return address under the
 * caller's sp; or (ARM) a live frame with the new function's own sp, the
 * caller of a function without a frame, under at most one leaf that
 * returned. Everything else, enter(). */
MCUPROF_NOINSTR uintptr_t mcuprof_path_enter(uintptr_t selfpc, uintptr_t sp, uintptr_t frompc)
{
    struct mcuprof_shadow_stack *s = &mcuprof_shadow;
    mcuprof_irq_state_t irq = mcuprof_port_irq_save();
#if MCUPROF_CFG_TASKS > 0
    if (mcuprof_task_watch.current && (uintptr_t)*mcuprof_task_watch.current != s->owner)
        return enter(selfpc, sp, frompc, irq);
#endif
    uint32_t k = s->depth;
    uint32_t stack = mcuprof_port_stack_id();
    if (s->busy || s->truncated_sp || k == 0u)
        return enter(selfpc, sp, frompc, irq);
    const struct mcuprof_frame *t = frame_at(k - 1u);
    while (frame_on_stack(t, stack) && returned(t, selfpc, sp)) {
        if (--k == 0u)
            return enter(selfpc, sp, frompc, irq);
        t--;
    }
    if (!frame_on_stack(t, stack) || k == MCUPROF_SHADOW_DEPTH)
        return enter(selfpc, sp, frompc, irq);
    uintptr_t top;
    if (t->sp != sp) {
        if (!returns_to(t, selfpc, frompc) || (k > 1u && t[-1].sp == t->sp))
            return enter(selfpc, sp, frompc, irq);
        top = t->sp;
    } else if (MCUPROF_PORT_FRAMELESS && may_call(t, selfpc, frompc)) {
        top = sp;
    } else if (MCUPROF_PORT_FRAMELESS && k > 1u && t[-1].sp == sp && frame_on_stack(&t[-1], stack) &&
               may_call(&t[-1], selfpc, frompc)) {
        k--;
        top = sp;
    } else {
        return enter(selfpc, sp, frompc, irq);
    }
    push(k, selfpc, sp, frompc, top, stack);
    int counted = count_arc(selfpc, frompc);
    mcuprof_port_irq_restore(irq);
    if (!counted)
        return record_arc(selfpc, frompc);
    return frompc;
}

MCUPROF_NOINSTR void mcuprof_paths_set_root(uintptr_t pc, uintptr_t sp)
{
    if (root_set)
        return;
    root_pc = pc;
    root_sp = sp;
    root_set = 1;
}

MCUPROF_NOINSTR void mcuprof_paths_clear_root(void)
{
    root_set = 0;
}

MCUPROF_NOINSTR void mcuprof_paths_restart(void)
{
    struct mcuprof_shadow_stack *s = &mcuprof_shadow;
#if MCUPROF_CFG_PATH_TASKS > 0
    mcuprof_shadow_forget_tasks();
#endif
    s->depth = 0;
    s->rooted = 0;
    s->truncated_sp = 0;
    s->cut = 0;
#if MCUPROF_CFG_TASKS > 0
    s->owner = mcuprof_task_watch.current ? (uintptr_t)*mcuprof_task_watch.current : 0u;
#endif
    if (root_set && root_sp) {
        /* The function that started recording is live, and its callees'
         * frames end at its sp: a frame of its own, at the bottom. Its
         * entry was not seen, so the top of its frame is unknown. */
        struct mcuprof_frame *f = frame_at(0);
        f->selfpc = root_pc;
        f->frompc = 0;
        f->sp = root_sp;
        f->top = 0;
#if MCUPROF_PORT_STACKS > 1
        f->stack = mcuprof_port_stack_id();
#endif
        f->child = 0;
        s->depth = 1;
        s->rooted = 1;
    }
    root_set = 0;
}

#endif

/*
 * return_scan.h - saved return addresses in stack memory, for the shadow
 * stack (MCUPROF_CFG_PATHS > 0) where the frames alone cannot tell a new
 * function's caller: the first word above its sp that can be a return
 * address is the one saved by the innermost function with a frame. What
 * a return address looks like is the port's (MCUPROF_PORT_RETURN_BIT0,
 * mcuprof_port_called_before).
 *
 * Static functions, included by shadow_stack.c alone: find_caller(), on
 * the path of every call from code without the hook, inlines them, where
 * a call into another file would make it save and restore registers.
 */
#ifndef MCUPROF_RETURN_SCAN_H
#define MCUPROF_RETURN_SCAN_H

#include "mcuprof_port.h"
#include "mcuprof_symbols.h"
#include "shadow_stack.h"

#if MCUPROF_CFG_PATHS > 0

#define PTR MCUPROF_SHADOW_PTR

/* Words looked at above a new function's sp for a saved return address. */
#define FRAME_SCAN_WORDS 32u

/* W can be a return address: it points into profiled code (the ranges of
 * the histogram), just after a call instruction. Reading the code there
 * is safe: it lies in the ranges, at least MCUPROF_PORT_CALL_INSN_BYTES
 * in. */
MCUPROF_NOINSTR static int return_address(uintptr_t w)
{
    uintptr_t lo0 = MCUPROF_SYM(__mcuprof_range0_low), lo1 = MCUPROF_SYM(__mcuprof_range1_low);
    if ((w & 1u) != MCUPROF_PORT_RETURN_BIT0)
        return 0;
    uintptr_t pc = w - MCUPROF_PORT_RETURN_BIT0; /* the code address */
    if (!((pc - lo0 >= MCUPROF_PORT_CALL_INSN_BYTES && pc - lo0 <= MCUPROF_SYM(__mcuprof_range0_size)) ||
          (pc - lo1 >= MCUPROF_PORT_CALL_INSN_BYTES && pc - lo1 <= MCUPROF_SYM(__mcuprof_range1_size))))
        return 0;
    return mcuprof_port_called_before(pc);
}

/* The first return address in the words from SP up (at most
 * FRAME_SCAN_WORDS), or the first copy of FROMPC, the new function's own
 * (which need not look like one: a kernel starts a task with a return
 * address of its choosing, an exception entry with EXC_RETURN), and in
 * *AT its address; 0 if none. A function that
 * calls saves its return address at the top of the registers it pushes
 * (ARM `push {..., lr}`, RISC-V's highest slot), so the scan ends in the
 * first frame above SP: the new function's if it has one, else its
 * caller's, which has one as it made a call. Every word read lies there,
 * unless that return address leads out of the profiled code (a caller in
 * ROM, say): then at most FRAME_SCAN_WORDS words above a live sp. */
MCUPROF_NOINSTR __attribute__((noinline)) static uintptr_t first_return_address(uintptr_t sp, uintptr_t frompc,
                                                                               uintptr_t *at)
{
    for (uint32_t i = 0; i < FRAME_SCAN_WORDS; i++) {
        uintptr_t w = stack_word(sp + i * PTR);
        if (w == frompc || return_address(w)) {
            *at = sp + i * PTR;
            return w;
        }
    }
    *at = 0;
    return 0;
}

/* The same for a new function (SELFPC, SP, FROMPC), remembered for the
 * next call: a loop calling one function from code without the hook asks
 * at every call. The same function at the same sp from the same call site
 * has the same frame, and the word found is checked again. */
static struct {
    uintptr_t selfpc, sp, frompc, at, w;
} ra_last;

MCUPROF_NOINSTR __attribute__((always_inline)) static inline uintptr_t
frame_return_address(uintptr_t selfpc, uintptr_t sp, uintptr_t frompc, uintptr_t *at)
{
    if (ra_last.at && ra_last.selfpc == selfpc && ra_last.sp == sp && ra_last.frompc == frompc &&
        stack_word(ra_last.at) == ra_last.w) {
        *at = ra_last.at;
        return ra_last.w;
    }
    uintptr_t w = first_return_address(sp, frompc, at);
    ra_last.selfpc = selfpc;
    ra_last.sp = sp;
    ra_last.frompc = frompc;
    ra_last.at = *at;
    ra_last.w = w;
    return w;
}

/* A frame B whose caller is not known (its top 0) shares the sp of a new
 * function (called from FROMPC): B called it and it has no frame, or B
 * was a leaf without a frame that returned and the new function has one.
 * The first return address above that sp is the one saved by whichever
 * has a frame. (The root, B's frompc 0, has one: it is the caller unless
 * the new function saved its own.) */
MCUPROF_NOINSTR static int frameless_callee(const struct mcuprof_frame *b, uintptr_t selfpc, uintptr_t sp,
                                            uintptr_t frompc)
{
    uintptr_t at, w = frame_return_address(selfpc, sp, frompc, &at);
    return b->frompc ? w == b->frompc : w != frompc;
}

/* The top of a new function's frame (SP, called from FROMPC) when its
 * own saved return address is the first above its sp; 0: not known (it
 * has no frame, or a larger one than the scan covers). A frame lying
 * below that top has returned, as a live caller's frame lies wholly
 * above it. */
MCUPROF_NOINSTR static uintptr_t own_top(uintptr_t selfpc, uintptr_t sp, uintptr_t frompc)
{
    uintptr_t at, w = frame_return_address(selfpc, sp, frompc, &at);
    return w == frompc ? at + PTR : 0u;
}
#undef PTR
#endif /* MCUPROF_CFG_PATHS > 0 */

#endif /* MCUPROF_RETURN_SCAN_H */

/*
 * mcount_v6m.S - the -pg call hook for ARMv6-M and ARMv8-M Baseline
 * (Cortex-M0, M0+, M1, M23).
 *
 * Same contract as mcount_v7m.S: on entry [sp] = frompc (pushed by the
 * profiled function), lr = selfpc; return to selfpc with lr = frompc, the
 * extra word popped, r0-r3 intact. These cores cannot pop into lr or ip,
 * nor use IT, UBFX, LDRD or LDREX, so the return swaps the two addresses
 * on the stack and pops selfpc straight into pc. The count update masks
 * interrupts for four instructions instead of using exclusives.
 */
#if __ARM_ARCH_ISA_THUMB == 1
#include "mcuprof_layout.h"
#include "mcuprof_arch.h"

/* Records of a chain past its head that the assembly compares before
 * calling C: a call site with three callees in turn finds each of them. */
#define WALK_STEPS 2

#include "hook_begin.inc"
    push    {r0-r3}                     @ [sp, #16] = frompc
    ldr     r1, =mcuprof_hook_dispatch
    ldr     r1, [r1]
    ldr     r0, [sp, #16]               @ frompc, for every entry point
    mov     pc, r1                      @ mcuprof_hook_off, _record or _slow
    .size   __gnu_mcount_nc, . - __gnu_mcount_nc

#if MCUPROF_CFG_PATHS > 0
    /* Call paths (common/shadow_stack.c): mcuprof_path_enter keeps the
     * shadow stack and counts the arc, with interrupts masked; the exit is
     * the off path's, which swaps selfpc into the word GCC pushed, so no
     * frompc is left under the function's sp (return_scan.h looks for
     * return addresses there). */
    .global mcuprof_hook_paths
    .type   mcuprof_hook_paths, %function
    .thumb_func
mcuprof_hook_paths:                     @ r0 = frompc, r0-r3 pushed
    mov     r2, r0                      @ frompc
    mov     r0, lr                      @ selfpc
    add     r1, sp, #20                 @ the function's sp after its prologue, above its push {lr}
    push    {r0}                        @ selfpc; 1 word: sp 8-byte aligned
    bl      mcuprof_path_enter          @ returns frompc
    pop     {r1}
    mov     lr, r1                      @ selfpc
    b       mcuprof_hook_off            @ r0 = frompc
    .size   mcuprof_hook_paths, . - mcuprof_hook_paths
#endif

    /* Every call to the slow path: used while a host reads the tables. */
    .global mcuprof_hook_slow
    .type   mcuprof_hook_slow, %function
    .thumb_func
mcuprof_hook_slow:
    b       .Lslow
    .size   mcuprof_hook_slow, . - mcuprof_hook_slow

    .global mcuprof_hook_record
    .type   mcuprof_hook_record, %function
    .thumb_func
mcuprof_hook_record:
#if defined(__ARM_ARCH_6M__) && MCUPROF_PORT_HASH_SHIFT == 1
    /* bucket * 2 + 1 = frompc & (2 * BUCKETS - 1): on ARMv6-M a return
     * address always has the Thumb bit set, EXC_RETURN values included,
     * so the bucket is one byte above the base taken one byte low (not on
     * ARMv8-M Baseline, whose EXC_RETURN bit 0 may be clear) */
    lsls    r1, r0, #(31 - MCUPROF_CFG_BUCKET_BITS)
    lsrs    r1, r1, #(31 - MCUPROF_CFG_BUCKET_BITS)
    ldr     r2, =mcuprof_region + MCUPROF_BUCKETS_OFFSET - 1
#else
    /* bucket * 2 = ((frompc >> SHIFT) & (BUCKETS - 1)) << 1 without UBFX;
     * the first shift drops the low bits (Thumb bit included) for good */
    lsrs    r1, r0, #MCUPROF_PORT_HASH_SHIFT
    lsls    r1, r1, #(32 - MCUPROF_CFG_BUCKET_BITS)
    lsrs    r1, r1, #(32 - MCUPROF_CFG_BUCKET_BITS - 1)
    ldr     r2, =mcuprof_region + MCUPROF_BUCKETS_OFFSET
#endif
    ldrh    r3, [r2, r1]                @ head record, in words from record 0
    lsls    r1, r3, #2
    ldr     r2, =mcuprof_region + MCUPROF_ARCS_OFFSET
    adds    r1, r1, r2
    ldr     r2, [r1, #0]                @ record's frompc; record 0 has 0
    cmp     r2, r0
    bne     .Lwalk
    ldr     r2, [r1, #4]                @ record's selfpc
    cmp     r2, lr                      @ CMP takes a high register on v6-M
    bne     .Lwalk
.Lbump:
    mrs     r3, primask
    cpsid   i
    ldr     r2, [r1, #MCUPROF_ARC_OFF_COUNT]
    adds    r2, r2, #1
    beq     1f                          @ was 0xFFFFFFFF: stays saturated
    str     r2, [r1, #MCUPROF_ARC_OFF_COUNT]
1:  msr     primask, r3
    .size   mcuprof_hook_record, . - mcuprof_hook_record
    /* falls through */
    .global mcuprof_hook_off
    .type   mcuprof_hook_off, %function
    .thumb_func
mcuprof_hook_off:                       @ r0 = frompc
    mov     r1, lr                      @ selfpc
    str     r1, [sp, #16]               @ swap: pop {.., pc} returns to selfpc
    mov     lr, r0
    pop     {r0-r3, pc}
.Lslow:
    mov     r1, lr
    push    {r1, r2, lr}                @ 3 words: sp back to 8-byte alignment
    bl      mcuprof_record_arc          @ (frompc, selfpc)
    pop     {r1, r2, r3}
    mov     lr, r3
    ldr     r0, [sp, #16]               @ frompc again: the C call took r0
    b       mcuprof_hook_off

    /* Not at the head: look at the next WALK_STEPS records of the chain
     * before going to C, which a call site that alternates between
     * callees would otherwise enter on every call to move its arc to the
     * front. Nothing is relinked here: a link changed meanwhile by an
     * interrupt's slow path leads to another valid record (records never
     * move) or to the end, and a record is counted only where both words
     * match. An index past the table (a stray write) goes to C, which
     * cuts the chain there. */
.Lwalk:
    cmp     r3, #0
    beq     .Lslow                      @ an empty bucket: a new arc
    ldr     r2, =0xAAAB                 @ words * 0xAAAB >> 17 = words / 3, exact for 16 bits
    muls    r3, r2, r3
    lsrs    r3, r3, #17                 @ the head record's index
    .rept   WALK_STEPS
    ldr     r2, =mcuprof_region + MCUPROF_LINKS_OFFSET
    lsls    r3, r3, #1
    ldrh    r3, [r2, r3]                @ the next record's index, 0 at the end
    subs    r2, r3, #1
    ldr     r1, =MCUPROF_CFG_ARCS
    cmp     r2, r1
    bhs     .Lslow                      @ the end, or past the table
    lsls    r1, r3, #1
    adds    r1, r1, r3
    lsls    r1, r1, #2
    ldr     r2, =mcuprof_region + MCUPROF_ARCS_OFFSET
    adds    r1, r1, r2
    ldr     r2, [r1, #0]
    cmp     r2, r0
    bne     1f
    ldr     r2, [r1, #4]
    cmp     r2, lr
    beq     .Lbump
1:
    .endr
    b       .Lslow
    .size   mcuprof_hook_off, . - mcuprof_hook_off
.Lhook_end:
    .ltorg

#include "hook_span.inc"
#endif

/*
 * mcount_v7m.S - the -pg call hook for ARMv7-M and ARMv8-M Mainline
 * (Cortex-M3, M4, M7, M33, M55).
 *
 * GCC emits, after each profiled function's prologue:
 *     push {lr}                 @ the function's return address: frompc
 *     bl   __gnu_mcount_nc      @ lr = selfpc, inside the function
 * The hook must pop that word, return to selfpc with lr = frompc, and keep
 * r0-r3 (the function's arguments); it may clobber ip only.
 *
 * The record and slow entries push {r0-r3, lr} under GCC's word: selfpc
 * then frompc lie where `pop {r0-r3, ip, lr}` takes them, so the return
 * is that pop and `bx ip`. Six words in all, an even number as before, so
 * sp keeps its 8-byte alignment for the call into C.
 *
 * Fast path (the common case): the arc is the first record in its bucket's
 * chain. The count is bumped with LDREX/STREX, so an interrupt handler that
 * bumps the same arc in between makes the STREX fail and we retry: no call
 * is lost and interrupts are never masked. Everything else goes to
 * mcuprof_record_arc() in C, which masks interrupts while it changes links.
 */
#if __ARM_ARCH_ISA_THUMB >= 2
#include "mcuprof_layout.h"
#include "mcuprof_arch.h"

/* Records of a chain past its head that the assembly compares before
 * calling C: a call site with three callees in turn finds each of them. */
#define WALK_STEPS 2

/* A record is addressed as REC_BASE + (reference << 2) + REC_OFF. The
 * records follow the buckets (mcuprof_layout.h): where the distance fits
 * the offset of ldrd and ldrex (1020 bytes with the count's 8: up to 256
 * buckets), the bucket array's address is the base and a second literal
 * load is saved on every call. */
#define REC_GAP (MCUPROF_ARCS_OFFSET - MCUPROF_BUCKETS_OFFSET)
#if REC_GAP + MCUPROF_ARC_OFF_COUNT <= 1020
#define REC_OFF REC_GAP
#else
#define REC_OFF 0
#endif
#define REC_BASE (mcuprof_region + MCUPROF_ARCS_OFFSET - REC_OFF)

#include "hook_begin.inc"
    ldr     ip, =mcuprof_hook_dispatch
    ldr     pc, [ip]                    @ mcuprof_hook_off or _record
    .size   __gnu_mcount_nc, . - __gnu_mcount_nc

    .global mcuprof_hook_off
    .type   mcuprof_hook_off, %function
    .thumb_func
mcuprof_hook_off:
    mov     ip, lr
    pop     {lr}
    bx      ip
    .size   mcuprof_hook_off, . - mcuprof_hook_off

    /* Every call to the slow path: used while a host reads the tables. */
    .global mcuprof_hook_slow
    .type   mcuprof_hook_slow, %function
    .thumb_func
mcuprof_hook_slow:
    push    {r0-r3, lr}
    ldr     r0, [sp, #20]               @ frompc
    b       .Lslow
    .size   mcuprof_hook_slow, . - mcuprof_hook_slow

#if MCUPROF_CFG_PATHS > 0
    /* Call paths (common/shadow_stack.c): mcuprof_path_enter keeps the
     * shadow stack and counts the arc, with interrupts masked. The exit
     * leaves selfpc, not frompc, in the word GCC pushed: shadow_stack.c
     * finds a caller by the return address its callee saved under the
     * caller's sp, where a stale frompc would mislead it. */
    .global mcuprof_hook_paths
    .type   mcuprof_hook_paths, %function
    .thumb_func
mcuprof_hook_paths:
    push    {r0-r3, lr}                 @ arguments, selfpc: 5 words, sp 8-byte aligned
    mov     r0, lr                      @ selfpc
    add     r1, sp, #24                 @ the function's sp after its prologue, above its push {lr}
    ldr     r2, [sp, #20]               @ frompc
    bl      mcuprof_path_enter
    pop     {r0-r3, lr}
    ldr     ip, [sp]                    @ frompc
    str     lr, [sp]                    @ the pushed word now holds selfpc
    mov     lr, ip
    pop     {pc}                        @ to selfpc, lr = frompc
    .size   mcuprof_hook_paths, . - mcuprof_hook_paths
#endif

    .global mcuprof_hook_record
    .type   mcuprof_hook_record, %function
    .thumb_func
mcuprof_hook_record:
    push    {r0-r3, lr}                 @ arguments, selfpc
    ldr     r0, [sp, #20]               @ frompc
    ldr     r2, =mcuprof_region + MCUPROF_BUCKETS_OFFSET
    ubfx    r1, r0, #MCUPROF_PORT_HASH_SHIFT, #MCUPROF_CFG_BUCKET_BITS
    ldrh    r3, [r2, r1, lsl #1]        @ head record, in words from record 0
#if REC_OFF == 0
    ldr     r2, =REC_BASE
#endif
    add     r1, r2, r3, lsl #2
    ldrd    r2, ip, [r1, #REC_OFF]      @ record's frompc, selfpc
    cmp     r2, r0                      @ record 0 has frompc 0: never equal
    it      eq
    cmpeq   ip, lr
    bne     .Lwalk
.Lbump:
    ldrex   r2, [r1, #REC_OFF + MCUPROF_ARC_OFF_COUNT]
    adds    r2, r2, #1
    beq     .Lreturn                    @ was 0xFFFFFFFF: stays saturated
    strex   r3, r2, [r1, #REC_OFF + MCUPROF_ARC_OFF_COUNT]
    cbz     r3, .Lreturn
    b       .Lbump                      @ an interrupt got in between
.Lreturn:
    pop     {r0-r3, ip, lr}             @ ip = selfpc, lr = frompc
    bx      ip
    /* Not at the head: look at the next WALK_STEPS records of the chain
     * before going to C, which a call site that alternates between
     * callees would otherwise enter on every call to move its arc to the
     * front. Nothing is relinked here: a link changed meanwhile by an
     * interrupt's slow path leads to another valid record (records never
     * move) or to the end, and a record is counted only where both words
     * match. An index past the table (a stray write) goes to C, which
     * cuts the chain there. */
.Lwalk:
    cbz     r3, .Lslow                  @ an empty bucket: a new arc
    movw    r2, #0xAAAB                 @ words / 3 = index, exact for 16 bits
    mul     r3, r3, r2
    lsrs    r3, r3, #17
    .rept   WALK_STEPS
    ldr     r2, =mcuprof_region + MCUPROF_LINKS_OFFSET
    ldrh    r3, [r2, r3, lsl #1]        @ the next record's index, 0 at the end
    subs    r2, r3, #1
    movw    ip, #MCUPROF_CFG_ARCS
    cmp     r2, ip
    bcs     .Lslow                      @ the end, or past the table
    add     r1, r3, r3, lsl #1
    ldr     r2, =REC_BASE
    add     r1, r2, r1, lsl #2
    ldrd    r2, ip, [r1, #REC_OFF]
    cmp     r2, r0
    it      eq
    cmpeq   ip, lr
    beq     .Lbump
    .endr
.Lslow:
    mov     r1, lr
    bl      mcuprof_record_arc          @ (frompc, selfpc)
    b       .Lreturn
    .size   mcuprof_hook_record, . - mcuprof_hook_record
.Lhook_end:
    .ltorg

#include "hook_span.inc"
#endif

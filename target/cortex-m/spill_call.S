/*
 * spill_call.S - mcuprof_spill_saved: mcuprof_spill_pc(r0) for the
 * sampler's interrupt, keeping every register but lr (common/spill.h,
 * mcuprof_arch.h): the caller's asm names only lr and the flags as
 * clobbered, so the sample's common path keeps its values where it likes.
 * Six words pushed: the stack stays 8-byte aligned for the C call.
 */
    .syntax unified
    .thumb
    .text

    .global mcuprof_spill_saved
    .type   mcuprof_spill_saved, %function
    .thumb_func
mcuprof_spill_saved:
    push    {r0-r4, lr}
    mov     r4, ip
    bl      mcuprof_spill_pc
    mov     ip, r4
    pop     {r0-r4, pc}
    .size   mcuprof_spill_saved, . - mcuprof_spill_saved

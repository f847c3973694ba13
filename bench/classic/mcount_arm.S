/*
 * mcount_arm.S - the minimal __gnu_mcount_nc entry of the classic ports:
 * save the argument registers, call the C body with (frompc, selfpc), and
 * return to the profiled function with lr = frompc and the word GCC pushed
 * popped. No fast path in assembly: that is the classic design.
 */
    .syntax unified
    .thumb
    .text
    .global __gnu_mcount_nc
    .type   __gnu_mcount_nc, %function
    .thumb_func
__gnu_mcount_nc:
    push    {r0-r3, lr}                 @ with GCC's word: 6 words, sp 8-aligned
#if __ARM_ARCH_ISA_THUMB >= 2
    bic     r1, lr, #1                  @ selfpc
    ldr     r0, [sp, #20]               @ frompc
    bl      classic_mcount
    pop     {r0-r3, ip, lr}             @ ip = selfpc, lr = frompc
    bx      ip
#else
    /* ARMv6-M: no BIC immediate, no POP into ip or lr: swap the two saved
     * addresses so that pop {pc} returns to selfpc. */
    mov     r1, lr
    subs    r1, r1, #1                  @ selfpc, Thumb bit cleared
    ldr     r0, [sp, #20]               @ frompc
    bl      classic_mcount
    ldr     r0, [sp, #20]
    mov     lr, r0                      @ lr = frompc
    ldr     r0, [sp, #16]
    str     r0, [sp, #20]               @ selfpc where pop {pc} finds it
    pop     {r0-r3}
    add     sp, #4
    pop     {pc}
#endif
    .size   __gnu_mcount_nc, . - __gnu_mcount_nc

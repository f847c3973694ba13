/*
 * sample_isr.S - timer exception entry that samples the interrupted PC.
 *
 * The hardware stacked r0-r3, r12, lr, pc, xPSR on the stack that was in
 * use: EXC_RETURN bit 2 says which (0: MSP, 1: PSP, as under an RTOS
 * thread). The PC is the 7th word of that frame; an FPU frame (EXC_RETURN
 * bit 4 clear) appends s0-s15 and FPSCR after xPSR, so the PC does not
 * move. Reading it here, before any C code has pushed a frame, is the only
 * placement-independent way: a C handler's own frame size depends on flags.
 *
 * It jumps through mcuprof_systick_dispatch (port.c): the function that sets
 * SysTick's next period and counts the sample while mcuprof_sampler_start()
 * runs SysTick, one that only samples otherwise (in the vector of another
 * timer); each ends with mcuprof_sample_isr_chain. One load costs less
 * than testing flags on every tick.
 *
 * ARMv8-M: a Secure handler interrupting Non-secure code finds the frame on
 * the Non-secure stack; the sampler must run in the security state of the
 * code it profiles.
 */
#include "mcuprof_config.h"

    .syntax unified
    .thumb
    .text

    /* The dispatch target gets the PC in r0, the stacked xPSR in r1 and lr
     * still EXC_RETURN (call-path builds: r2 and r3 too, below): it
     * runs as the handler itself (the hardware has stacked what a C
     * function may clobber, and sp is 8-byte aligned), and its own tail
     * call of mcuprof_sample_isr_chain, or its return, ends the exception. */
    .global mcuprof_sample_isr
    .type   mcuprof_sample_isr, %function
    .thumb_func
mcuprof_sample_isr:
#if __ARM_ARCH_ISA_THUMB >= 2
    tst     lr, #4                      @ EXC_RETURN.SPSEL
    ite     eq
    mrseq   r0, msp
    mrsne   r0, psp
#else
    movs    r0, #4
    mov     r1, lr
    tst     r0, r1                      @ EXC_RETURN.SPSEL
    bne     1f
    mrs     r0, msp
    b       2f
1:  mrs     r0, psp
2:
#endif
#if MCUPROF_CFG_PATHS > 0
    /* Call paths (common/path_table.c) get, in r2, the interrupted code's
     * sp: above the stacked frame of 8 words, 18 more for an FPU frame
     * (EXC_RETURN bit 4 clear), 1 more when the stacked xPSR's bit 9 says
     * the core aligned the frame; bit 0 set when it is the process stack.
     * In r3 the interrupted code's lr. */
    ldr     r1, [r0, #28]               @ stacked xPSR
#if __ARM_ARCH_ISA_THUMB >= 2
    add     r2, r0, #32
    tst     lr, #16                     @ EXC_RETURN.FType
    it      eq
    addeq   r2, r2, #72
    tst     r1, #0x200                  @ xPSR bit 9
    it      ne
    addne   r2, r2, #4
    tst     lr, #4                      @ EXC_RETURN.SPSEL
    it      ne
    orrne   r2, r2, #1
#else
    mov     r2, r0                      @ (no FPU frame on these cores)
    adds    r2, #32
    lsrs    r3, r1, #10                 @ carry = xPSR bit 9
    bcc     3f
    adds    r2, #4
3:  mov     r3, lr
    lsrs    r3, r3, #3                  @ carry = EXC_RETURN.SPSEL
    bcc     4f
    adds    r2, #1
4:
#endif
    ldr     r3, =mcuprof_systick_dispatch
    ldr     r3, [r3]
    mov     ip, r3
    ldr     r3, [r0, #20]               @ stacked lr
    ldr     r0, [r0, #24]               @ stacked PC
    bx      ip                          @ next SysTick period (when started), the sample, the chain
#else
#if MCUPROF_CFG_CONTEXTS > 0
    ldr     r1, [r0, #28]               @ stacked xPSR: its IPSR says which handler, if any, was running
#endif
    ldr     r0, [r0, #24]               @ stacked PC
    ldr     r2, =mcuprof_systick_dispatch
    ldr     r2, [r2]
    bx      r2                          @ next SysTick period (when started), the sample, the chain
#endif
    .size   mcuprof_sample_isr, . - mcuprof_sample_isr

    .weak   mcuprof_sample_isr_chain
    .type   mcuprof_sample_isr_chain, %function
    .thumb_func
mcuprof_sample_isr_chain:
    bx      lr
    .size   mcuprof_sample_isr_chain, . - mcuprof_sample_isr_chain
    .ltorg

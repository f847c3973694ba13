/*
 * hardfault_isr.S - survive semihosting with no debugger attached.
 *
 * A BKPT with no debugger escalates to HardFault. If the faulting
 * instruction is the semihosting BKPT 0xAB, make the call fail (r0 = -1 in
 * the stacked frame) and resume after it; otherwise pass the fault on to
 * mcuprof_hardfault_chain. The instruction is only read when the stacked PC
 * lies in the profiled text range 0, so a fault on a wild PC is never
 * turned into a second fault (and a lock-up) here.
 */
#include "mcuprof_semihost.h" /* MCUPROF_SEMIHOST_BKPT_INSN */

    .syntax unified
    .thumb
    .text

    .global mcuprof_hardfault_isr
    .type   mcuprof_hardfault_isr, %function
    .thumb_func
mcuprof_hardfault_isr:
    movs    r0, #4
    mov     r1, lr
    tst     r0, r1
    bne     1f
    mrs     r0, msp
    b       2f
1:  mrs     r0, psp
2:  ldr     r1, [r0, #24]               @ stacked PC
    ldr     r2, =__mcuprof_text0_start
    cmp     r1, r2
    blo     3f
    ldr     r2, =__mcuprof_text0_end
    cmp     r1, r2
    bhs     3f
    ldrh    r2, [r1]
    ldr     r3, =MCUPROF_SEMIHOST_BKPT_INSN
    cmp     r2, r3
    bne     3f
    adds    r1, r1, #2
    str     r1, [r0, #24]               @ resume after the BKPT
    movs    r1, #0
    mvns    r1, r1
    str     r1, [r0, #0]                @ r0 = -1: the call failed
    bx      lr
3:  ldr     r1, =mcuprof_hardfault_chain
    bx      r1
    .size   mcuprof_hardfault_isr, . - mcuprof_hardfault_isr

    .weak   mcuprof_hardfault_chain
    .type   mcuprof_hardfault_chain, %function
    .thumb_func
mcuprof_hardfault_chain:
    b       mcuprof_hardfault_chain
    .size   mcuprof_hardfault_chain, . - mcuprof_hardfault_chain
    .ltorg

/*
 * pendsv_truth.S - PendSV_Handler for the test firmware: the port's
 * xPortPendSVHandler (renamed rtos_port_pendsv in FreeRTOSConfig.h), timed
 * by two C calls for the truth of the context table. A product routes
 * PendSV straight to the port (#define xPortPendSVHandler PendSV_Handler).
 *
 * What makes the wrapper safe: the C calls clobber only r0-r3, r12 and lr,
 * so r4-r11 still hold the interrupted task's values when the port saves
 * them, and the next task's when the wrapper returns. The port's handler
 * works on PSP and keeps its own words on MSP below ours; it returns with
 * `bx lr`, here to the wrapper, which then returns from the exception with
 * the EXC_RETURN it saved.
 */
    .syntax unified
    .thumb
    .text

    .global PendSV_Handler
    .type   PendSV_Handler, %function
    .thumb_func
    .balign 16
PendSV_Handler:
    push    {r0, lr}                    @ EXC_RETURN; r0 keeps sp 8-byte aligned
    bl      rtos_pendsv_enter
    bl      rtos_port_pendsv
    bl      rtos_pendsv_exit
    pop     {r0, pc}                    @ the exception return
    .size   PendSV_Handler, . - PendSV_Handler

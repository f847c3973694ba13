/*
 * default_vectors.S - strong SysTick_Handler and HardFault_Handler that
 * enter the runtime. Linked as an object (not from an archive) by
 * mcuprof_instrument() unless NO_DEFAULT_VECTORS is given, so they win over
 * a startup file's weak defaults. A firmware with its own strong handlers
 * gets a duplicate-symbol link error instead of silently losing one: leave
 * this file out and put mcuprof_sample_isr / mcuprof_hardfault_isr in the
 * vectors (or chain to them) yourself.
 */
    .syntax unified
    .thumb
    .text

    .global SysTick_Handler
    .type   SysTick_Handler, %function
    .thumb_func
SysTick_Handler:
    ldr     r0, =mcuprof_sample_isr
    bx      r0
    .size   SysTick_Handler, . - SysTick_Handler

    .global HardFault_Handler
    .type   HardFault_Handler, %function
    .thumb_func
HardFault_Handler:
    ldr     r0, =mcuprof_hardfault_isr
    bx      r0
    .size   HardFault_Handler, . - HardFault_Handler
    .ltorg

/* A firmware `mcuprof check` finds nothing wrong in: the GCC -pg sequence,
 * aligned functions, SysTick reaching the sampler through a literal. */
#include "thumb.inc"

    func main
    push {r4, lr}
    push {lr}
    bl __gnu_mcount_nc
    bl work
    pop {r4, pc}
    endf main

    func work
    push {lr}
    bl __gnu_mcount_nc
    bx lr
    endf work

    func __gnu_mcount_nc
    bx lr
    endf __gnu_mcount_nc

    func mcuprof_sample_isr
    bx lr
    endf mcuprof_sample_isr

    func SysTick_Handler
    ldr r0, =mcuprof_sample_isr
    bx r0
    endf SysTick_Handler
    .ltorg

    .section .vectors, "a", %progbits
    .word 0x20001000
    .rept 14
    .word main + 1
    .endr
    .word SysTick_Handler

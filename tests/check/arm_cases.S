/*
 * Thumb functions that `mcuprof check` must object to, one per finding,
 * next to ones it must accept. Never run: only linked and decoded.
 */
#include "thumb.inc"

    /* the -pg sequence as GCC emits it */
    func good
    push {r4, lr}
    push {lr}
    bl __gnu_mcount_nc
    pop {r4, pc}
    endf good

    /* GCC 12 on ARMv6-M saving r8-r11: lr holds r11 at the hook call */
    func clobbered
    push {r4, r5, r6, r7, lr}
    mov lr, fp
    mov r7, sl
    push {r7, lr}
    push {lr}
    bl __gnu_mcount_nc
    pop {r6, r7}
    pop {r4, r5, r6, r7, pc}
    endf clobbered

    /* the hook called without pushing lr first */
    func malformed
    push {r4, lr}
    bl __gnu_mcount_nc
    pop {r4, pc}
    endf malformed

    /* `return good()` left as a jump */
    func tail_caller
    push {lr}
    bl __gnu_mcount_nc
    b.w good
    endf tail_caller

    /* the same in C++, motor::Filter::step(int): named as C++ users
     * read it (--no-demangle: as the symbol) */
    func _ZN5motor6Filter4stepEi
    push {lr}
    bl __gnu_mcount_nc
    b.w good
    endf _ZN5motor6Filter4stepEi

    /* a conditional jump to a function that is not profiled: fine */
    func jumps_to_plain
    push {lr}
    bl __gnu_mcount_nc
    cmp r0, #0
    beq plain
    bx lr
    endf jumps_to_plain

    func plain
    bx lr
    endf plain

    /* the runtime built with -pg */
    func mcuprof_record
    push {lr}
    bl __gnu_mcount_nc
    bx lr
    endf mcuprof_record

    /* runs before .data */
    func Reset_Handler
    push {lr}
    bl __gnu_mcount_nc
    b .
    endf Reset_Handler

    /* starts 2 bytes into a 16-byte bin, after good's bin-mate `packed0` */
    func packed0
    push {lr}
    bl __gnu_mcount_nc
    endf packed0
    func packed1, 2
    push {lr}
    bl __gnu_mcount_nc
    pop {pc}
    endf packed1

    func __gnu_mcount_nc, 4
    bx lr
    endf __gnu_mcount_nc

    func mcuprof_sample_isr, 4
    bx lr
    endf mcuprof_sample_isr

    func Default_Handler, 4
    b .
    endf Default_Handler

    /* vector table: SysTick (slot 15) goes to Default_Handler */
    .section .vectors, "a", %progbits
    .word 0x20001000
    .rept 15
    .word Default_Handler + 1
    .endr

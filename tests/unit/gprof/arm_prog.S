/*
 * A tiny Thumb program for the gprof read-back test: functions at known
 * offsets, never run, only linked so gprof has symbols. The test places
 * arcs and histogram samples into these functions and checks what gprof
 * reports. Every instruction has a fixed size (push/pop/nop/blx register:
 * 2 bytes, bl: 4), so the return addresses below are exact.
 */
    .syntax unified
    .thumb

    .macro func name, section=.text
    .section \section, "ax", %progbits
    .balign 16
    .global \name
    .type \name, %function
    .thumb_func
\name:
    .endm

    /* calls at +2, +6, +10 (bl) and +16 (blx r3): returns to +6, +10,
     * +14 and +18 */
    func main_fn
    push {r4, lr}
    bl work_a
    bl work_b
    bl ender
    ldr r3, 1f
    blx r3
    pop {r4, pc}
    .balign 4
1:  .word ram_fn
    .size main_fn, . - main_fn

    func work_a
    .rept 8
    nop
    .endr
    bx lr
    .size work_a, . - work_a

    /* calls work_a at +2: returns to +6 */
    func work_b
    push {r4, lr}
    bl work_a
    .rept 6
    nop
    .endr
    pop {r4, pc}
    .size work_b, . - work_b

    /* Ends with a call to a noreturn function: the return address, +16, is
     * the first byte of `after`, which follows with no padding. */
    func ender
    push {r4, lr}
    .rept 5
    nop
    .endr
    bl stop
    .size ender, . - ender
    .global after
    .type after, %function
    .thumb_func
after:
    nop
    bx lr
    .size after, . - after

    func stop
    b stop
    .size stop, . - stop

    func isr_fn
    .rept 4
    nop
    .endr
    bx lr
    .size isr_fn, . - isr_fn

    /* last symbol of .text, so no function above is the open-ended last */
    func zz_end
    bx lr
    .size zz_end, . - zz_end

    /* code in RAM: the second histogram range */
    func ram_fn, .ramfunc
    .rept 6
    nop
    .endr
    bx lr
    .size ram_fn, . - ram_fn

    func zz_ram_end, .ramfunc
    bx lr
    .size zz_ram_end, . - zz_ram_end

/*
 * The RV64 twin of arm_prog.S for the gprof read-back test (8-byte
 * addresses). No compressed instructions and no linker relaxation, so
 * every instruction is 4 bytes and the return addresses below are exact.
 */
    .option norvc
    .option norelax

    .macro func name, section=.text
    .section \section, "ax", @progbits
    .balign 32
    .global \name
    .type \name, @function
\name:
    .endm

    /* calls at +8, +12, +16, +20: returns to +12, +16, +20, +24 */
    func main_fn
    addi sp, sp, -16
    sd ra, 8(sp)
    jal work_a
    jal work_b
    jal ender
    jal ram_fn
    ld ra, 8(sp)
    addi sp, sp, 16
    ret
    .size main_fn, . - main_fn

    func work_a
    .rept 6
    nop
    .endr
    ret
    .size work_a, . - work_a

    /* calls work_a at +8: returns to +12 */
    func work_b
    addi sp, sp, -16
    sd ra, 8(sp)
    jal work_a
    ld ra, 8(sp)
    addi sp, sp, 16
    ret
    .size work_b, . - work_b

    /* Ends with a call to a noreturn function: the return address, +32, is
     * the first byte of `after`, which follows with no padding. */
    func ender
    .rept 7
    nop
    .endr
    jal stop
    .size ender, . - ender
    .global after
    .type after, @function
after:
    nop
    ret
    .size after, . - after

    func stop
    j stop
    .size stop, . - stop

    func isr_fn
    .rept 4
    nop
    .endr
    ret
    .size isr_fn, . - isr_fn

    func zz_end
    ret
    .size zz_end, . - zz_end

    /* code in another region (within jal reach): the second range */
    func ram_fn, .ramfunc
    .rept 6
    nop
    .endr
    ret
    .size ram_fn, . - ram_fn

    func zz_ram_end, .ramfunc
    ret
    .size zz_ram_end, . - zz_ram_end

/* RV32 functions for `mcuprof check`: a good -pg call, a malformed one,
 * and tail calls (tail, j, c.j) to a profiled function. */
    .option norelax
    .macro func name
    .text
    .balign 16
    .global \name
    .type \name, %function
\name:
    .endm
    .macro endf name
    .size \name, . - \name
    .endm

    func good
    addi sp, sp, -16
    sw ra, 12(sp)
    mv a0, ra
    call _mcount
    lw ra, 12(sp)
    addi sp, sp, 16
    ret
    endf good

    func malformed
    addi sp, sp, -16
    sw ra, 12(sp)
    call _mcount
    lw ra, 12(sp)
    addi sp, sp, 16
    ret
    endf malformed

    func tail_far
    mv a0, ra
    call _mcount
    tail good
    endf tail_far

    func tail_near
    mv a0, ra
    call _mcount
    .option push
    .option norvc
    j good
    .option pop
    endf tail_near

    func tail_short
    mv a0, ra
    call _mcount
    c.j good
    endf tail_short

    func _mcount
    ret
    endf _mcount

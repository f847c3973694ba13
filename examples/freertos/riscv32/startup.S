/*
 * startup.S - a minimal RISC-V startup for QEMU virt (-bios none, machine
 * mode): stack, .data/.bss set-up, mtvec at mcuprof's trap_vector (the
 * runtime's; the weak default here loops) until the scheduler starts,
 * then main. Assembly, so it never calls the profiling hook.
 */
    .section .text.start, "ax", @progbits
    .globl _start
    .type _start, @function
_start:
    la sp, _estack
    la t0, _sidata
    la t1, _sdata
    la t2, _edata
    j 2f
1:  lw t3, 0(t0)
    sw t3, 0(t1)
    addi t0, t0, 4
    addi t1, t1, 4
2:  bltu t1, t2, 1b
    la t1, _sbss
    la t2, _ebss
    j 4f
3:  sw zero, 0(t1)
    addi t1, t1, 4
4:  bltu t1, t2, 3b
    la t0, trap_vector
    csrw mtvec, t0
    call main
    call board_exit
    .size _start, . - _start

    .section .text.trap_vector, "ax", @progbits
    .weak trap_vector
    .type trap_vector, @function
    .balign 4
trap_vector:
    j trap_vector
    .size trap_vector, . - trap_vector

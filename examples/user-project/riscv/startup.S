/*
 * startup.S - a minimal RISC-V startup for QEMU virt (-bios none, machine
 * mode): stack, .data/.bss set-up, mtvec, main, then the run ends through
 * semihosting with main's return value. It knows nothing of mcuprof: the
 * runtime's strong trap_vector replaces the weak default here. Assembly,
 * so it never calls the profiling hook.
 *
 * Each example stands alone, a folder a user can copy out of the kit, so
 * what it shares with the others and with boards/ is written again here on
 * purpose, not included from there.
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
    /* SYS_EXIT_EXTENDED {ADP_Stopped_ApplicationExit, main's return value} */
    addi sp, sp, -16
    li t0, 0x20026
    sw t0, 0(sp)
    sw a0, 4(sp)
    li a0, 0x20
    mv a1, sp
    /* the semihosting call: these three uncompressed instructions, in one
     * page. Written out here on purpose: this is the user's own startup,
     * which stands alone; the kit's trap is the runtime's
     * (target/riscv/mcuprof_semihost.h), private to the runtime's build. */
    .option push
    .option norvc
    .balign 16
    slli zero, zero, 0x1f
    ebreak
    srai zero, zero, 7
    .option pop
5:  j 5b
    .size _start, . - _start

    .section .text.trap_vector, "ax", @progbits
    .weak trap_vector
    .type trap_vector, @function
    .balign 4
trap_vector:
    j trap_vector
    .size trap_vector, . - trap_vector

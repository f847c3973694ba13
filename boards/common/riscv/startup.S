/*
 * startup.S - reset for every RISC-V board (RV32 and RV64), in machine mode.
 *
 * QEMU starts the hart at the board's reset ROM, which jumps to the start
 * of FLASH whatever the ELF's entry point says (virt with -bios none: DRAM
 * base; sifive_e: 0x20400000), so _start is alone in section .boot, which
 * sections.ld places first. Assembly only: nothing here is ever compiled
 * with -pg, and it runs before .data and .bss exist. The .mcuprof region
 * is not touched; the runtime initialises it.
 */
    .section .boot, "ax", @progbits
    .globl _start
    .type _start, @function
_start:
    /* Nothing may interrupt the copy loops. */
    csrw mie, zero
    csrci mstatus, 8                    /* mstatus.MIE */

    /* gp for linker relaxation; 0 when the script defines no
     * __global_pointer$ (an undefined weak symbol). Not relaxed itself. */
    .option push
    .option norelax
    .weak __global_pointer$
    la gp, __global_pointer$
    .option pop
    la sp, __stack_top

    /* .data from its load address in FLASH (word loops: sections.ld keeps
     * both ends 4-byte aligned) */
    la t0, __data_load
    la t1, __data_start
    la t2, __data_end
    j 2f
1:  lw t3, 0(t0)
    sw t3, 0(t1)
    addi t0, t0, 4
    addi t1, t1, 4
2:  bltu t1, t2, 1b

    /* .bss */
    la t1, __bss_start
    la t2, __bss_end
    j 4f
3:  sw zero, 0(t1)
    addi t1, t1, 4
4:  bltu t1, t2, 3b

    /* Direct mode: every trap enters at trap_vector (4-byte aligned). */
    la t0, trap_vector
    csrw mtvec, t0

    call board_init
    call main
    call board_exit                     /* a0: main's return value */
5:  j 5b
    .size _start, . - _start

/* Taken until something defines a strong trap_vector (the mcuprof runtime,
 * or firmware's own): stop here, where a debugger shows mcause and mepc. */
    .section .text.trap_vector, "ax", @progbits
    .weak trap_vector
    .type trap_vector, @function
    .balign 4
trap_vector:
    j trap_vector
    .size trap_vector, . - trap_vector

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

    /* .preinit_array, then .init_array: pointer-sized entries, called in
     * order (s0/s1 survive the calls) */
    la s0, __preinit_array_start
    la s1, __preinit_array_end
    call call_array
    la s0, __init_array_start
    la s1, __init_array_end
    call call_array

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


/* Call every function pointer in [s0, s1). */
#if __riscv_xlen == 64
#define REG_S sd
#define REG_L ld
#define REGBYTES 8
#else
#define REG_S sw
#define REG_L lw
#define REGBYTES 4
#endif
    .section .text.call_array, "ax", @progbits
    .type call_array, @function
call_array:
    addi sp, sp, -16
    REG_S ra, 0(sp)
    j 2f
1:  REG_L t0, 0(s0)
    jalr t0
    addi s0, s0, REGBYTES
2:  bltu s0, s1, 1b
    REG_L ra, 0(sp)
    addi sp, sp, 16
    ret
    .size call_array, . - call_array

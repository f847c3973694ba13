/*
 * trap_entry.S - a complete machine-mode trap vector (direct mode) for
 * firmware that has none: saves the registers a C function may clobber,
 * calls mcuprof_trap() and returns with mret. See mtimer.c.
 */
#if __riscv_xlen == 64
#define REG_S sd
#define REG_L ld
#define REGBYTES 8
#else
#define REG_S sw
#define REG_L lw
#define REGBYTES 4
#endif
/* 16 registers: ra, t0-t6, a0-a7; a multiple of 16 bytes on RV32 and RV64,
 * so sp stays aligned as the ABI requires */
#define FRAME (16 * REGBYTES)

    .section .text.mcuprof_trap_entry, "ax", @progbits
    .balign 4
    .global mcuprof_trap_entry
    .type   mcuprof_trap_entry, @function
mcuprof_trap_entry:
    addi    sp, sp, -FRAME
    REG_S   ra, 0*REGBYTES(sp)
    REG_S   t0, 1*REGBYTES(sp)
    REG_S   t1, 2*REGBYTES(sp)
    REG_S   t2, 3*REGBYTES(sp)
    REG_S   a0, 4*REGBYTES(sp)
    REG_S   a1, 5*REGBYTES(sp)
    REG_S   a2, 6*REGBYTES(sp)
    REG_S   a3, 7*REGBYTES(sp)
    REG_S   a4, 8*REGBYTES(sp)
    REG_S   a5, 9*REGBYTES(sp)
    REG_S   a6, 10*REGBYTES(sp)
    REG_S   a7, 11*REGBYTES(sp)
    REG_S   t3, 12*REGBYTES(sp)
    REG_S   t4, 13*REGBYTES(sp)
    REG_S   t5, 14*REGBYTES(sp)
    REG_S   t6, 15*REGBYTES(sp)
    addi    a0, sp, 4*REGBYTES          /* where a0 is saved */
    call    mcuprof_trap
    REG_L   ra, 0*REGBYTES(sp)
    REG_L   t0, 1*REGBYTES(sp)
    REG_L   t1, 2*REGBYTES(sp)
    REG_L   t2, 3*REGBYTES(sp)
    REG_L   a0, 4*REGBYTES(sp)
    REG_L   a1, 5*REGBYTES(sp)
    REG_L   a2, 6*REGBYTES(sp)
    REG_L   a3, 7*REGBYTES(sp)
    REG_L   a4, 8*REGBYTES(sp)
    REG_L   a5, 9*REGBYTES(sp)
    REG_L   a6, 10*REGBYTES(sp)
    REG_L   a7, 11*REGBYTES(sp)
    REG_L   t3, 12*REGBYTES(sp)
    REG_L   t4, 13*REGBYTES(sp)
    REG_L   t5, 14*REGBYTES(sp)
    REG_L   t6, 15*REGBYTES(sp)
    addi    sp, sp, FRAME
    mret
    .size   mcuprof_trap_entry, . - mcuprof_trap_entry

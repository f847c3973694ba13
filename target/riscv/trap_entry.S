/*
 * trap_entry.S - a complete machine-mode trap vector (direct mode) for
 * firmware that has none. The machine timer interrupt goes straight to
 * mcuprof_mtimer_trap (mtimer.c), which saves only the registers it uses;
 * every other trap saves the registers a C function may clobber, calls
 * mcuprof_trap() and returns with mret. See mtimer.c.
 */
#include "mcuprof_config.h"

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

    .set    .Lslot_ra, 0
    .set    .Lslot_t0, 1
    .set    .Lslot_t1, 2
    .set    .Lslot_t2, 3
    .set    .Lslot_a0, 4
    .set    .Lslot_a1, 5
    .set    .Lslot_a2, 6
    .set    .Lslot_a3, 7
    .set    .Lslot_a4, 8
    .set    .Lslot_a5, 9
    .set    .Lslot_a6, 10
    .set    .Lslot_a7, 11
    .set    .Lslot_t3, 12
    .set    .Lslot_t4, 13
    .set    .Lslot_t5, 14
    .set    .Lslot_t6, 15
/* every caller-saved register in its slot of a FRAME-byte frame at sp */
    .macro SAVE_CALLER_SAVED
    .irp    r, ra, t0, t1, t2, a0, a1, a2, a3, a4, a5, a6, a7, t3, t4, t5, t6
    REG_S   \r, .Lslot_\r*REGBYTES(sp)
    .endr
    .endm
    .macro RESTORE_CALLER_SAVED
    .irp    r, ra, t0, t1, t2, a0, a1, a2, a3, a4, a5, a6, a7, t3, t4, t5, t6
    REG_L   \r, .Lslot_\r*REGBYTES(sp)
    .endr
    .endm

    .section .text.mcuprof_trap_entry, "ax", @progbits
    .balign 4
    .global mcuprof_trap_entry
    .type   mcuprof_trap_entry, @function
mcuprof_trap_entry:
    /* sp moves first: an NMI may come at any instruction and use the stack */
    addi    sp, sp, -16
    REG_S   t0, 0(sp)
    csrr    t0, mcause
    /* the machine timer interrupt, cause 7 with the interrupt bit (the
     * sign bit) set, in one register: negative, and minus 7 it is the
     * sign bit alone, which one shift left turns to 0 */
    bgez    t0, .Lother
    addi    t0, t0, -7
    slli    t0, t0, 1
    bnez    t0, .Lother
    REG_L   t0, 0(sp)
    addi    sp, sp, 16
    j       mcuprof_mtimer_trap
.Lother:
    REG_L   t0, 0(sp)
    addi    sp, sp, 16 - FRAME
    SAVE_CALLER_SAVED
    addi    a0, sp, 4*REGBYTES          /* where a0 is saved */
    call    mcuprof_trap
    RESTORE_CALLER_SAVED
    addi    sp, sp, FRAME
    mret
    .size   mcuprof_trap_entry, . - mcuprof_trap_entry

    /* mcuprof_mtimer_trap's calls on its rare paths: entered with
     * `jal a1, mcuprof_call_saved`, a0 the argument of
     * mcuprof_mtimer_rare(); keeps every register (a1, the return
     * address, too), so that the caller stays a leaf function that saves
     * only the registers it uses. */
    .section .text.mcuprof_call_saved, "ax", @progbits
    .balign 4
    .global mcuprof_call_saved
    .type   mcuprof_call_saved, @function
mcuprof_call_saved:
    addi    sp, sp, -FRAME
    SAVE_CALLER_SAVED
    call    mcuprof_mtimer_rare
    RESTORE_CALLER_SAVED
    addi    sp, sp, FRAME
    jr      a1
    .size   mcuprof_call_saved, . - mcuprof_call_saved

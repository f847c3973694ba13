/*
 * default_vectors.S - a strong trap_vector that enters the runtime's trap
 * handler. A board's startup points mtvec at `trap_vector`, weak there;
 * linked as an object by mcuprof_instrument() unless NO_DEFAULT_VECTORS is
 * given. A firmware with its own strong trap_vector gets a duplicate-symbol
 * link error instead of silently losing one: then call mcuprof_mtimer_isr()
 * from your handler on the machine timer interrupt.
 *
 * trap_vector is a vector table: its first entry, all that direct mode
 * uses, enters mcuprof_trap_entry, which finds the timer interrupt from
 * mcause. From .preinit_array, before every constructor and main,
 * mcuprof_take_mtvec points mtvec at it in vectored mode, where the
 * machine timer interrupt (cause 7) jumps straight to the sampler and
 * saves the 9 instructions of that test on every sample; a core without
 * vectored mode (the mode field reads back 0) or one that wants the table
 * aligned further keeps direct mode. Every other interrupt's entry, up to
 * cause 63, enters mcuprof_trap_entry too, as does every exception in
 * either mode.
 *
 * Taking mtvec before main also matters because a C library's crt0 may
 * install a trap handler of its own (picolibc's reports the trap and
 * exits), which would then take the sampler's timer interrupt. A startup
 * that sets mtvec to trap_vector itself loses nothing; one that runs no
 * .preinit_array keeps its mtvec.
 */
#include "mcuprof_config.h"

#define VECTORS 64

    .section .text.trap_vector, "ax", @progbits
    .balign 64
    .global trap_vector
    .global mcuprof_default_trap_vector /* says these vectors are linked (mtimer.c) */
    .type   trap_vector, @function
trap_vector:
mcuprof_default_trap_vector:
    .option push
    .option norvc                       /* every entry 4 bytes */
    .set    .Lcause, 0
    .rept   VECTORS
    .if     .Lcause == 7
    j       mcuprof_mtimer_trap         /* the machine timer interrupt */
    .else
    j       mcuprof_trap_entry
    .endif
    .set    .Lcause, .Lcause + 1
    .endr
    .option pop
    .size   trap_vector, . - trap_vector

    .section .text.mcuprof_take_mtvec, "ax", @progbits
    .balign 4
    .type   mcuprof_take_mtvec, @function
mcuprof_take_mtvec:
    la      t0, trap_vector
    ori     t1, t0, 1                   /* MODE 1: vectored */
    csrw    mtvec, t1
    csrr    t2, mtvec
    beq     t2, t1, 1f
    csrw    mtvec, t0                   /* not taken as written: direct */
1:  ret
    .size   mcuprof_take_mtvec, . - mcuprof_take_mtvec

    .section .preinit_array, "aw"
#if __riscv_xlen == 64
    .balign 8
    .dword  mcuprof_take_mtvec
#else
    .balign 4
    .word   mcuprof_take_mtvec
#endif

/*
 * default_vectors.S - a strong trap_vector that enters the runtime's trap
 * handler. A board's startup points mtvec at `trap_vector`, weak there;
 * linked as an object by mcuprof_instrument() unless NO_DEFAULT_VECTORS is
 * given. A firmware with its own strong trap_vector gets a duplicate-symbol
 * link error instead of silently losing one: then call mcuprof_mtimer_isr()
 * from your handler on the machine timer interrupt.
 *
 * It also points mtvec at trap_vector from .preinit_array, before every
 * constructor and main: a C library's crt0 may install a trap handler of
 * its own (picolibc's reports the trap and exits), which would then take
 * the sampler's timer interrupt. A startup that sets mtvec to trap_vector
 * itself loses nothing; one that runs no .preinit_array keeps its mtvec.
 */
    .section .text.trap_vector, "ax", @progbits
    .balign 4
    .global trap_vector
    .type   trap_vector, @function
trap_vector:
    j       mcuprof_trap_entry
    .size   trap_vector, . - trap_vector

    .section .text.mcuprof_take_mtvec, "ax", @progbits
    .balign 4
    .type   mcuprof_take_mtvec, @function
mcuprof_take_mtvec:
    la      t0, trap_vector
    csrw    mtvec, t0
    ret
    .size   mcuprof_take_mtvec, . - mcuprof_take_mtvec

    .section .preinit_array, "aw"
#if __riscv_xlen == 64
    .balign 8
    .dword  mcuprof_take_mtvec
#else
    .balign 4
    .word   mcuprof_take_mtvec
#endif

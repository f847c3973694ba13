/*
 * default_vectors.S - a strong trap_vector that enters the runtime's trap
 * handler. A board's startup points mtvec at `trap_vector`, weak there;
 * linked as an object by mcuprof_instrument() unless NO_DEFAULT_VECTORS is
 * given. A firmware with its own strong trap_vector gets a duplicate-symbol
 * link error instead of silently losing one: then call mcuprof_mtimer_isr()
 * from your handler on the machine timer interrupt.
 */
    .section .text.trap_vector, "ax", @progbits
    .balign 4
    .global trap_vector
    .type   trap_vector, @function
trap_vector:
    j       mcuprof_trap_entry
    .size   trap_vector, . - trap_vector

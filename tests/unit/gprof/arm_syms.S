/*
 * Symbols the function table must read the way gprof does (test_trust):
 * a Thumb function followed by padding, aliases at one address, an untyped
 * local label, a literal pool with its $d mapping symbol, _mcount (which
 * gprof hides) and a last function that ends its section.
 */
    .syntax unified
    .thumb
    .text

    .balign 16
    .global main_fn             /* the linker script's entry */
    .set main_fn, sym_first
    .global sym_first
    .type sym_first, %function
    .thumb_func
sym_first:                      /* 6 bytes, then padding to 16 */
    nop
    nop
    bx lr
    .size sym_first, . - sym_first

    .balign 16
    .global _sym_alias_u
    .type _sym_alias_u, %function
    .global sym_alias
    .type sym_alias, %function
    .type sym_alias_local, %function
    .thumb_func
_sym_alias_u:
    .thumb_func
sym_alias:
    .thumb_func
sym_alias_local:
    ldr r0, 1f
    bx lr
sym_label:
    nop
    nop
    .balign 4
1:  .word 0x12345678
    .size sym_alias, . - sym_alias
    .size _sym_alias_u, . - _sym_alias_u
    .size sym_alias_local, . - sym_alias_local

    .balign 16
    .global _mcount
    .type _mcount, %function
    .thumb_func
_mcount:
    bx lr
    .size _mcount, . - _mcount

    .balign 16
    .global sym_last
    .type sym_last, %function
    .thumb_func
sym_last:
    nop
    bx lr
    .size sym_last, . - sym_last

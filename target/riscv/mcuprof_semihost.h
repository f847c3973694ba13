/*
 * mcuprof_semihost.h - the RISC-V semihosting trap, for the runtime
 * (mcuprof_arch.h includes it) and for board code that calls semihosting
 * itself. Freestanding: <stdint.h> only; from assembly, the constants.
 * RV32 and RV64: the argument block's fields are XLEN wide (uintptr_t).
 *
 * The trap of the RISC-V semihosting spec is an ebreak between two marker
 * instructions, slli x0,x0,0x1f; ebreak; srai x0,x0,7, uncompressed, so a
 * debugger can recognise it. QEMU does only when the three lie in one
 * page, so the sequence is 16-byte aligned (12 bytes: never across a page
 * boundary). A debugger (or QEMU with -semihosting) performs the call and
 * resumes after the ebreak. Without one the ebreak raises a breakpoint
 * exception (mcause 3, mepc at the ebreak); mcuprof_trap (mtimer.c)
 * recognises the sequence by the MCUPROF_SEMIHOST_INSN_* words, returns -1
 * in a0 and resumes at the srai.
 */
#ifndef MCUPROF_SEMIHOST_H
#define MCUPROF_SEMIHOST_H

#include "../common/mcuprof_semihost_ops.h"

/* The sequence's three words, in order */
#define MCUPROF_SEMIHOST_INSN_SLLI 0x01f01013u /* slli x0, x0, 0x1f */
#define MCUPROF_SEMIHOST_INSN_EBREAK 0x00100073u
#define MCUPROF_SEMIHOST_INSN_SRAI 0x40705013u /* srai x0, x0, 7 */

#if !defined(__ASSEMBLER__)
#include <stdint.h>

/* One semihosting call: operation OP (MCUPROF_SEMIHOST_SYS_*) with the
 * argument block ARGS; returns a0, -1 when no debugger answered. */
__attribute__((no_instrument_function, always_inline)) static inline intptr_t
mcuprof_port_semihost(uintptr_t op, const uintptr_t *args)
{
    register uintptr_t a0 __asm__("a0") = op;
    register const uintptr_t *a1 __asm__("a1") = args;
    /* align before norvc: the padding may then use 2-byte nops, which the
     * linker's relaxation needs when the code before ends on a halfword */
    __asm__ volatile(".option push\n\t"
                     ".balign 16\n\t"
                     ".option norvc\n\t"
                     "slli x0, x0, 0x1f\n\t"
                     "ebreak\n\t"
                     "srai x0, x0, 7\n\t"
                     ".option pop"
                     : "+r"(a0)
                     : "r"(a1)
                     : "memory");
    return (intptr_t)a0;
}
#endif /* !__ASSEMBLER__ */

#endif /* MCUPROF_SEMIHOST_H */

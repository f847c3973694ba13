/*
 * mcuprof_semihost.h - the Cortex-M semihosting trap, for the runtime
 * (mcuprof_arch.h includes it) and for board code that calls semihosting
 * itself. Freestanding: <stdint.h> only; from assembly, the constants.
 *
 * The trap is BKPT 0xAB on every M profile. A debugger (or QEMU with
 * -semihosting) performs the call and resumes after the BKPT. Without one
 * the BKPT escalates to HardFault (DebugMonitor is off), and
 * mcuprof_hardfault_isr (hardfault_isr.S) recognises the instruction by
 * MCUPROF_SEMIHOST_BKPT_INSN, skips it and returns -1 in r0.
 */
#ifndef MCUPROF_SEMIHOST_H
#define MCUPROF_SEMIHOST_H

#include "../common/mcuprof_semihost_ops.h"

/* The Thumb encoding of BKPT 0xAB, one halfword */
#define MCUPROF_SEMIHOST_BKPT_INSN 0xBEABu

#if !defined(__ASSEMBLER__)
#include <stdint.h>

/* One semihosting call: operation OP (MCUPROF_SEMIHOST_SYS_*) with the
 * argument block ARGS; returns r0, -1 when no debugger answered. */
__attribute__((no_instrument_function, always_inline)) static inline intptr_t
mcuprof_port_semihost(uintptr_t op, const uintptr_t *args)
{
    register uintptr_t r0 __asm__("r0") = op;
    register const uintptr_t *r1 __asm__("r1") = args;
    __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
    return (intptr_t)r0;
}
#endif /* !__ASSEMBLER__ */

#endif /* MCUPROF_SEMIHOST_H */

/*
 * callsite.h - map the addresses the target records to what gprof needs.
 *
 * The hook records frompc as a return address: the instruction after the
 * call. When the call is the last instruction of a function (a call to a
 * noreturn function, or any call the compiler put at the very end), that
 * return address is the first byte of the NEXT function, and gprof, which
 * looks the call site up in the symbol table, would blame the wrong caller.
 * Two bytes back from the return address always lands inside the call
 * instruction itself, on both architectures:
 *   - ARM Thumb: bl and blx are 4 bytes (blx register is 2); the return
 *     address carries the Thumb bit, so clear it first: (frompc & ~1) - 2.
 *   - RISC-V: jal/jalr are 4 bytes and c.jal/c.jalr 2: frompc - 2.
 * selfpc on ARM also carries the Thumb bit; it is cleared so the address
 * is an even instruction address. RISC-V selfpc is used as is.
 *
 * Any call instruction of 2 bytes or more contains its return address
 * minus 2; each architecture's table entry (arch.h) gives the bits to
 * clear first (isa_bits) and where code ends (not_code).
 *
 * A frompc that cannot be a code address is written as 0: 0 itself (no
 * caller), values below 2, and on ARM everything at or above 0xF0000000,
 * which holds the EXC_RETURN values an interrupt handler's hook sees as
 * its "return address". gprof finds no symbol for 0 and drops the arc: the
 * callee then shows <spontaneous> as its parent, which is the truth for an
 * interrupt handler, but gprof also leaves those calls out of the callee's
 * call count (binutils 2.40, checked with arm-none-eabi-gprof). No other
 * value does better: any address gprof can resolve invents a caller, and
 * pointing the arc at the callee itself shows the calls as recursion.
 * `mcuprof info` reports how many calls came from outside code.
 */
#ifndef MCUPROF_CALLSITE_H
#define MCUPROF_CALLSITE_H

#include <stdint.h>

/* Non-zero if the machine has a known call-site rule (is in the table). */
int mp_callsite_known(uint16_t machine);

/* Non-zero if FROMPC cannot be a return address into code. */
int mp_frompc_outside_code(uint16_t machine, uint64_t frompc);

/* The call-site address written to gmon.out for a recorded FROMPC. */
uint64_t mp_callsite(uint16_t machine, uint64_t frompc);

/* The callee address written to gmon.out for a recorded SELFPC. */
uint64_t mp_selfpc(uint16_t machine, uint64_t selfpc);

#endif /* MCUPROF_CALLSITE_H */

/*
 * mcount_riscv.c - the classic _mcount on RISC-V: GCC calls it like any
 * function (`mv a0,ra; call _mcount`), so it needs no assembly entry:
 * a0 is the call site in the caller, the return address is self.
 */
#include "gmon_classic.h"

__attribute__((no_instrument_function)) void _mcount(uintptr_t frompc)
{
    classic_mcount(frompc, (uintptr_t)__builtin_return_address(0));
}

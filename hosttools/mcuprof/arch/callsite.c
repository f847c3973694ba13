#include "callsite.h"

#include "arch.h"

/* Bytes from a return address back into its call instruction; see
 * callsite.h for why 2 works for every call form on every machine. */
#define BACK_INTO_CALL 2u

int mp_callsite_known(uint16_t machine)
{
    return mp_arch_of(machine) != NULL;
}

int mp_frompc_outside_code(uint16_t machine, uint64_t frompc)
{
    const struct mp_arch *a = mp_arch_of(machine);

    frompc = mp_code_addr(machine, frompc);
    if (a && a->not_code && frompc >= a->not_code)
        return 1;
    return frompc < BACK_INTO_CALL;
}

uint64_t mp_callsite(uint16_t machine, uint64_t frompc)
{
    if (frompc == 0)
        return 0;
    if (!mp_callsite_known(machine))
        return frompc;
    if (mp_frompc_outside_code(machine, frompc))
        return 0;
    return mp_code_addr(machine, frompc) - BACK_INTO_CALL;
}

uint64_t mp_selfpc(uint16_t machine, uint64_t selfpc)
{
    return mp_code_addr(machine, selfpc);
}

#include "callsite.h"

#include <mcuprof/image.h>

/* Bytes from a return address back into its call instruction; see
 * callsite.h for why 2 works for every call form on both machines. */
#define BACK_INTO_CALL 2u

int mp_callsite_known(uint16_t machine)
{
    return machine == MCUPROF_MACHINE_ARM || machine == MCUPROF_MACHINE_RISCV;
}

int mp_frompc_outside_code(uint16_t machine, uint64_t frompc)
{
    if (machine == MCUPROF_MACHINE_ARM) {
        frompc &= ~(uint64_t)1;
        if (frompc >= MP_ARM_NOT_CODE)
            return 1;
    }
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
    if (machine == MCUPROF_MACHINE_ARM)
        frompc &= ~(uint64_t)1;
    return frompc - BACK_INTO_CALL;
}

uint64_t mp_selfpc(uint16_t machine, uint64_t selfpc)
{
    if (machine == MCUPROF_MACHINE_ARM)
        return selfpc & ~(uint64_t)1;
    return selfpc;
}

/*
 * context_name.c - readable names of the sample contexts (mcuprof/image.h
 * MCUPROF_CTX_*): the runtime's own kinds here, the handlers' from the
 * table of architectures (Cortex-M exception numbers, RISC-V trap causes).
 */
#include <stdio.h>

#include "arch.h"
#include "model.h"

const char *mp_context_name(uint16_t machine, uint32_t key, char *buf, size_t size)
{
    uint32_t n = key & MCUPROF_CTX_NUMBER_Msk;
    const struct mp_arch *a;

    (void)machine; /* the key's kind says the architecture */
    switch (key & MCUPROF_CTX_KIND_Msk) {
    case MCUPROF_CTX_THREAD:
        snprintf(buf, size, n ? "thread %u" : "thread", (unsigned)n);
        return buf;
    case MCUPROF_CTX_IDLE:
        snprintf(buf, size, n == 1 ? "idle, periods slept through" : n ? "idle %u" : "idle", (unsigned)n);
        return buf;
    case MCUPROF_CTX_HOOK:
        snprintf(buf, size, "call hook");
        return buf;
    default:
        for (size_t i = 0; (a = mp_arch_at(i)) != NULL; i++) {
            if (a->context_name(key, buf, size))
                return buf;
        }
        snprintf(buf, size, "context 0x%08x", (unsigned)key);
        return buf;
    }
}

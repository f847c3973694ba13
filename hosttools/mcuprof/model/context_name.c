/*
 * context_name.c - readable names of the sample contexts (mcuprof/image.h
 * MCUPROF_CTX_*): Cortex-M exception numbers and RISC-V trap causes.
 */
#include <stdio.h>

#include "model.h"

static const char *arm_exception(uint32_t n)
{
    static const char *const names[16] = {
        NULL, "Reset", "NMI", "HardFault", "MemManage", "BusFault", "UsageFault", "SecureFault",
        NULL, NULL, NULL, "SVCall", "DebugMonitor", NULL, "PendSV", "SysTick",
    };

    return n < 16 ? names[n] : NULL;
}

static const char *rv_interrupt(uint32_t code)
{
    switch (code) {
    case 1: return "supervisor software interrupt";
    case 3: return "machine software interrupt";
    case 5: return "supervisor timer interrupt";
    case 7: return "machine timer interrupt";
    case 9: return "supervisor external interrupt";
    case 11: return "machine external interrupt";
    default: return NULL;
    }
}

static const char *rv_exception(uint32_t code)
{
    static const char *const names[16] = {
        "instruction address misaligned", "instruction access fault", "illegal instruction", "breakpoint",
        "load address misaligned", "load access fault", "store address misaligned", "store access fault",
        "ecall from U-mode", "ecall from S-mode", NULL, "ecall from M-mode",
        "instruction page fault", "load page fault", NULL, "store page fault",
    };

    return code < 16 ? names[code] : NULL;
}

const char *mp_context_name(uint16_t machine, uint32_t key, char *buf, size_t size)
{
    uint32_t n = key & MCUPROF_CTX_NUMBER_Msk;
    const char *name = NULL;

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
    case MCUPROF_CTX_ARM_EXCEPTION:
        if (n >= 16)
            snprintf(buf, size, "IRQ %u", (unsigned)(n - 16));
        else if ((name = arm_exception(n)))
            snprintf(buf, size, "%s", name);
        else
            snprintf(buf, size, "exception %u", (unsigned)n);
        return buf;
    case MCUPROF_CTX_RV_INTERRUPT:
        if ((name = rv_interrupt(n)))
            snprintf(buf, size, "%s", name);
        else
            snprintf(buf, size, "interrupt %u", (unsigned)n);
        return buf;
    case MCUPROF_CTX_RV_EXCEPTION:
        if ((name = rv_exception(n)))
            snprintf(buf, size, "%s", name);
        else
            snprintf(buf, size, "exception %u", (unsigned)n);
        return buf;
    default:
        snprintf(buf, size, "context 0x%08x", (unsigned)key);
        return buf;
    }
}

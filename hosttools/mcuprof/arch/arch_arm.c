/*
 * arch_arm.c - 32-bit ARM (Cortex-M, Thumb code) in the table of
 * architectures (arch.h).
 */
#include <stdio.h>
#include <string.h>

#include <mcuprof/image.h>

#include "arch.h"
#include "check_model.h"

static const char *exception_name(uint32_t n)
{
    static const char *const names[16] = {
        NULL, "Reset", "NMI", "HardFault", "MemManage", "BusFault", "UsageFault", "SecureFault",
        NULL, NULL, NULL, "SVCall", "DebugMonitor", NULL, "PendSV", "SysTick",
    };

    return n < 16 ? names[n] : NULL;
}

/* Exception numbers as IPSR has them: 16 + n is IRQ n. */
static const char *context_name(uint32_t key, char *buf, size_t size)
{
    uint32_t n = key & MCUPROF_CTX_NUMBER_Msk;
    const char *name;

    if ((key & MCUPROF_CTX_KIND_Msk) != MCUPROF_CTX_ARM_EXCEPTION)
        return NULL;
    if (n >= 16)
        snprintf(buf, size, "IRQ %u", (unsigned)(n - 16));
    else if ((name = exception_name(n)))
        snprintf(buf, size, "%s", name);
    else
        snprintf(buf, size, "exception %u", (unsigned)n);
    return buf;
}

/* NVIC priorities: a handler as urgent as SysTick, or more, holds it off. */
static void blocker_advice(const struct mp_arch_blocker *b, char *buf, size_t size)
{
    int irqn = (int)b->number - 16;
    const char *rel = b->priority == b->sampler_priority ? "as urgent as" : "more urgent than";
    size_t len;

    if (b->changed)
        snprintf(buf, size, " was enabled at priority 0x%02x, %s the sampler's (SysTick 0x%02x), for part of the"
                 " run (its priority changed during the run, or it was disabled): while so, SysTick could not"
                 " preempt its handler, whose time is %s.",
                 b->priority, rel, b->sampler_priority, b->handler_time);
    else
        snprintf(buf, size, " is enabled at priority 0x%02x, %s the sampler's (SysTick 0x%02x): SysTick cannot"
                 " preempt its handler, whose time is %s.",
                 b->priority, rel, b->sampler_priority, b->handler_time);
    len = strlen(buf);
    /* 1 is less urgent than 0 whatever the priority bits the core has;
     * a sampler below the most urgent level needs raising first. */
    if (b->sampler_priority == 0)
        snprintf(buf + len, size - len, " Give it a less urgent priority, e.g. NVIC_SetPriority(%d, 1)", irqn);
    else
        snprintf(buf + len, size - len, " Make SysTick the most urgent and it less urgent, e.g."
                 " NVIC_SetPriority(SysTick_IRQn, 0); NVIC_SetPriority(%d, 1)", irqn);
}

/* The Cortex-M memory map: peripherals, and the system region (the PPB
 * and vendor system space); RAM is elsewhere. */
static const struct mp_arch_span not_ram[] = {
    {0x40000000u, 0x60000000u, "the peripheral region"},
    {0xE0000000u, 0x100000000u, "the system region (PPB, vendor system space)"},
    {0, 0, NULL},
};

/* ARM's entry of the table (arch.h); every architecture's has these fields. */
const struct mp_arch mp_arch_arm = {
    .machine = MCUPROF_MACHINE_ARM,
    .name = "ARM",
    .elf64 = 0,
    /* Thumb code addresses carry the Thumb bit; EXC_RETURN values and the
     * system region (PPB, vendor system space) of the Cortex-M memory map
     * are no code. */
    .isa_bits = 1,
    .not_code = 0xF0000000u,
    .callsite_rule = "(frompc & ~1) - 2, inside the call instruction; non-code callers as 0",
    .hook = "__gnu_mcount_nc",
    .gdb_pc_regnum = 15,
    /* DWT_PCSR: 0xFFFFFFFF while the core is halted or sleeping, reads as
     * zero where the DWT has none (ARMv7-M ARM C1.8.8) */
    .pc_sample_reg = 0xE000101Cu,
    .check_scan = ck_scan_thumb,
    .check_sampler = ck_check_vectors,
    .vector_table = ck_thumb_vector_table,
    .not_ram = not_ram,
    .context_name = context_name,
    /* 16 + 496 interrupts at most (ARMv7-M, ARMv8-M) */
    .interrupt_kind = MCUPROF_CTX_ARM_EXCEPTION,
    .interrupt_min = 1,
    .interrupt_max = 511,
    .interrupt_what = "an ARM exception",
    .interrupt_range = "1..511 (0x10000000 | number)",
    .interrupt_number = "exception",
    .held_off_by = "a handler not in the NVIC scan (a fault, SVCall or PendSV at SysTick's priority) or FAULTMASK",
    .blocker_advice = blocker_advice,
};

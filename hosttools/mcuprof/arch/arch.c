/*
 * arch.c - the table of architectures (arch.h) and the look-ups every
 * layer above makes in it.
 */
#include "arch.h"

#include <stdio.h>
#include <string.h>

#include <mcuprof/image.h>

/* One entry per file arch_*.c. The order is the order of every list the
 * tool prints ("neither 32-bit ARM nor RISC-V"). */
extern const struct mp_arch mp_arch_arm, mp_arch_riscv;

static const struct mp_arch *const arches[] = {&mp_arch_arm, &mp_arch_riscv};
#define NARCHES (sizeof(arches) / sizeof(arches[0]))

const struct mp_arch *mp_arch_at(size_t i)
{
    return i < NARCHES ? arches[i] : NULL;
}

const struct mp_arch *mp_arch_of(uint16_t machine)
{
    for (size_t i = 0; i < NARCHES; i++) {
        if (arches[i]->machine == machine)
            return arches[i];
    }
    return NULL;
}

const struct mp_arch *mp_arch_of_interrupt(uint32_t source)
{
    for (size_t i = 0; i < NARCHES; i++) {
        if ((source & MCUPROF_CTX_KIND_Msk) == arches[i]->interrupt_kind)
            return arches[i];
    }
    return NULL;
}

const char *mp_machine_name(uint16_t machine)
{
    const struct mp_arch *a = mp_arch_of(machine);

    return a ? a->name : NULL;
}

uint64_t mp_code_addr(uint16_t machine, uint64_t addr)
{
    const struct mp_arch *a = mp_arch_of(machine);

    return a ? addr & ~a->isa_bits : addr;
}

int mp_arch_is_hook(const char *name)
{
    for (size_t i = 0; i < NARCHES; i++) {
        if (strcmp(name, arches[i]->hook) == 0)
            return 1;
    }
    return 0;
}

static int interrupt_of(const struct mp_arch *a, uint32_t source)
{
    uint32_t n = source & MCUPROF_CTX_NUMBER_Msk;

    return (source & MCUPROF_CTX_KIND_Msk) == a->interrupt_kind && n >= a->interrupt_min && n <= a->interrupt_max;
}

int mp_arch_interrupt_ok(uint16_t machine, uint32_t source)
{
    const struct mp_arch *a = mp_arch_of(machine);
    int ok = 0;

    if (a)
        return interrupt_of(a, source);
    for (size_t i = 0; i < NARCHES; i++)
        ok |= interrupt_of(arches[i], source);
    return ok;
}

static void interrupt_what(const struct mp_arch *a, char *buf, size_t size)
{
    snprintf(buf, size, "%s", a->interrupt_what);
}

const char *mp_arch_interrupts(uint16_t machine, char *buf, size_t size)
{
    const struct mp_arch *a = mp_arch_of(machine);

    if (!a)
        return mp_arch_list(buf, size, " or ", interrupt_what);
    snprintf(buf, size, "%s %s", a->interrupt_what, a->interrupt_range);
    return buf;
}

const char *mp_arch_list(char *buf, size_t size, const char *last, mp_arch_item *item)
{
    size_t len = 0;

    buf[0] = '\0';
    for (size_t i = 0; i < NARCHES && len < size; i++) {
        if (i)
            len += (size_t)snprintf(buf + len, size - len, "%s", i + 1 == NARCHES ? last : ", ");
        if (len < size) {
            item(arches[i], buf + len, size - len);
            len += strlen(buf + len);
        }
    }
    return buf;
}

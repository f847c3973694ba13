/*
 * elf_scan.c - a firmware ELF decoded for `check`, `convert` and `report`
 * (elf_scan.h).
 */
#include "elf_scan.h"

#include <stdio.h>
#include <string.h>

#include "diag.h"

/* "32-bit ARM": an architecture `check` reads, with the ELF class it takes. */
static void elf_class_and_name(const struct mp_arch *a, char *buf, size_t size)
{
    snprintf(buf, size, "%s%s", a->elf64 ? "" : "32-bit ", a->name);
}

int mp_elf_scan(struct ck *c, const char *path)
{
    const struct ck_sym *hook;

    memset(c, 0, sizeof(*c));
    c->path = path;
    if (mp_elf_file_open(&c->elf, path) < 0)
        return -1;
    c->file_size = c->elf.size;
    c->is64 = c->elf.is64;
    c->big = c->elf.big;
    c->arch = mp_arch_of(c->elf.machine);
    if (!c->arch || (c->is64 && !c->arch->elf64)) {
        char known[128];

        return mp_error(path, "ELF machine %u is neither %s: not a firmware mcuprof profiles",
                        (unsigned)c->elf.machine, mp_arch_list(known, sizeof(known), " nor ", elf_class_and_name));
    }
    c->hook_name = c->arch->hook;
    if (ck_load(c) < 0)
        return -1;
    hook = ck_sym_named(c, c->hook_name);
    if (!hook || hook->abs)
        return 0;
    c->hook = hook->addr & ~c->arch->isa_bits;
    if (ck_scan_all(c) < 0)
        return -1;
    for (size_t i = 0; i < c->nsyms; i++)
        c->profiled += (unsigned)(c->syms[i].func && c->syms[i].size && c->syms[i].profiled);
    return 0;
}

void mp_elf_scan_done(struct ck *c)
{
    mp_elf_file_close(&c->elf);
    ck_free(c);
}

/*
 * elf_scan.c - a firmware ELF decoded for `check`, `convert` and `report`
 * (elf_scan.h).
 */
#include "elf_scan.h"

#include <gelf.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "diag.h"
#include "elf_info.h"

/* "32-bit ARM": an architecture `check` reads, with the ELF class it takes. */
static void elf_class_and_name(const struct mp_arch *a, char *buf, size_t size)
{
    snprintf(buf, size, "%s%s", a->elf64 ? "" : "32-bit ", a->name);
}

int mp_elf_scan(struct ck *c, const char *path, int *fd)
{
    GElf_Ehdr eh;
    const struct ck_sym *hook;
    struct stat st;

    memset(c, 0, sizeof(*c));
    c->path = path;
    *fd = -1;
    if (mp_elf_open(path, fd, &c->elf) < 0)
        return -1;
    if (fstat(*fd, &st) == 0 && S_ISREG(st.st_mode))
        c->file_size = (uint64_t)st.st_size;
    if (!gelf_getehdr(c->elf, &eh))
        return mp_error(path, "unreadable ELF header: %s", elf_errmsg(-1));
    c->is64 = eh.e_ident[EI_CLASS] == ELFCLASS64;
    c->big = eh.e_ident[EI_DATA] == ELFDATA2MSB;
    c->arch = mp_arch_of(eh.e_machine);
    if (!c->arch || (c->is64 && !c->arch->elf64)) {
        char known[128];

        return mp_error(path, "ELF machine %u is neither %s: not a firmware mcuprof profiles",
                        (unsigned)eh.e_machine, mp_arch_list(known, sizeof(known), " nor ", elf_class_and_name));
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

void mp_elf_scan_done(struct ck *c, int fd)
{
    if (c->elf || fd >= 0)
        mp_elf_close(fd, c->elf);
    c->elf = NULL;
    ck_free(c);
}

/*
 * dwarf_cu.c - the compilation unit of a function (dwarf_cu.h), through
 * libdw: .debug_aranges when the ELF has it, else every unit's address
 * ranges.
 */
#include "dwarf_cu.h"

#include <string.h>

#include <elfutils/libdw.h>

#include "elf_info.h"

/* The unit whose ranges hold ADDR, or NULL. */
static Dwarf_Die *unit_at(Dwarf *dw, Dwarf_Addr addr, Dwarf_Die *die)
{
    Dwarf_Off off = 0, next;
    size_t hsize;

    if (dwarf_addrdie(dw, addr, die))
        return die;
    /* no .debug_aranges entry: look at each unit's own ranges */
    while (dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
        if (dwarf_offdie(dw, off + hsize, die) && dwarf_haspc(die, addr) > 0)
            return die;
        off = next;
    }
    return NULL;
}

int mp_dwarf_cu_files(struct mp_model *m, const long *idx, size_t n, const char **file)
{
    Dwarf *dw;
    Elf *elf;
    int fd, ret = 0;
    size_t k;

    for (k = 0; k < n; k++)
        file[k] = NULL;
    /* the ELF was read once already: it opens, or the names stay bare */
    if (!m->elf_path || mp_elf_open(m->elf_path, &fd, &elf) < 0)
        return 0;
    if (!(dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL)))
        goto out;
    for (k = 0; k < n; k++) {
        Dwarf_Die die;
        const char *name, *base;

        if (!unit_at(dw, m->funcs[idx[k]].addr, &die) || !(name = dwarf_diename(&die)))
            continue;
        base = strrchr(name, '/');
        if (!(file[k] = mp_model_strdup(m, base ? base + 1 : name))) {
            ret = -1;
            break;
        }
    }
    dwarf_end(dw);
out:
    mp_elf_close(fd, elf);
    return ret;
}

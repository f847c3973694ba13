/*
 * dwarf_cu.c - the compilation unit of a function (dwarf_cu.h), through
 * libdw: .debug_aranges when the ELF has it, else every unit's address
 * ranges.
 */
#include "dwarf_cu.h"

#include <string.h>

#include <elfutils/libdw.h>

#include "diag.h"
#include "dwarf_check.h"
#include "dwarf_elf.h"

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

#define NOT_APART "broken DWARF (%s): functions of one name are not told apart by their files"

int mp_dwarf_cu_files(struct mp_model *m, const long *idx, size_t n, const char **file)
{
    struct mp_dwarf_guard g;
    char why[256];
    struct mp_dwarf_elf d;
    Dwarf *dw;
    Elf *elf;
    int ret = 0, r;
    size_t k;

    for (k = 0; k < n; k++)
        file[k] = NULL;
    /* the ELF was read once already: it opens, or the names stay bare */
    if (!m->elf_path || mp_dwarf_elf_open(&d, m->elf_path) < 0)
        return 0;
    elf = d.elf;
    /* libdw reads guarded, checked copies of the sections (dwarf_check.h) */
    if ((r = mp_dwarf_guard(&g, elf, m->elf_path, why, sizeof(why))) != 0) {
        if (r < 0)
            ret = -1;
        else
            mp_warn(m->elf_path, NOT_APART, why);
        goto out;
    }
    if (!(dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL)))
        goto out_guard;
    if ((r = mp_dwarf_check(&g, elf, dw, m->elf_path, why, sizeof(why))) < 0) {
        if (r == -2)
            ret = -1;
        else
            mp_warn(m->elf_path, NOT_APART, why);
        goto out_dw;
    }
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
out_dw:
    dwarf_end(dw);
out_guard:
    mp_dwarf_unguard(&g);
out:
    mp_dwarf_elf_close(&d);
    return ret;
}

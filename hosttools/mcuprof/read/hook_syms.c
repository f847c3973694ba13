/*
 * hook_syms.c - the call hook's mode pointer and entry points, from the
 * firmware's ELF (hook_syms.h).
 */
#include "hook_syms.h"

#include <string.h>

#include <mcuprof/image.h>

#include "diag.h"
#include "elf_info.h"

static const char *const names[] = {"mcuprof_hook_dispatch", "mcuprof_hook_off", "mcuprof_hook_record",
                                    "mcuprof_hook_slow"};
#define NNAMES (sizeof(names) / sizeof(names[0]))

struct hook_scan {
    uint64_t value[NNAMES];
    int found[NNAMES];
};

static void hook_symbol(const struct mp_elf_sym *sym, const char *name, void *arg)
{
    struct hook_scan *h = arg;
    size_t k;

    if (sym->shndx == MP_SHN_UNDEF)
        return;
    for (k = 0; k < NNAMES; k++) {
        if (!h->found[k] && strcmp(name, names[k]) == 0) {
            h->value[k] = sym->value;
            h->found[k] = 1;
        }
    }
}

int mp_hook_syms_read(struct mp_hook_syms *h, const char *path)
{
    struct hook_scan s = {{0}, {0}};
    struct mp_elf_file f;
    size_t k;

    if (mp_elf_file_open(&f, path) < 0)
        return -1;
    for (k = 1; k < f.shnum; k++) {
        if (f.sh[k].type == MP_SHT_SYMTAB)
            mp_elf_each_symbol(&f, k, hook_symbol, &s);
    }
    mp_elf_file_close(&f);
    for (k = 0; k < NNAMES; k++) {
        if (!s.found[k])
            return mp_error(path, "no symbol %s: a stripped ELF, or a runtime without a switchable "
                                  "call hook", names[k]);
    }
    h->dispatch = s.value[0];
    for (k = 0; k < MP_HOOK_NMODES; k++)
        h->entry[k] = s.value[1 + k];
    return 0;
}

enum mp_hook_mode mp_hook_mode_of(uint32_t state)
{
    if (!(state & MCUPROF_STATE_ARCS_Msk))
        return MP_HOOK_OFF;
    return state & MCUPROF_STATE_FROZEN_Msk ? MP_HOOK_SLOW : MP_HOOK_RECORD;
}

int mp_hook_mode_at(const struct mp_hook_syms *h, uint64_t value)
{
    int k;

    for (k = 0; k < MP_HOOK_NMODES; k++) {
        if ((h->entry[k] | 1u) == (value | 1u))
            return k;
    }
    return -1;
}

uint64_t mp_hook_entry_value(const struct mp_hook_syms *h, enum mp_hook_mode mode, uint64_t current)
{
    return (h->entry[mode] & ~(uint64_t)1) | (current & 1u);
}

#include "elf_info.h"

#include <string.h>

#include "elf_note.h"

void mp_elf_each_symbol(const struct mp_elf_file *f, size_t sec, mp_elf_symbol_fn *fn, void *arg)
{
    size_t i, n = mp_elf_symbol_count(f, sec);

    for (i = 0; i < n; i++) {
        struct mp_elf_sym sym;
        const char *name;

        if (mp_elf_symbol(f, sec, i, &sym) < 0)
            break;
        name = mp_elf_string(f, f->sh[sec].link, sym.name);
        if (name)
            fn(&sym, name, arg);
    }
}

struct region_scan {
    struct mp_elf_info *e;
    int have_start, have_end;
};

static void region_symbol(const struct mp_elf_sym *sym, const char *name, void *arg)
{
    struct region_scan *r = arg;

    if (strcmp(name, "__mcuprof_start") == 0) {
        r->e->start = sym->value;
        r->have_start = 1;
    } else if (strcmp(name, "__mcuprof_end") == 0) {
        r->e->end = sym->value;
        r->have_end = 1;
    }
}

int mp_elf_read(struct mp_elf_info *e, const char *path)
{
    struct mp_elf_file f;

    memset(e, 0, sizeof(*e));
    e->path = path;
    if (mp_elf_file_open(&f, path) < 0)
        return -1;
    e->machine = f.machine;
    e->ptr_size = f.is64 ? 8 : 4;
    e->big = f.big;
    /* every symbol table, as a linker writes one (a later one's values win) */
    for (size_t i = 1; i < f.shnum; i++) {
        struct region_scan r = {e, 0, 0};

        if (f.sh[i].type != MP_SHT_SYMTAB)
            continue;
        mp_elf_each_symbol(&f, i, region_symbol, &r);
        if (r.have_start && r.have_end)
            e->has_region = 1;
    }
    e->build_id_len = mp_elf_build_id(&f, e->build_id, sizeof(e->build_id));
    mp_elf_file_close(&f);
    return 0;
}

/*
 * dwarf_elf.c - the ELF handed to libelf for libdw (dwarf_elf.h).
 */
#include "dwarf_elf.h"

#include <stdlib.h>
#include <string.h>

#include "diag.h"

/* libelf over the bytes D->file owns (libelf may write into them when
 * it converts byte order: they are this handle's alone). */
static int begin(struct mp_dwarf_elf *d, const char *path)
{
    if (elf_version(EV_CURRENT) == EV_NONE) {
        mp_error(path, "libelf is unusable: %s", elf_errmsg(-1));
        goto fail;
    }
    d->elf = elf_memory((char *)d->file.owned, d->file.size);
    if (!d->elf || elf_kind(d->elf) != ELF_K_ELF) {
        mp_error(path, "not an ELF file%s%s", d->elf ? "" : ": ", d->elf ? "" : elf_errmsg(-1));
        goto fail;
    }
    return 0;
fail:
    mp_dwarf_elf_close(d);
    return -1;
}

int mp_dwarf_elf_open(struct mp_dwarf_elf *d, const char *path)
{
    d->elf = NULL;
    if (mp_elf_file_open(&d->file, path) < 0)
        return -1;
    return begin(d, path);
}

int mp_dwarf_elf_from_memory(struct mp_dwarf_elf *d, const char *path, const void *buf, size_t size)
{
    uint8_t *copy = malloc(size ? size : 1);

    d->elf = NULL;
    if (!copy)
        return mp_error(path, "out of memory for a %zu-byte ELF", size);
    memcpy(copy, buf, size);
    if (mp_elf_file_from_memory(&d->file, path, copy, size) < 0) {
        free(copy);
        return -1;
    }
    d->file.owned = copy;
    return begin(d, path);
}

void mp_dwarf_elf_close(struct mp_dwarf_elf *d)
{
    if (d->elf)
        elf_end(d->elf);
    d->elf = NULL;
    mp_elf_file_close(&d->file);
}

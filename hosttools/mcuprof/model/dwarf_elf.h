/*
 * dwarf_elf.h - the firmware's ELF opened for libdw: read and checked
 * once by the tool's own reader (elf_file.h), then handed to libelf from
 * memory, so that the DWARF readers (model_lines.c, dwarf_cu.c) see the
 * bytes and refusals the rest of the tool sees.
 */
#ifndef MCUPROF_DWARF_ELF_H
#define MCUPROF_DWARF_ELF_H

#include <libelf.h>

#include "elf_file.h"

struct mp_dwarf_elf {
    struct mp_elf_file file; /* owns the bytes libelf reads */
    Elf *elf;
};

/* Open PATH for libelf. Reports (naming PATH) and returns -1 when it is
 * not a sound ELF (elf_file.h) or libelf refuses it; D holds nothing
 * then. */
int mp_dwarf_elf_open(struct mp_dwarf_elf *d, const char *path);
/* The same for a private copy of SIZE bytes at BUF, named PATH. */
int mp_dwarf_elf_from_memory(struct mp_dwarf_elf *d, const char *path, const void *buf, size_t size);
void mp_dwarf_elf_close(struct mp_dwarf_elf *d);

#endif /* MCUPROF_DWARF_ELF_H */

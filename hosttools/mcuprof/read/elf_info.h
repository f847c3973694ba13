/*
 * elf_info.h - what mcuprof needs from the firmware's ELF (elf_file.h): where
 * the profile image lives (__mcuprof_start, __mcuprof_end) and the GNU
 * build-id, to check that an image comes from this build.
 */
#ifndef MCUPROF_ELF_INFO_H
#define MCUPROF_ELF_INFO_H

#include <stddef.h>
#include <stdint.h>

#include "elf_file.h"
#include <mcuprof/image.h>

struct mp_elf_info {
    const char *path;
    int has_region;           /* both symbols found */
    uint64_t start, end;      /* __mcuprof_start, __mcuprof_end */
    uint8_t build_id[64];
    size_t build_id_len;      /* 0: the ELF has no NT_GNU_BUILD_ID note */
    uint16_t machine;         /* e_machine */
    unsigned ptr_size;        /* 4 (ELFCLASS32) or 8 (ELFCLASS64) */
    int big;                  /* ELFDATA2MSB */
};

/* Read PATH. Reports and returns -1 when it is not a readable ELF; a
 * missing symbol or note is not an error here (see has_region). */
int mp_elf_read(struct mp_elf_info *e, const char *path);

/* Call FN for each symbol of the symbol table section SEC of F that has a
 * name, with ARG passed through. */
typedef void mp_elf_symbol_fn(const struct mp_elf_sym *sym, const char *name, void *arg);
void mp_elf_each_symbol(const struct mp_elf_file *f, size_t sec, mp_elf_symbol_fn *fn, void *arg);

#endif /* MCUPROF_ELF_INFO_H */

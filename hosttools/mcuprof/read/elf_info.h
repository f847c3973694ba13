/*
 * elf_info.h - what mcuprof needs from the firmware's ELF (libelf): where
 * the profile image lives (__mcuprof_start, __mcuprof_end) and the GNU
 * build-id, to check that an image comes from this build.
 */
#ifndef MCUPROF_ELF_INFO_H
#define MCUPROF_ELF_INFO_H

#include <stddef.h>
#include <stdint.h>

#include <gelf.h>
#include <libelf.h>

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

/* Open PATH as an ELF file: *FD and *ELF for libelf's readers, released
 * with mp_elf_close. Reports (naming PATH) and returns -1 when it cannot be
 * opened or is not an ELF file. */
int mp_elf_open(const char *path, int *fd, Elf **elf);
void mp_elf_close(int fd, Elf *elf);

/* Call FN for each symbol of the symbol table section SCN (header SH) that
 * has a name, with ARG passed through. */
typedef void mp_elf_symbol_fn(const GElf_Sym *sym, const char *name, void *arg);
void mp_elf_each_symbol(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh, mp_elf_symbol_fn *fn, void *arg);

#endif /* MCUPROF_ELF_INFO_H */

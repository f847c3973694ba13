/*
 * elf_file.h - a firmware's ELF, read whole into memory and checked once:
 * ELF32 and ELF64, either byte order, its headers turned into the host
 * structs below (64-bit fields whatever the class). The one ELF reader of
 * the tool but for DWARF (libdw, model/dwarf_*.c), on every host: it
 * needs no libelf and no <elf.h> (constants: elf_const.h).
 *
 * Opening checks everything a later read relies on, so that the accessors
 * below need no error path of their own beyond an index out of range:
 *  - the ELF header lies in the file, its class and byte order are known,
 *    e_shentsize and e_phentsize are those of the class;
 *  - the section and program header tables lie in the file (extended
 *    numbering: the count in section 0's sh_size when e_shnum is 0, the
 *    name table's index in its sh_link when e_shstrndx is SHN_XINDEX, the
 *    program header count in its sh_info when e_phnum is PN_XNUM);
 *  - e_shstrndx names a section; every section but SHT_NOBITS and
 *    SHT_NULL lies in the file; a string table ends with a NUL; a symbol
 *    table links to a section, has symbols of its class's size and a size
 *    that is a whole number of them; a note section holds whole notes.
 * Every offset, size and count is checked against the file's size with
 * arithmetic that cannot overflow. A file that fails is one error (diag.h)
 * naming the file and the field, and the open fails.
 *
 * Memory: the file's bytes, plus one struct per section and segment (at
 * most one per 40 and 32 bytes of the file: the tables lie inside it).
 */
#ifndef MCUPROF_ELF_FILE_H
#define MCUPROF_ELF_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "elf_const.h"

/* The largest ELF the tool reads (whole, into memory). */
#define MP_ELF_FILE_MAX ((size_t)1 << 31)

struct mp_elf_shdr {
    uint32_t name, type, link, info;
    uint64_t flags, addr, offset, size, addralign, entsize;
};

struct mp_elf_phdr {
    uint32_t type, flags;
    uint64_t offset, vaddr, paddr, filesz, memsz, align;
};

struct mp_elf_sym {
    uint32_t name;
    unsigned char info, other;
    uint16_t shndx; /* as the file has it: SHN_XINDEX is not resolved */
    uint64_t value, size;
};

struct mp_elf_file {
    const char *path;      /* for messages */
    const uint8_t *data;   /* the whole file */
    size_t size;
    uint8_t *owned;        /* data, when read from a path */
    int is64;              /* ELFCLASS64 */
    int big;               /* ELFDATA2MSB */
    uint16_t type, machine;
    uint32_t flags;        /* e_flags */
    uint64_t entry;
    struct mp_elf_shdr *sh; /* sh[0] is the null section */
    size_t shnum;          /* 0: no section header table */
    size_t shstrndx;       /* 0: no section names */
    struct mp_elf_phdr *ph;
    size_t phnum;
};

/* Read the ELF at PATH (base/file_io.h) and check it (above). Reports,
 * naming PATH, and returns -1 when it cannot be read or is not a sound
 * ELF; F holds nothing then. */
int mp_elf_file_open(struct mp_elf_file *f, const char *path);
/* The same for the SIZE bytes at DATA (kept, not copied: they must
 * outlive F), named PATH in messages. */
int mp_elf_file_from_memory(struct mp_elf_file *f, const char *path, const void *data, size_t size);
void mp_elf_file_close(struct mp_elf_file *f);

/* The bytes of section I, their count in *LEN; NULL (and *LEN 0) for
 * SHT_NOBITS, SHT_NULL, an empty section or I out of range. */
const uint8_t *mp_elf_section_data(const struct mp_elf_file *f, size_t i, size_t *len);
/* Section I's name, NULL when I is out of range or the file names no
 * sections. */
const char *mp_elf_section_name(const struct mp_elf_file *f, size_t i);
/* The index of the first section named NAME, 0 when none is. */
size_t mp_elf_section_named(const struct mp_elf_file *f, const char *name);
/* The string at OFF of the string table section STRTAB (as libelf's
 * elf_strptr): NULL when STRTAB is not an SHT_STRTAB section or OFF lies
 * past its end. */
const char *mp_elf_string(const struct mp_elf_file *f, size_t strtab, uint64_t off);

/* The symbols of the symbol table section I (SHT_SYMTAB or SHT_DYNSYM;
 * 0 for any other section), and its symbol K: 0, or -1 when K is out of
 * range. */
size_t mp_elf_symbol_count(const struct mp_elf_file *f, size_t i);
int mp_elf_symbol(const struct mp_elf_file *f, size_t i, size_t k, struct mp_elf_sym *sym);

#endif /* MCUPROF_ELF_FILE_H */

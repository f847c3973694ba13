/*
 * elf_const.h - the ELF constants mcuprof reads, under names of its own
 * (MP_ prefixed) so that they clash with no system <elf.h>, which some
 * hosts (mingw-w64) do not have. Values from the System V gABI and the
 * processor supplements.
 */
#ifndef MCUPROF_ELF_CONST_H
#define MCUPROF_ELF_CONST_H

/* e_ident */
#define MP_EI_CLASS 4
#define MP_EI_DATA 5
#define MP_ELFCLASS32 1
#define MP_ELFCLASS64 2
#define MP_ELFDATA2LSB 1
#define MP_ELFDATA2MSB 2

/* e_machine */
#define MP_EM_ARM 40
#define MP_EM_RISCV 243

/* special section indexes */
#define MP_SHN_UNDEF 0
#define MP_SHN_LORESERVE 0xff00
#define MP_SHN_ABS 0xfff1
#define MP_SHN_COMMON 0xfff2
#define MP_SHN_XINDEX 0xffff

/* sh_type */
#define MP_SHT_NULL 0
#define MP_SHT_PROGBITS 1
#define MP_SHT_SYMTAB 2
#define MP_SHT_STRTAB 3
#define MP_SHT_NOTE 7
#define MP_SHT_NOBITS 8
#define MP_SHT_DYNSYM 11
#define MP_SHT_SYMTAB_SHNDX 18
#define MP_SHT_ARM_ATTRIBUTES 0x70000003

/* sh_flags */
#define MP_SHF_WRITE 0x1
#define MP_SHF_ALLOC 0x2
#define MP_SHF_EXECINSTR 0x4
#define MP_SHF_COMPRESSED 0x800

/* st_info */
#define MP_STB_LOCAL 0
#define MP_STB_GLOBAL 1
#define MP_STB_WEAK 2
#define MP_STT_NOTYPE 0
#define MP_STT_OBJECT 1
#define MP_STT_FUNC 2
#define MP_STT_SECTION 3
#define MP_STT_FILE 4
#define MP_ELF_ST_BIND(info) ((unsigned)(info) >> 4)
#define MP_ELF_ST_TYPE(info) ((unsigned)(info)&0xf)

/* p_type */
#define MP_PT_LOAD 1
#define MP_PT_NOTE 4

/* note types (of the "GNU" owner) */
#define MP_NT_GNU_BUILD_ID 3

/* e_flags of ARM: the hard-float procedure call standard */
#define MP_EF_ARM_ABI_FLOAT_HARD 0x400

#endif /* MCUPROF_ELF_CONST_H */

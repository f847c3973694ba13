/*
 * elf_funcs.h - the firmware's functions as gprof sees them.
 *
 * The time report must charge each histogram bin to the same names, in
 * the same proportions, as the flat profile the user reads, so the table
 * follows binutils gprof (corefile.c core_sym_class and
 * core_create_function_syms, symtab.c symtab_finalize, gprof.c's default
 * exclusions) rather than the ELF symbol sizes:
 *
 *  - every named symbol in an executable section counts (global, weak and
 *    local ones; FUNC and untyped labels), except local names containing
 *    '$' or starting with '.' (ARM/RISC-V mapping symbols $t/$d/$x, .L
 *    labels), section and file symbols; the Thumb bit of ARM function
 *    symbols is cleared. Unlike gprof, GCC's clones and cold parts
 *    (foo.constprop.0, foo.isra.0, foo.part.0, foo.cold: clone_names.h)
 *    are functions of their own: gprof drops most of them and charges
 *    their time and calls to the nearest symbol before them that it
 *    keeps (gprof_drops says which);
 *  - of several symbols at one address one survives: global before local,
 *    then a function before a label, then the name without a leading
 *    underscore (gprof's duplicate rule); but where that makes a label
 *    (a linker script's global __data_start) win over a static function,
 *    mcuprof names the function and keeps the label as gprof_name;
 *  - a symbol extends to the next symbol's address, so padding after a
 *    function belongs to it; the last one extends to the end of its
 *    section. Addresses below the first symbol or past that end belong to
 *    no function (gprof's <locore> and <hicore>);
 *  - names gprof excludes by default (mcount, _mcount, ...) are "hidden":
 *    gprof drops their samples from its total.
 *
 * st_size is kept for reports only. Reading costs O(s log s + t) for s
 * symbols and a string table of t bytes, whatever names the symbols share
 * (local_names.h); memory: the table twice and s entries.
 */
#ifndef MCUPROF_ELF_FUNCS_H
#define MCUPROF_ELF_FUNCS_H

#include <stddef.h>
#include <stdint.h>

struct mp_func {
    uint64_t addr;    /* first byte */
    uint64_t end;     /* gprof's extent: the next symbol's address */
    uint64_t size;    /* st_size (0 for a label) */
    const char *name; /* in the table's string pool */
    unsigned char is_static, is_func, hidden;
    unsigned char gprof_drops; /* binutils 2.40 gprof rejects the name */
    const char *gprof_name;    /* NULL, or the label at its address that gprof
                                * names it by (a global label beats a static
                                * function there); mcuprof names the function */
};

struct mp_functab {
    const char *path;
    uint16_t machine; /* e_machine */
    unsigned ptr_size; /* 4 (ELFCLASS32) or 8 */
    struct mp_func *f; /* sorted by address, duplicates resolved */
    size_t n;
    char *pool;
};

/* Read PATH's symbol table. Reports an error naming PATH and returns -1
 * when PATH is not an ELF file or has no symbol in executable code. */
int mp_functab_read(struct mp_functab *t, const char *path);
void mp_functab_free(struct mp_functab *t);

/* Non-zero when NAME is the runtime's own code (the call hook of either
 * architecture and its entry points, the sampler's entries: mcuprof_*,
 * but not the *_chain functions a firmware supplies). Bins these share
 * among themselves are one piece of assembly: nothing a user can align. */
int mp_runtime_symbol(const char *name);

/* Non-zero when gprof excludes NAME from its flat profile by default. */
int mp_gprof_hides(const char *name);

#endif /* MCUPROF_ELF_FUNCS_H */

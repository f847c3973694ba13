/*
 * check_model.h - what `mcuprof check` reads from a firmware ELF (see
 * cmd_check.c): symbols sorted by address, the code of the allocated
 * sections, and the branches found while decoding; the decoders of each
 * instruction set (check_thumb.c, check_riscv.c, named by the table of
 * architectures, arch.h) fill it, the checks in cmd_check.c read it.
 *
 * Bounded by design, whatever the ELF: each byte of code is decoded once
 * (ck_scan_all gives it to one function, check_sweep.c), lookups by
 * address are binary searches, so reading is O((symbols + branches) log
 * symbols + code bytes). Memory: the symbols of the one symbol table (at
 * most one per 16 bytes of the file; a struct ck_sym, a sweep slot and a
 * demangled name each), the section table, and one struct ck_branch per
 * jump or call that lands on another function's entry, at most one per 2
 * bytes of code; the code itself is the file's (elf_file.h), read once
 * (sections whose bytes add up to more than the file are refused).
 */
#ifndef MCUPROF_CHECK_MODEL_H
#define MCUPROF_CHECK_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "arch.h"
#include "diag.h"
#include "elf_file.h"

struct ck_sym {
    uint64_t addr, size;
    const char *name;   /* as findings show it: demangled (cxx_demangle.h) */
    const char *symbol; /* as the ELF spells it, what lookups compare */
    char *demangled;    /* owned: name when it differs from symbol */
    int func;     /* STT_FUNC in an executable section */
    int abs;      /* SHN_ABS: a linker-defined number */
    int profiled; /* calls the hook */
    int range;    /* why a function's code is not decoded: CK_RANGE_* */
    unsigned shndx; /* its section */
    size_t index; /* in the symbol table: sorting ties break by it */
};

/* A function symbol whose range cannot be read: its end wraps around the
 * address space, or it leaves its section. Not decoded; `check` says so. */
enum { CK_RANGE_OK, CK_RANGE_WRAPS, CK_RANGE_OUTSIDE };

struct ck_sec {
    uint64_t addr, size;
    const unsigned char *bytes;
    const char *name;
};

/* A jump or call to the entry of another function (only those are kept). */
struct ck_branch {
    size_t from, to; /* indexes in syms; TO is what ck_func_at gives */
    uint64_t pc;
    int call; /* a direct call (RISC-V only), not a branch */
};

struct ck {
    const char *path;
    struct mp_elf_file elf; /* the whole file, read and checked once */
    const struct mp_arch *arch;
    int is64, big;
    uint64_t file_size; /* the file's bytes: the sections' bytes are bounded by it */
    struct ck_sym *syms;
    size_t nsyms;
    struct ck_sec *secs;
    size_t nsecs;
    struct ck_branch *br; /* sorted by (from, pc) once decoded */
    size_t nbr, capbr;
    size_t bad_ranges;    /* function symbols not decoded (CK_RANGE_*) */
    size_t bad_secs;      /* sections whose addresses wrap: not read */
    uint64_t hook;
    const char *hook_name;
    unsigned errors, warnings, profiled;
};

/* One finding on stdout, "ELF: FUNCTION: error|warning: ...", counted. */
void ck_finding(struct ck *c, int error, const char *func, const char *fmt, ...) MP_PRINTF(4, 5);

/* Read the ELF's symbols (sorted by address) and code. */
int ck_load(struct ck *c);
/* Decode every function with a size (arch->check_scan), each byte of
 * code once, then sort the branches. */
int ck_scan_all(struct ck *c);
/* ADDR + SIZE, or UINT64_MAX when that wraps (a range that cannot end
 * inside the address space). */
uint64_t ck_end(uint64_t addr, uint64_t size);
/* Free what ck_load and the decoders allocated (not the ELF). */
void ck_free(struct ck *c);
/* The LEN bytes of code at ADDR, all in one section, or NULL. */
const unsigned char *ck_code(const struct ck *c, uint64_t addr, uint64_t len);
/* The halfword at P, in the target's byte order. */
uint32_t ck_get16(const struct ck *c, const unsigned char *p);
/* A halfword or word of code at ADDR in the target's byte order; -1 outside the code. */
int ck_rd16(const struct ck *c, uint64_t addr, uint32_t *v);
int ck_rd32(const struct ck *c, uint64_t addr, uint32_t *v);
/* The symbol spelled NAME in the ELF, or NULL. */
const struct ck_sym *ck_sym_named(const struct ck *c, const char *name);
/* The function symbol that starts at ADDR, or NULL (of several, the
 * longest, then the first in the symbol table). */
const struct ck_sym *ck_func_at(const struct ck *c, uint64_t addr);
/* The branches of function FI (after ck_scan_all): *N of them from the
 * returned one on. */
const struct ck_branch *ck_branches_from(const struct ck *c, size_t fi, size_t *n);
/* Note a branch (not a call) from function FROM at PC to TARGET; a direct
 * call, other than the hook's. Kept only when TARGET is another
 * function's entry. */
int ck_add_branch(struct ck *c, size_t from, uint64_t pc, uint64_t target);
int ck_add_call(struct ck *c, size_t from, uint64_t pc, uint64_t target);
/* V's low BITS bits as a signed number. */
uint64_t ck_sext(uint64_t v, unsigned bits);

/* Decode function FI's code from LO to HI (a part of its range, see
 * ck_scan_all): its hook call (and how it is set up), its branches. */
int ck_scan_thumb(struct ck *c, size_t fi, uint64_t lo, uint64_t hi);
int ck_scan_riscv(struct ck *c, size_t fi, uint64_t lo, uint64_t hi);
/* Does the Thumb handler F reach TARGET by a branch or a literal? */
int ck_thumb_reaches(const struct ck *c, const struct ck_sym *f, uint64_t target);

/* Does the sampler's interrupt reach the runtime: Cortex-M's vector
 * table (check_vectors.c); RISC-V's mtvec, set at run time, only noted. */
void ck_check_vectors(struct ck *c);
void ck_check_mtvec(struct ck *c);
/* Cortex-M's vector table (arch.h vector_table). */
int ck_thumb_vector_table(const struct ck *c, uint64_t *base, uint64_t *size, uint64_t *sp);
/* Where the profile image lies: in RAM, clear of the vector table and of
 * the stack (check_place.c). */
void ck_check_place(struct ck *c);
/* RISC-V with call paths: no profiled code on FreeRTOS's ISR stack. */
void ck_check_isr_stack(struct ck *c);

#endif /* MCUPROF_CHECK_MODEL_H */

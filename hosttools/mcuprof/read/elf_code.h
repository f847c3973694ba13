/*
 * elf_code.h - where a firmware's code lies: the ELF's allocated,
 * executable sections (flash and code that runs from RAM alike), sorted
 * and joined where they touch, so a histogram of PCs sampled from outside
 * the target (`mcuprof sample`) covers every instruction with no bin for
 * the data between them.
 */
#ifndef MCUPROF_ELF_CODE_H
#define MCUPROF_ELF_CODE_H

#include <stddef.h>
#include <stdint.h>

/* Sections whose gap is at most this many bytes are one range: alignment
 * padding between two code sections costs a few bins, not a record. */
#define MP_CODE_JOIN_GAP 64u
/* At most this many ranges: more are joined across the smallest gaps. */
#define MP_CODE_RANGES_MAX 16u

struct mp_code_range {
    uint64_t low, high; /* [low, high) */
};

/* The code ranges of the ELF at PATH into OUT (room for
 * MP_CODE_RANGES_MAX), their count in *N. An ELF with no allocated
 * executable section with bytes is an error, reported naming PATH. */
int mp_elf_code_ranges(const char *path, struct mp_code_range *out, size_t *n);

#endif /* MCUPROF_ELF_CODE_H */

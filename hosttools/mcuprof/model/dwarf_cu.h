/*
 * dwarf_cu.h - the source file each of some functions was compiled from,
 * by the DWARF compilation unit that covers its first address. It tells
 * apart static functions of one name (one per file), for which the symbol
 * table alone has only the name.
 */
#ifndef MCUPROF_DWARF_CU_H
#define MCUPROF_DWARF_CU_H

#include <stddef.h>

#include "model.h"

/* For each of the N functions of M (indices IDX), FILE[k]: the base name
 * of its compilation unit's file, in M's arena, or NULL when M has no ELF
 * or its DWARF does not cover the function. Not finding DWARF is not an
 * error; malformed DWARF (dwarf_check.h) is one warning, every FILE NULL;
 * -1 only on out of memory (reported). */
int mp_dwarf_cu_files(struct mp_model *m, const long *idx, size_t n, const char **file);

#endif /* MCUPROF_DWARF_CU_H */

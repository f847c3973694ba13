/*
 * no_libdw.c - the DWARF readers of a build without elfutils' libdw
 * (hosttools/CMakeLists.txt builds this file instead of model_lines.c,
 * dwarf_cu.c, dwarf_check.c and dwarf_elf.c): no source lines, and the
 * one sentence MP_NO_LIBDW (model.h) wherever they were wanted.
 */
#include "diag.h"
#include "dwarf_cu.h"
#include "model.h"

int mp_have_source_lines(void)
{
    return 0;
}

/* Outputs that take lines when there are some (pprof, JSON, callgrind)
 * are written without, as for an ELF without a line table. */
int mp_model_attach_lines(struct mp_model *m)
{
    if (!m->elf_path)
        return mp_error(m->name, "source lines need the firmware's ELF: give --elf");
    m->lines_missing = 1;
    mp_warn(m->elf_path, MP_NO_LIBDW ": the outputs have no source lines");
    return 0;
}

int mp_model_lines_from_memory(struct mp_model *m, const void *buf, size_t size)
{
    (void)buf;
    (void)size;
    return mp_error(m->elf_path, MP_NO_LIBDW);
}

/* Functions of one name are told apart by their order in memory, as
 * for an ELF without DWARF: said once. */
int mp_dwarf_cu_files(struct mp_model *m, const long *idx, size_t n, const char **file)
{
    (void)idx;
    for (size_t k = 0; k < n; k++)
        file[k] = NULL;
    if (n && m->elf_path)
        mp_warn(m->elf_path, "static functions of one name are matched by their order in memory, not by "
                             "their source files: that needs libdw, which this build of mcuprof lacks "
                             "(built without elfutils' libdw)");
    return 0;
}

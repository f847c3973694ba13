/*
 * local_names.h - what elf_funcs.c asks of a local symbol's name, answered
 * for every offset of one string table in one pass from its end.
 *
 * A hostile ELF may point many symbols into one long string (at one
 * offset or at many offsets inside it); asking each symbol's name in turn
 * would cost symbols times that string's length. Here every question has
 * an answer at each byte that follows from the answers at later bytes, so
 * the whole table costs time linear in its size, then O(1) per symbol;
 * memory: one byte per byte of the table.
 */
#ifndef MCUPROF_LOCAL_NAMES_H
#define MCUPROF_LOCAL_NAMES_H

#include <stddef.h>

/* The verdict at each offset of a string table. */
struct mp_local_names {
    unsigned char *v;
    size_t n;
};

/* Judge every offset of the N bytes at S (S[N] must be a NUL the caller
 * adds: the names are read as the table holds them). gprof's scan
 * (name_ok_gprof) stops at END <= N, the table's size in the file.
 * Returns -1 when out of memory. */
int mp_local_names_scan(struct mp_local_names *ln, const char *s, size_t n, size_t end);
void mp_local_names_free(struct mp_local_names *ln);

/* Which local names name a function here: not the ARM and RISC-V mapping
 * symbols ($t, $d, $x...), not labels (.L...), not GCC's marker; a name
 * with a dot only when it is a function's (GCC types every clone and cold
 * part STT_FUNC) or a GCC clone's name (clone_names.h). gprof is stricter
 * (mp_local_name_gprof_ok); each clone is a function of its own here. */
int mp_local_name_ok(const struct mp_local_names *ln, const char *s, size_t off, int is_func);

/* Whether binutils 2.40 gprof's core_sym_class keeps the local name at
 * OFF: '$' rejects, a dot must be followed by digits (".constprop." and
 * ".clone." skipped first), so .isra.N, .part.N and .cold are rejected;
 * after ".constprop.N" the scan steps over the name's terminating NUL into
 * the next string of the table and judges that one too. */
int mp_local_name_gprof_ok(const struct mp_local_names *ln, const char *s, size_t off);

#endif /* MCUPROF_LOCAL_NAMES_H */

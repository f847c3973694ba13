/*
 * path_name.h - the parts of a file name: its last component and its
 * folder, for messages ("wrote gmon.out"), outputs named after an input
 * and temporary files beside an output.
 *
 * On Windows a name may use `\` or `/`, start with a drive (`C:\x`,
 * `C:x`) or name a share (`\\server\share\x`); on POSIX hosts only `/`
 * separates and `\` is a character of the name, as the system has it.
 * The _in variants take the rule explicitly (WINDOWS non-zero), so both
 * are tested on every host.
 */
#ifndef MCUPROF_PATH_NAME_H
#define MCUPROF_PATH_NAME_H

#include <stddef.h>

/* The last component of PATH (a pointer into it): "gmon.out" for
 * "out/gmon.out", "fw.elf" for "C:fw.elf" on Windows; "" when PATH ends
 * with a separator. */
const char *mp_path_base(const char *path);
const char *mp_path_base_in(const char *path, int windows);

/* The length of PATH's folder part as a name of that folder: "out" for
 * "out/gmon.out" (3), "/" for "/gmon.out" (1), "C:\" for "C:\x" (3),
 * "C:" for "C:x" (2), "\\srv\share\" for "\\srv\share\x"; 0 when PATH
 * has no folder part (the current folder). */
size_t mp_path_dir_len(const char *path);
size_t mp_path_dir_len_in(const char *path, int windows);

/* PATH's folder as a name ("." when it has none), malloc'd; NULL when
 * memory ran out. */
char *mp_path_dir(const char *path);

/* Whether C separates components on this host. */
int mp_path_sep(int c);

#endif /* MCUPROF_PATH_NAME_H */

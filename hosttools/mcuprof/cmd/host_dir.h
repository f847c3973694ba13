/*
 * host_dir.h - what `record` asks of the file system to find the boards'
 * manifests, by UTF-8 names on every host: the folder the running
 * executable is in (an installed tool finds its kit from it:
 * PREFIX/bin/mcuprof beside PREFIX/share/mcuprof, cmake/install.cmake),
 * whether a name is a folder or a readable file, a folder's names.
 *
 * host_dir_posix.c: /proc/self/exe (not argv[0], which a shell may give
 * as a bare name), stat, access, readdir. host_dir_win32.c:
 * GetModuleFileNameW, and the wide calls, so a name outside the ANSI code
 * page works.
 */
#ifndef MCUPROF_HOST_DIR_H
#define MCUPROF_HOST_DIR_H

#include <stddef.h>

/* The executable's folder into BUF: 0, or -1 when it cannot be told. */
int mp_exe_dir(char *buf, size_t size);

/* PATH names a folder. */
int mp_is_dir(const char *path);

/* PATH names something (stat succeeds). */
int mp_exists(const char *path);

/* PATH can be read (access R_OK). */
int mp_is_readable(const char *path);

/* FN(name, CTX) for each name in the folder DIR but "." and "..": 0, or
 * -1 with errno when DIR cannot be listed. */
int mp_dir_each(const char *dir, void (*fn)(const char *name, void *ctx), void *ctx);

#endif /* MCUPROF_HOST_DIR_H */

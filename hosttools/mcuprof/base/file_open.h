/*
 * file_open.h - opening a file by a name in UTF-8, on every host.
 *
 * The tool's file names are UTF-8 (on Windows the command line is
 * converted once, args.h). POSIX takes the bytes as they are; Windows'
 * narrow calls would read them in the ANSI code page, so there the name
 * is converted to UTF-16 and opened with _wfopen/_wopen. Files are always
 * opened in binary: an output is the same bytes on every host (LF, never
 * CRLF), an input is read as it is.
 */
#ifndef MCUPROF_FILE_OPEN_H
#define MCUPROF_FILE_OPEN_H

#include <stdio.h>

/* fopen(PATH, MODE); on Windows always binary, whatever MODE says. */
FILE *mp_fopen(const char *path, const char *mode);

/* open(PATH, FLAGS, 0666), binary; -1 with errno set on failure. */
int mp_open(const char *path, int flags);

/* remove(PATH). */
int mp_remove(const char *path);

#endif /* MCUPROF_FILE_OPEN_H */

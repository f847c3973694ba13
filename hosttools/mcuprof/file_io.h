/*
 * file_io.h - whole-file reads and all-or-nothing output files.
 */
#ifndef MCUPROF_FILE_IO_H
#define MCUPROF_FILE_IO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Read at most MAX bytes of PATH into a malloc'd buffer (*DATA, *LEN; a
 * zero-length file gives a non-NULL buffer). Reports and returns -1 on
 * failure. */
int mp_read_file(const char *path, size_t max, uint8_t **data, size_t *len);

/* An output file that appears under its final name only when complete: it
 * is written to PATH.tmpXXXXXX in the same directory (so the final rename
 * stays on one file system and is atomic), then renamed over PATH. */
struct mp_atomic {
    const char *path;
    char *tmp_path;
    FILE *f;
};

/* Create the temporary file; write to a->f afterwards. */
int mp_atomic_open(struct mp_atomic *a, const char *path);
/* Flush, close and rename into place. On failure the temporary file is
 * removed and the error reported. */
int mp_atomic_commit(struct mp_atomic *a);
/* Discard the temporary file (safe to call after a failed commit or on an
 * unopened struct zeroed by the caller). */
void mp_atomic_abort(struct mp_atomic *a);

#endif /* MCUPROF_FILE_IO_H */

/*
 * file_io.h - whole-file reads and all-or-nothing output files.
 */
#ifndef MCUPROF_FILE_IO_H
#define MCUPROF_FILE_IO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Read a profile input (an image, a gmon.out or a JSON document) of at
 * most MAX bytes from PATH into a malloc'd buffer (*DATA, *LEN; a
 * zero-length file gives a non-NULL buffer). Reads no more than its
 * bytes promise (mp_input_bound, input_kind.h): an image up to its
 * image_size, a gmon.out or a JSON document up to its kind's bound and
 * only while what it holds may still be one, anything else only its first
 * block, which the readers reject by its magic. A regular file larger
 * than its kind's bound, and a stream that goes on past it, are refused.
 * Memory: at most twice what was read. The file is remembered as an input
 * (mp_file_note_input). Reports and returns -1 on failure. */
int mp_read_file(const char *path, size_t max, uint8_t **data, size_t *len);

/* Remember PATH as an input of this command: an output that is the same
 * file (also through a link: same device and inode) is refused. */
void mp_file_note_input(const char *path);

/* Non-zero when A and B name the same file (the same existing file, or the
 * same name when neither exists). */
int mp_same_file(const char *a, const char *b);

/* Check that OUT can be written as an output without touching anything:
 * not an input, a regular file or nothing, not read-only, in a writable
 * directory. mp_atomic_open checks the same; a command that destroys data
 * once it has read it (pull --reset) checks first. */
int mp_output_check(const char *out);

/* An output file that appears under its final name only when complete: it
 * is written to PATH.tmpXXXXXX in the same directory (so the final rename
 * stays on one file system and is atomic), flushed to disk, then renamed
 * over PATH. Only a regular file is replaced, never an input or a
 * read-only file, and it keeps its mode; a symbolic link to a regular file
 * stays a link, and the file it points to is replaced. */
struct mp_atomic {
    const char *path;   /* as the user named it, for messages */
    char *real_path;    /* where it is written (a link resolved), malloc'd */
    char *tmp_path;
    FILE *f;
};

/* Check OUT (mp_output_check) and create the temporary file; write to a->f
 * afterwards. */
int mp_atomic_open(struct mp_atomic *a, const char *path);
/* Flush, close and rename into place. On failure the temporary file is
 * removed and the error reported. */
int mp_atomic_commit(struct mp_atomic *a);
/* Discard the temporary file (safe to call after a failed commit or on an
 * unopened struct zeroed by the caller). */
void mp_atomic_abort(struct mp_atomic *a);

#endif /* MCUPROF_FILE_IO_H */

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

/* Read the whole of PATH, at most MAX bytes, into a malloc'd buffer
 * (*DATA, *LEN; an empty file gives a non-NULL buffer): a file the tool
 * takes whole, as the firmware's ELF. Not remembered as an input. Reports
 * and returns -1 on failure. */
int mp_read_whole_file(const char *path, size_t max, uint8_t **data, size_t *len);

/* Remember PATH as an input of this command: an output that is the same
 * file (also through a link: same device and inode) is refused. */
void mp_file_note_input(const char *path);

/* Non-zero when A and B name the same file (the same existing file, or the
 * same name when neither exists); "-" is the standard output. */
int mp_same_file(const char *a, const char *b);

/* Check that OUT can be written as an output without touching anything:
 * not an input; a regular file or nothing, not read-only, in a writable
 * directory; or a stream (below) open or openable for writing. Nothing is
 * opened: a FIFO is not waited for. mp_atomic_open checks the same; a
 * command that destroys data once it has read it (pull --reset) checks
 * first. */
int mp_output_check(const char *out);

/* An output file that appears under its final name only when complete: it
 * is written to PATH.tmpXXXXXX in the same directory (so the final rename
 * stays on one file system and is atomic), flushed to disk, then renamed
 * over PATH. Only a regular file is replaced, never an input or a
 * read-only file, and it keeps its mode; a symbolic link to a regular file
 * stays a link, and the file it points to is replaced.
 *
 * A stream is written in place, never replaced: "-" (the standard
 * output), a path naming one of this process's descriptors through links
 * (/dev/stdout, /dev/fd/N, /proc/self/fd/N: written through the
 * descriptor, so a file the shell opened to append is appended to), a
 * FIFO (refused when no process reads it) or a character device (a
 * terminal, /dev/null). It is staged in an unnamed temporary file and
 * copied out once every output is ready; a
 * terminal is refused an output holding a byte it would act on (a binary
 * format, an escape sequence). Directories, block devices and sockets are
 * refused.
 *
 * On Windows (file_sys_win32.c) the temporary file is closed, then moved
 * over PATH with MoveFileExW; an output another program holds open is
 * refused in one line ("cannot replace: the file is open in another
 * program"); the streams are "-", NUL, CON and named pipes; links and
 * modes are left to the system.
 *
 * Several outputs, all or nothing: mp_atomic_open and write each, then
 * mp_atomic_ready each (everything that can fail before anything is
 * replaced), then mp_atomic_place_all. */
struct mp_atomic {
    const char *path;   /* as the user named it, for messages */
    char *real_path;    /* where it is written (a link resolved), malloc'd */
    char *tmp_path;     /* a file's temporary beside it */
    FILE *f;            /* what the caller writes to */
    int stream;         /* written in place (above), staged in F */
    int fd;             /* a stream: the descriptor it names, -1: its path is opened */
    int dest;           /* a stream once ready: the descriptor written to */
};

/* Check OUT (mp_output_check) and create the temporary file; write to a->f
 * afterwards. */
int mp_atomic_open(struct mp_atomic *a, const char *path);
/* Flush and close the temporary file (a stream: open it, and check a
 * terminal). On failure the output is discarded and the error reported. */
int mp_atomic_ready(struct mp_atomic *a);
/* Rename into place (a stream: copy the staged bytes to it). On failure
 * the error is reported, NOTE (NULL: none) appended to its line. */
int mp_atomic_place(struct mp_atomic *a, const char *note);
/* Ready and place one output. */
int mp_atomic_commit(struct mp_atomic *a);
/* Place N ready outputs, the streams first. When one fails, its error line
 * names the outputs already written, and the others are discarded. */
int mp_atomic_place_all(struct mp_atomic *a, unsigned n);
/* Report a write error in A's staged output, discard it, return -1. */
int mp_atomic_write_failed(struct mp_atomic *a);
/* Discard the output (safe to call after a failed commit or on an
 * unopened struct zeroed by the caller). */
void mp_atomic_abort(struct mp_atomic *a);

#endif /* MCUPROF_FILE_IO_H */

/*
 * file_sys.h - what file_io.c leaves to the host: which file an open
 * file or a name is, and the outputs (mp_output_check, mp_same_file,
 * mp_atomic_open of file_io.h, and the hooks below), written through
 * POSIX calls (file_sys_posix.c) or Windows' (file_sys_win32.c).
 */
#ifndef MCUPROF_FILE_SYS_H
#define MCUPROF_FILE_SYS_H

#include <stdint.h>
#include <stdio.h>

#include "file_io.h"

/* Which file it is: device and inode on POSIX, volume serial number and
 * file index on Windows. */
struct mp_file_id {
    uint64_t dev, ino;
};

/* What an open input is. */
struct mp_file_facts {
    struct mp_file_id id;
    int dir;       /* a directory */
    int regular;   /* a regular file (SIZE is its size) */
    uint64_t size;
};

/* The facts of F, opened from PATH; -1 with errno set. */
int mp_file_facts(FILE *f, const char *path, struct mp_file_facts *facts);

/* The identity of the file PATH names; -1 with errno set. */
int mp_file_id_of(const char *path, struct mp_file_id *id);

/* file_io.c: whether ID is an input of this command (mp_file_note_input). */
int mp_file_is_input(const struct mp_file_id *id);

/* file_io.c: a stream that is a terminal is refused an output holding
 * a byte it acts on; reports and returns -1 then. A->f is read from its
 * start. */
int mp_file_check_terminal(struct mp_atomic *a);

/* A stream ready to be written (A->dest open, a terminal checked);
 * reports and returns -1 on failure. */
int mp_file_stream_ready(struct mp_atomic *a);

/* F's bytes on the disk (fsync, _commit); -1 with errno set. */
int mp_file_sync(FILE *f);

/* A stream's staged output (A->f) copied to A->dest; reports and
 * returns -1 on failure, NOTE appended to the line. */
int mp_file_copy_out(struct mp_atomic *a, const char *note);

/* A file's closed temporary moved over the output; reports and returns
 * -1 on failure, NOTE appended to the line. */
int mp_file_replace(struct mp_atomic *a, const char *note);

/* close() the descriptor FD. */
int mp_file_close_fd(int fd);

#endif /* MCUPROF_FILE_SYS_H */

/*
 * gzip_out.h - a gzip stream (zlib) written to a stdio file as it is
 * produced, so an output of any size needs only a fixed buffer.
 *
 * The header carries no name and no time stamp: the same profile gives
 * the same bytes, which keeps outputs comparable and tests exact.
 */
#ifndef MCUPROF_GZIP_OUT_H
#define MCUPROF_GZIP_OUT_H

#include <stddef.h>
#include <stdio.h>

/* next_in as a const pointer: the input is never written to. */
#define ZLIB_CONST
#include <zlib.h>

struct mp_gzip {
    z_stream z;
    FILE *f;
    const char *name; /* for messages */
    int open;
    unsigned char out[16384];
};

/* Start a stream into F. Reports (naming NAME) and returns -1 when zlib
 * cannot start one. */
int mp_gzip_open(struct mp_gzip *g, FILE *f, const char *name);

/* Compress LEN bytes of DATA. Returns -1 on a write error of F (not
 * reported: the caller names the file) or a zlib error (reported). */
int mp_gzip_write(struct mp_gzip *g, const void *data, size_t len);

/* Finish the stream (its trailer written to F) and release it. Returns -1
 * as mp_gzip_write does; the stream is released either way. */
int mp_gzip_close(struct mp_gzip *g);

/* Release a stream that is not to be finished (safe after close). */
void mp_gzip_abort(struct mp_gzip *g);

#endif /* MCUPROF_GZIP_OUT_H */

/*
 * gzip_out.c - a gzip stream written as it is produced (gzip_out.h).
 */
#include "gzip_out.h"

#include <limits.h>
#include <string.h>

#include "diag.h"

/* windowBits 15 + 16: the largest window, wrapped in a gzip header and
 * trailer (instead of zlib's) as readers of .gz files expect. */
#define GZIP_WINDOW (15 + 16)
#define MEM_LEVEL 8

/* The gzip header names no file and no time, and the same system on
 * every host: 3 (Unix), zlib's own choice on POSIX hosts, where Windows'
 * zlib would write 10, so a pprof file is the same bytes on both. Read,
 * never written, by zlib. */
static gz_header header = {.os = 3};

int mp_gzip_open(struct mp_gzip *g, FILE *f, const char *name)
{
    int ret;

    memset(&g->z, 0, sizeof(g->z));
    g->f = f;
    g->name = name;
    g->open = 0;
    ret = deflateInit2(&g->z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, GZIP_WINDOW, MEM_LEVEL, Z_DEFAULT_STRATEGY);
    if (ret != Z_OK)
        return mp_error(name, "zlib cannot start a gzip stream (deflateInit2: %d)", ret);
    g->open = 1;
    ret = deflateSetHeader(&g->z, &header);
    if (ret != Z_OK)
        return mp_error(name, "zlib cannot set the gzip header (deflateSetHeader: %d)", ret);
    return 0;
}

/* Run deflate with FLUSH until it has consumed its input (and, when
 * finishing, written its trailer), handing each full buffer to the file. */
static int pump(struct mp_gzip *g, int flush)
{
    int ret;

    do {
        size_t n;

        g->z.next_out = g->out;
        g->z.avail_out = sizeof(g->out);
        ret = deflate(&g->z, flush);
        n = sizeof(g->out) - g->z.avail_out;
        /* Z_BUF_ERROR is normal when a buffer filled exactly and there was
         * nothing more; while finishing, with room for output, it would
         * mean no progress is possible: stop rather than spin. */
        if (ret == Z_STREAM_ERROR || (flush == Z_FINISH && ret == Z_BUF_ERROR && n == 0))
            return mp_error(g->name, "zlib gzip stream error (deflate: %d)", ret);
        if (n && fwrite(g->out, 1, n, g->f) != n)
            return -1;
    } while (g->z.avail_out == 0 || (flush == Z_FINISH && ret != Z_STREAM_END));
    return 0;
}

int mp_gzip_write(struct mp_gzip *g, const void *data, size_t len)
{
    const unsigned char *p = data;

    /* avail_in is a uInt: feed a larger chunk in pieces. */
    while (len) {
        size_t n = len < UINT_MAX ? len : UINT_MAX;

        g->z.next_in = p;
        g->z.avail_in = (uInt)n;
        if (pump(g, Z_NO_FLUSH) < 0)
            return -1;
        p += n;
        len -= n;
    }
    return 0;
}

int mp_gzip_close(struct mp_gzip *g)
{
    int ret;

    g->z.next_in = NULL;
    g->z.avail_in = 0;
    ret = pump(g, Z_FINISH);
    mp_gzip_abort(g);
    return ret;
}

void mp_gzip_abort(struct mp_gzip *g)
{
    if (g->open)
        deflateEnd(&g->z);
    g->open = 0;
}

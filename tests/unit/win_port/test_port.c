/*
 * test_port.c - open_memstream and mkdtemp for the Windows build of the
 * unit tests (test_port.h).
 */
#include <direct.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

#include "test_port.h"

#undef fclose

/* The memory streams open now: a handful at most in any test. */
#define MAX_STREAMS 16
static struct {
    FILE *f;
    char **buf;
    size_t *len;
} streams[MAX_STREAMS];

FILE *test_port_open_memstream(char **buf, size_t *len)
{
    for (unsigned i = 0; i < MAX_STREAMS; i++) {
        if (!streams[i].f) {
            FILE *f = tmpfile();
            if (!f)
                return NULL;
            streams[i].f = f;
            streams[i].buf = buf;
            streams[i].len = len;
            *buf = NULL;
            *len = 0;
            return f;
        }
    }
    errno = EMFILE;
    return NULL;
}

int test_port_fclose(FILE *f)
{
    for (unsigned i = 0; i < MAX_STREAMS; i++) {
        if (streams[i].f == f) {
            long n;
            char *b;
            streams[i].f = NULL;
            if (fflush(f) != 0 || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0 ||
                !(b = malloc((size_t)n + 1)) || fread(b, 1, (size_t)n, f) != (size_t)n) {
                fclose(f);
                return EOF;
            }
            b[n] = '\0'; /* glibc's buffer ends in a NUL too */
            *streams[i].buf = b;
            *streams[i].len = (size_t)n;
            return fclose(f);
        }
    }
    return fclose(f);
}

char *test_port_mkdtemp(char *tmpl)
{
    size_t n = strlen(tmpl);
    if (n < 6 || strcmp(tmpl + n - 6, "XXXXXX") != 0) {
        errno = EINVAL;
        return NULL;
    }
    static const char letters[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    unsigned seed = (unsigned)GetTickCount() ^ (unsigned)GetCurrentProcessId();
    for (int tries = 0; tries < 100; tries++) {
        for (size_t i = n - 6; i < n; i++) {
            seed = seed * 1103515245u + 12345u;
            tmpl[i] = letters[(seed >> 16) % (sizeof(letters) - 1)];
        }
        if (_mkdir(tmpl) == 0)
            return tmpl;
        if (errno != EEXIST)
            return NULL;
    }
    return NULL;
}

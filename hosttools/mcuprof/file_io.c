/* mkstemp, fdopen, fsync and umask are POSIX, not C11. */
#define _POSIX_C_SOURCE 200809L

#include "file_io.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"

int mp_read_file(const char *path, size_t max, uint8_t **data, size_t *len)
{
    uint8_t *buf = NULL, *grown;
    size_t cap = 0, n = 0, got;
    FILE *f;
    int ret = -1;

    f = fopen(path, "rb");
    if (!f)
        return mp_error(path, "cannot open: %s", strerror(errno));
    for (;;) {
        if (n == cap) {
            size_t want = cap ? cap * 2 : 65536;

            if (want > max)
                want = max;
            if (want == cap)
                break; /* MAX bytes read: the rest is never used */
            grown = realloc(buf, want);
            if (!grown) {
                mp_error(path, "out of memory reading %zu bytes", want);
                goto out_free;
            }
            buf = grown;
            cap = want;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) {
            if (ferror(f)) {
                mp_error(path, "read error after %zu bytes: %s", n, strerror(errno));
                goto out_free;
            }
            break;
        }
    }
    if (!buf) {
        buf = malloc(1);
        if (!buf) {
            mp_error(path, "out of memory");
            goto out_close;
        }
    }
    *data = buf;
    *len = n;
    buf = NULL;
    ret = 0;
out_free:
    free(buf);
out_close:
    fclose(f);
    return ret;
}

int mp_atomic_open(struct mp_atomic *a, const char *path)
{
    static const char suffix[] = ".tmpXXXXXX";
    size_t len = strlen(path);
    mode_t mask;
    int fd;

    a->path = path;
    a->f = NULL;
    a->tmp_path = malloc(len + sizeof(suffix));
    if (!a->tmp_path)
        return mp_error(path, "out of memory");
    memcpy(a->tmp_path, path, len);
    memcpy(a->tmp_path + len, suffix, sizeof(suffix));
    fd = mkstemp(a->tmp_path);
    if (fd < 0) {
        mp_error(path, "cannot create temporary output %s: %s", a->tmp_path, strerror(errno));
        goto err_free;
    }
    /* mkstemp creates the file 0600; give the output the mode any new file
     * would get under the user's umask. */
    mask = umask(0);
    umask(mask);
    if (fchmod(fd, 0666 & ~mask) != 0) {
        mp_error(path, "cannot set the mode of %s: %s", a->tmp_path, strerror(errno));
        goto err_close;
    }
    a->f = fdopen(fd, "wb");
    if (!a->f) {
        mp_error(path, "cannot open %s: %s", a->tmp_path, strerror(errno));
        goto err_close;
    }
    return 0;

err_close:
    close(fd);
    remove(a->tmp_path);
err_free:
    free(a->tmp_path);
    a->tmp_path = NULL;
    return -1;
}

int mp_atomic_commit(struct mp_atomic *a)
{
    FILE *f = a->f;

    a->f = NULL;
    if (fflush(f) != 0 || fsync(fileno(f)) != 0) {
        mp_error(a->path, "cannot write %s: %s", a->tmp_path, strerror(errno));
        fclose(f);
        goto err;
    }
    if (fclose(f) != 0) {
        mp_error(a->path, "cannot close %s: %s", a->tmp_path, strerror(errno));
        goto err;
    }
    if (rename(a->tmp_path, a->path) != 0) {
        mp_error(a->path, "cannot rename %s into place: %s", a->tmp_path, strerror(errno));
        goto err;
    }
    free(a->tmp_path);
    a->tmp_path = NULL;
    return 0;

err:
    mp_atomic_abort(a);
    return -1;
}

void mp_atomic_abort(struct mp_atomic *a)
{
    if (a->f) {
        fclose(a->f);
        a->f = NULL;
    }
    if (a->tmp_path) {
        remove(a->tmp_path);
        free(a->tmp_path);
        a->tmp_path = NULL;
    }
}

/* mkstemp, fdopen, fsync, umask and lstat are POSIX, realpath X/Open: not C11. */
#define _XOPEN_SOURCE 700

#include "file_io.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <mcuprof/image.h>

#include "bytes.h"
#include "diag.h"
#include "input_kind.h"

/* Bytes read before deciding what a file is: more than an image header. */
#define HEAD_BLOCK 4096u

/* Inputs of this command, by device and inode. */
#define MAX_INPUTS 8
static struct {
    dev_t dev;
    ino_t ino;
} inputs[MAX_INPUTS];
static unsigned ninputs;

static void note_input(const struct stat *st)
{
    unsigned i;

    for (i = 0; i < ninputs; i++) {
        if (inputs[i].dev == st->st_dev && inputs[i].ino == st->st_ino)
            return;
    }
    if (ninputs < MAX_INPUTS) {
        inputs[ninputs].dev = st->st_dev;
        inputs[ninputs].ino = st->st_ino;
        ninputs++;
    }
}

void mp_file_note_input(const char *path)
{
    struct stat st;

    if (stat(path, &st) == 0)
        note_input(&st);
}

static int is_input(const struct stat *st)
{
    unsigned i;

    for (i = 0; i < ninputs; i++) {
        if (inputs[i].dev == st->st_dev && inputs[i].ino == st->st_ino)
            return 1;
    }
    return 0;
}

/* Read into *BUF (capacity *CAP, grown) until *N reaches WANT or the end. */
static int read_upto(FILE *f, const char *path, uint8_t **buf, size_t *cap, size_t *n, size_t want)
{
    while (*n < want) {
        size_t got;

        if (*n == *cap) {
            size_t grow = *cap ? *cap * 2 : HEAD_BLOCK;
            uint8_t *p;

            if (grow > want)
                grow = want;
            p = realloc(*buf, grow);
            if (!p)
                return mp_error(path, "out of memory reading %zu bytes", grow);
            *buf = p;
            *cap = grow;
        }
        got = fread(*buf + *n, 1, *cap - *n, f);
        *n += got;
        if (got == 0) {
            if (ferror(f))
                return mp_error(path, "read error after %zu bytes: %s", *n, strerror(errno));
            break;
        }
    }
    return 0;
}

/* The input is read in steps that double what is held, each step's
 * bytes checked (mp_input_bound) before the next is read: what it holds
 * decides how far the read may go, so a stream that cannot be an input
 * is refused after at most twice the bytes that showed it, and the memory
 * is at most twice the bound of its kind (input_kind.h). */
int mp_read_file(const char *path, size_t max, uint8_t **data, size_t *len)
{
    struct mp_input_scan scan;
    uint8_t *buf = NULL;
    size_t cap = 0, n = 0, bound;
    struct stat st;
    FILE *f;
    int ret = -1;

    f = fopen(path, "rb");
    if (!f)
        return mp_error(path, "cannot open: %s", strerror(errno));
    if (fstat(fileno(f), &st) != 0) {
        mp_error(path, "cannot stat: %s", strerror(errno));
        goto out_close;
    }
    if (S_ISDIR(st.st_mode)) {
        mp_error(path, "is a directory, not a profile image or gmon.out");
        goto out_close;
    }
    note_input(&st);
    memset(&scan, 0, sizeof(scan));
    if (read_upto(f, path, &buf, &cap, &n, max < HEAD_BLOCK ? max : HEAD_BLOCK) < 0)
        goto out_free;
    bound = mp_input_bound(&scan, buf, n, max);
    /* (an image's file may be longer than its image_size: only that is read) */
    if (S_ISREG(st.st_mode) && scan.limit && (uint64_t)st.st_size > scan.limit) {
        mp_error(path, "is %jd bytes, more than the %zu a %s can be", (intmax_t)st.st_size, scan.limit,
                 mp_input_kind_name(mp_input_kind(buf, n)));
        goto out_free;
    }
    while (n < bound) {
        size_t want = n < bound / 2 ? 2 * n : bound;

        if (read_upto(f, path, &buf, &cap, &n, want) < 0)
            goto out_free;
        if (n < want)
            break; /* the end of the file */
        bound = mp_input_bound(&scan, buf, n, max);
    }
    if (scan.limit && n == scan.limit && fgetc(f) != EOF) {
        mp_error(path, "holds more than %zu bytes, more than a %s can be", scan.limit,
                 mp_input_kind_name(mp_input_kind(buf, n)));
        goto out_free;
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

int mp_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    int ea = stat(a, &sa) == 0, eb = stat(b, &sb) == 0;

    if (ea && eb)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    return !ea && !eb && strcmp(a, b) == 0;
}

/* The directory part of PATH ("." when it has none), malloc'd. */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    size_t len = slash ? (size_t)(slash - path) : 1;
    char *d = malloc(len + 2);

    if (!d)
        return NULL;
    if (!slash)
        memcpy(d, ".", 2);
    else if (len == 0)
        memcpy(d, "/", 2);
    else {
        memcpy(d, path, len);
        d[len] = '\0';
    }
    return d;
}

static const char *file_kind(mode_t m)
{
    return S_ISDIR(m) ? "a directory" : S_ISCHR(m) ? "a character device"
         : S_ISBLK(m) ? "a block device" : S_ISFIFO(m) ? "a FIFO"
         : S_ISSOCK(m) ? "a socket" : "not a regular file";
}

/* The checks of mp_output_check, the directory's only with DIR (creating
 * the temporary file checks it too); *EXISTING gets the file's status
 * (mode zero when there is no file yet). */
static int check_output(const char *out, int dir_too, struct stat *existing)
{
    struct stat st;
    char *dir;
    int ret = 0;

    memset(existing, 0, sizeof(*existing));
    if (stat(out, &st) == 0) {
        if (!S_ISREG(st.st_mode))
            return mp_error(out, "is %s: refusing to replace it with the output",
                            file_kind(st.st_mode));
        if (is_input(&st))
            return mp_error(out, "is an input of this command: refusing to overwrite it");
        /* Read-only by its mode is read-only for root too. */
        if ((st.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) == 0 ||
            (access(out, W_OK) != 0 && (errno == EACCES || errno == EROFS)))
            return mp_error(out, "exists and is read-only: refusing to replace it (remove it or "
                                 "make it writable first)");
        *existing = st;
    } else if (errno != ENOENT) {
        return mp_error(out, "cannot check the output: %s", strerror(errno));
    }
    if (!dir_too)
        return 0;
    dir = dir_of(out);
    if (!dir)
        return mp_error(out, "out of memory");
    if (stat(dir, &st) != 0)
        ret = mp_error(out, "cannot create the output: directory %s: %s", dir, strerror(errno));
    else if (!S_ISDIR(st.st_mode))
        ret = mp_error(out, "cannot create the output: %s is not a directory", dir);
    else if (access(dir, W_OK | X_OK) != 0)
        ret = mp_error(out, "cannot create the output in directory %s: %s", dir, strerror(errno));
    free(dir);
    return ret;
}

int mp_output_check(const char *out)
{
    struct stat st;

    return check_output(out, 1, &st);
}

int mp_atomic_open(struct mp_atomic *a, const char *path)
{
    static const char suffix[] = ".tmpXXXXXX";
    struct stat existing, link;
    const char *target = path;
    size_t len;
    mode_t mode;
    int fd;

    a->path = path;
    a->f = NULL;
    a->tmp_path = NULL;
    a->real_path = NULL;
    if (check_output(path, 0, &existing) < 0)
        return -1;
    /* A link to a regular file stays a link: its target is replaced. */
    if (existing.st_mode && lstat(path, &link) == 0 && S_ISLNK(link.st_mode)) {
        a->real_path = realpath(path, NULL);
        if (!a->real_path)
            return mp_error(path, "cannot resolve the link: %s", strerror(errno));
        target = a->real_path;
    }
    len = strlen(target);
    a->tmp_path = malloc(len + sizeof(suffix));
    if (!a->tmp_path) {
        mp_error(path, "out of memory");
        goto err_free;
    }
    memcpy(a->tmp_path, target, len);
    memcpy(a->tmp_path + len, suffix, sizeof(suffix));
    fd = mkstemp(a->tmp_path);
    if (fd < 0) {
        mp_error(path, "cannot create temporary output %s: %s", a->tmp_path, strerror(errno));
        goto err_free;
    }
    /* mkstemp creates the file 0600: a file replaced keeps its mode (and
     * its group where allowed), a new one gets what the umask gives. */
    if (existing.st_mode) {
        mode = existing.st_mode & 07777;
        if (existing.st_gid != getegid() && fchown(fd, (uid_t)-1, existing.st_gid) != 0) {
            /* not a member of the file's group: the new file has ours */
        }
    } else {
        mode = umask(0);
        umask(mode);
        mode = 0666 & ~mode;
    }
    if (fchmod(fd, mode) != 0) {
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
    free(a->real_path);
    a->real_path = NULL;
    return -1;
}

/* Flush the rename to disk too: the directory holding PATH. A file system
 * that cannot sync a directory has nothing more to flush. */
static void sync_dir(const char *path)
{
    char *dir = dir_of(path);
    int fd = dir ? open(dir, O_RDONLY) : -1;

    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
    free(dir);
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
    if (rename(a->tmp_path, a->real_path ? a->real_path : a->path) != 0) {
        mp_error(a->path, "cannot rename %s into place: %s", a->tmp_path, strerror(errno));
        goto err;
    }
    sync_dir(a->real_path ? a->real_path : a->path);
    free(a->tmp_path);
    a->tmp_path = NULL;
    free(a->real_path);
    a->real_path = NULL;
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
    free(a->real_path);
    a->real_path = NULL;
}

/*
 * file_sys_posix.c - outputs through POSIX calls, and which file an input
 * is (file_sys.h).
 */
/* mkstemp, fdopen, fsync, umask, lstat, readlink and sigaction are POSIX, realpath X/Open: not C11. */
#define _XOPEN_SOURCE 700

#include "file_sys.h"

#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "path_name.h"

static struct mp_file_id id_of(const struct stat *st)
{
    struct mp_file_id id = {(uint64_t)st->st_dev, (uint64_t)st->st_ino};

    return id;
}

int mp_file_facts(FILE *f, const char *path, struct mp_file_facts *facts)
{
    struct stat st;

    (void)path;
    if (fstat(fileno(f), &st) != 0)
        return -1;
    facts->id = id_of(&st);
    facts->dir = S_ISDIR(st.st_mode);
    facts->regular = S_ISREG(st.st_mode);
    facts->size = (uint64_t)st.st_size;
    return 0;
}

int mp_file_id_of(const char *path, struct mp_file_id *id)
{
    struct stat st;

    if (stat(path, &st) != 0)
        return -1;
    *id = id_of(&st);
    return 0;
}

static int is_input(const struct stat *st)
{
    struct mp_file_id id = id_of(st);

    return mp_file_is_input(&id);
}

/* The descriptor of this process that OUT names: "-" (the standard
 * output), or a path that leads through links to /proc/PID/fd/N or
 * /dev/fd/N (/dev/stdout, /dev/fd/3, /proc/self/fd/1); -1 if none. Such a
 * path is the shell's redirection (`-o /dev/stdout >> log`): renaming a
 * new file over it would replace the log, opening it anew would truncate
 * it, so the output is written through the descriptor itself, at its
 * offset, appending when the shell opened it to append. At most
 * MAX_HOPS links are followed. */
#define MAX_HOPS 40
static int is_fd_dir(const char *dir)
{
    char own[64];
    int n;

    if (strcmp(dir, "/dev/fd") == 0)
        return 1;
    n = snprintf(own, sizeof(own), "/proc/%ld/", (long)getpid());
    if (strncmp(dir, own, (size_t)n) != 0)
        return 0;
    dir += n;
    if (strncmp(dir, "task/", 5) == 0) { /* /proc/PID/task/TID/fd */
        dir += 5;
        while (*dir >= '0' && *dir <= '9')
            dir++;
        if (*dir++ != '/')
            return 0;
    }
    return strcmp(dir, "fd") == 0;
}

static int named_fd(const char *out)
{
    char *cur, link[4096];
    int hops, fd = -1;

    if (strcmp(out, "-") == 0)
        return STDOUT_FILENO;
    cur = malloc(strlen(out) + 1);
    if (cur)
        strcpy(cur, out);
    for (hops = 0; cur && hops < MAX_HOPS && fd < 0; hops++) {
        const char *slash = strrchr(cur, '/'), *base = slash ? slash + 1 : cur;
        char *dir = mp_path_dir(cur), *real = dir ? realpath(dir, NULL) : NULL, *next = NULL;
        struct stat st;
        ssize_t n;

        if (real && is_fd_dir(real) && *base && strspn(base, "0123456789") == strlen(base) && strlen(base) < 10)
            fd = atoi(base);
        else if (dir && lstat(cur, &st) == 0 && S_ISLNK(st.st_mode) &&
                 (n = readlink(cur, link, sizeof(link) - 1)) > 0) {
            size_t dlen = link[0] == '/' ? 0 : strlen(dir) + 1;

            link[n] = '\0';
            next = malloc(dlen + (size_t)n + 1);
            if (next) {
                if (dlen)
                    sprintf(next, "%s/", dir);
                strcpy(next + dlen, link);
            }
        }
        free(real);
        free(dir);
        free(cur);
        cur = next;
    }
    free(cur);
    return fd;
}

/* The status of what OUT names (the descriptor's for "-"). */
static int stat_output(const char *out, struct stat *st)
{
    return strcmp(out, "-") == 0 ? fstat(STDOUT_FILENO, st) : stat(out, st);
}

int mp_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    int ea = stat_output(a, &sa) == 0, eb = stat_output(b, &sb) == 0;

    if (ea && eb)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    return !ea && !eb && strcmp(a, b) == 0;
}

static const char *file_kind(mode_t m)
{
    return S_ISDIR(m) ? "a directory" : S_ISCHR(m) ? "a character device"
         : S_ISBLK(m) ? "a block device" : S_ISFIFO(m) ? "a FIFO"
         : S_ISSOCK(m) ? "a socket" : "not a regular file";
}

/* A FIFO or a character device (a terminal, /dev/null) is written in
 * place: there is nothing to rename over. A block device is a disk. */
static int is_stream(mode_t m)
{
    return S_ISFIFO(m) || S_ISCHR(m);
}

/* Read-only by its mode is read-only for root too. */
static int read_only(const char *out, const struct stat *st)
{
    return (st->st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) == 0 ||
           (access(out, W_OK) != 0 && (errno == EACCES || errno == EROFS));
}

/* A descriptor OUT names must be open for writing and not an input. */
static int check_fd(const char *out, int fd)
{
    struct stat st;
    int fl = fcntl(fd, F_GETFL);

    if (fl < 0)
        return mp_error(out, "names descriptor %d, which is not open", fd);
    if ((fl & O_ACCMODE) == O_RDONLY)
        return mp_error(out, "names descriptor %d, which is open for reading only", fd);
    if (fstat(fd, &st) == 0 && is_input(&st))
        return mp_error(out, "is an input of this command: refusing to overwrite it");
    return 0;
}

/* The checks of mp_output_check, the directory's only with DIR (creating
 * the temporary file checks it too); *EXISTING gets the file's status
 * (mode zero when there is no file yet), *FD the descriptor OUT names
 * (-1: none). */
static int check_output(const char *out, int dir_too, struct stat *existing, int *fd)
{
    struct stat st;
    char *dir;
    int ret = 0;

    memset(existing, 0, sizeof(*existing));
    if ((*fd = named_fd(out)) >= 0)
        return check_fd(out, *fd);
    if (stat(out, &st) == 0) {
        if (!S_ISREG(st.st_mode) && !is_stream(st.st_mode))
            return mp_error(out, "is %s: refusing to write the output to it", file_kind(st.st_mode));
        if (is_input(&st))
            return mp_error(out, "is an input of this command: refusing to overwrite it");
        if (is_stream(st.st_mode) && read_only(out, &st))
            return mp_error(out, "is %s without write permission: refusing to write to it",
                            file_kind(st.st_mode));
        if (read_only(out, &st))
            return mp_error(out, "exists and is read-only: refusing to replace it (remove it or "
                                 "make it writable first)");
        *existing = st;
        if (is_stream(st.st_mode))
            return 0;
    } else if (errno != ENOENT) {
        return mp_error(out, "cannot check the output: %s", strerror(errno));
    }
    if (!dir_too)
        return 0;
    dir = mp_path_dir(out);
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
    int fd;

    return check_output(out, 1, &st, &fd);
}

/* A stream is staged in an unnamed temporary file (tmpfile: the system's
 * temporary directory), so nothing reaches it before every output of the
 * command is complete, whatever the output's size. */
static int open_stream(struct mp_atomic *a, int fd)
{
    a->stream = 1;
    a->fd = fd;
    a->f = tmpfile();
    if (!a->f)
        return mp_error(a->path, "cannot create a temporary file to stage the output: %s", strerror(errno));
    return 0;
}

int mp_atomic_open(struct mp_atomic *a, const char *path)
{
    static const char suffix[] = ".tmpXXXXXX";
    struct stat existing, link;
    const char *target = path;
    size_t len;
    mode_t mode;
    int fd;

    memset(a, 0, sizeof(*a));
    a->path = path;
    a->fd = a->dest = -1;
    if (check_output(path, 0, &existing, &fd) < 0)
        return -1;
    if (fd >= 0 || is_stream(existing.st_mode))
        return open_stream(a, fd);
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
    char *dir = mp_path_dir(path);
    int fd = dir ? open(dir, O_RDONLY) : -1;

    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
    free(dir);
}

/* Open the stream named by path. A FIFO that no process reads is refused
 * at once (ENXIO) rather than waited for: pull may hold the target frozen
 * meanwhile. The writes themselves block as on any pipe. */
static int open_dest(struct mp_atomic *a)
{
    int fd = open(a->path, O_WRONLY | O_NOCTTY | O_NONBLOCK), fl;

    if (fd < 0 && errno == ENXIO)
        return mp_error(a->path, "is a FIFO that no process reads: start its reader first");
    if (fd < 0)
        return mp_error(a->path, "cannot open: %s", strerror(errno));
    fl = fcntl(fd, F_GETFL);
    if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
        close(fd);
        return mp_error(a->path, "cannot set the output to blocking writes: %s", strerror(errno));
    }
    a->dest = fd;
    return 0;
}

/* A stream is ready when staged and opened; a terminal is checked here,
 * before anything is written. */
int mp_file_stream_ready(struct mp_atomic *a)
{
    if (fflush(a->f) != 0 || ferror(a->f))
        return mp_error(a->path, "cannot stage the output in a temporary file: %s", strerror(errno));
    if (a->fd >= 0)
        a->dest = a->fd;
    else if (open_dest(a) < 0)
        return -1;
    if (isatty(a->dest) && mp_file_check_terminal(a) < 0)
        return -1;
    return 0;
}

int mp_file_sync(FILE *f)
{
    return fsync(fileno(f));
}

/* Copy the staged output to the stream. A reader that went away is a
 * write error (EPIPE), not a signal that would leave temporary files. */
int mp_file_copy_out(struct mp_atomic *a, const char *note)
{
    struct sigaction ign, old;
    char buf[65536];
    uintmax_t done = 0;
    size_t n;
    int ret = 0;

    memset(&ign, 0, sizeof(ign));
    ign.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &ign, &old);
    rewind(a->f);
    while (ret == 0 && (n = fread(buf, 1, sizeof(buf), a->f)) > 0) {
        size_t off = 0;

        while (off < n) {
            ssize_t w = write(a->dest, buf + off, n - off);

            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0) {
                ret = mp_error(a->path, "write error after %ju bytes: %s%s", done + off,
                               w < 0 ? strerror(errno) : "nothing written", note);
                break;
            }
            off += (size_t)w;
        }
        done += off;
    }
    if (ret == 0 && ferror(a->f))
        ret = mp_error(a->path, "cannot read back the staged output: %s%s", strerror(errno), note);
    sigaction(SIGPIPE, &old, NULL);
    return ret;
}

int mp_file_replace(struct mp_atomic *a, const char *note)
{
    if (rename(a->tmp_path, a->real_path ? a->real_path : a->path) != 0)
        return mp_error(a->path, "cannot rename %s into place: %s%s", a->tmp_path, strerror(errno), note);
    sync_dir(a->real_path ? a->real_path : a->path);
    return 0;
}

int mp_file_close_fd(int fd)
{
    return close(fd);
}

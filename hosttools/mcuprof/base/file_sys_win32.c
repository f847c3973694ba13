/*
 * file_sys_win32.c - outputs through Windows' calls, and which file an
 * input is (file_sys.h).
 *
 * An output file is written to PATH.tmpXXXXXX beside it, flushed to disk
 * (_commit), closed, then moved over PATH with MoveFileExW
 * (MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH): Windows renames
 * only a closed file, and refuses to replace one another program holds
 * open, which is said in one line. A stream ("-", NUL, CON, a named pipe)
 * is staged in a temporary file that deletes itself, then copied out.
 * Names are UTF-8 (wide_name.h). Windows has no symbolic-link or mode
 * handling here: a file replaced gets its folder's permissions.
 */
#include "file_sys.h"

#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

#include "diag.h"
#include "file_open.h"
#include "path_name.h"
#include "wide_name.h"

/* What Windows says of ERR, in UTF-8, one line; a static buffer. */
static const char *sys_text(DWORD err)
{
    static char text[512];
    wchar_t w[256];
    char *s;
    size_t n;

    /* the commonest in the words a POSIX host uses */
    if (err == ERROR_FILE_NOT_FOUND || err == ERROR_PATH_NOT_FOUND)
        return strerror(ENOENT);
    if (err == ERROR_ACCESS_DENIED)
        return strerror(EACCES);
    if (!FormatMessageW(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, NULL, err, 0, w,
                        sizeof(w) / sizeof(w[0]), NULL) ||
        !(s = mp_narrow(w))) {
        snprintf(text, sizeof(text), "Windows error %lu", (unsigned long)err);
        return text;
    }
    snprintf(text, sizeof(text), "%s", s);
    free(s);
    n = strlen(text);
    while (n > 0 && (text[n - 1] == '\r' || text[n - 1] == '\n' || text[n - 1] == ' ' || text[n - 1] == '.'))
        text[--n] = '\0';
    return text;
}

/* What a name or a handle is. */
struct info {
    int exists;
    DWORD type;  /* FILE_TYPE_DISK, _CHAR, _PIPE */
    DWORD attrs; /* FILE_ATTRIBUTE_... */
    int have_id;
    struct mp_file_id id;
    uint64_t size;
};

static void info_of_handle(HANDLE h, struct info *in)
{
    BY_HANDLE_FILE_INFORMATION fi;

    in->exists = 1;
    in->type = GetFileType(h);
    if (in->type == FILE_TYPE_DISK && GetFileInformationByHandle(h, &fi)) {
        in->attrs = fi.dwFileAttributes;
        in->have_id = 1;
        in->id.dev = fi.dwVolumeSerialNumber;
        in->id.ino = (uint64_t)fi.nFileIndexHigh << 32 | fi.nFileIndexLow;
        in->size = (uint64_t)fi.nFileSizeHigh << 32 | fi.nFileSizeLow;
    }
}

/* *IN for PATH; -1 with errno set (ENOENT: nothing by that name), *ERR
 * Windows' error. Asks for no access, so a file another program holds
 * open is still seen. */
static int info_of(const char *path, struct info *in, DWORD *err)
{
    wchar_t *w = mp_wide(path);
    HANDLE h;

    memset(in, 0, sizeof(*in));
    *err = 0;
    if (!w)
        return -1;
    h = CreateFileW(w, 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL, OPEN_EXISTING,
                    FILE_FLAG_BACKUP_SEMANTICS, NULL);
    free(w);
    if (h == INVALID_HANDLE_VALUE) {
        *err = GetLastError();
        errno = *err == ERROR_FILE_NOT_FOUND || *err == ERROR_PATH_NOT_FOUND || *err == ERROR_INVALID_NAME
                    ? ENOENT : EACCES;
        return -1;
    }
    info_of_handle(h, in);
    CloseHandle(h);
    return 0;
}

static void info_of_fd(int fd, struct info *in)
{
    HANDLE h = (HANDLE)_get_osfhandle(fd);

    memset(in, 0, sizeof(*in));
    if (h != INVALID_HANDLE_VALUE)
        info_of_handle(h, in);
}

int mp_file_facts(FILE *f, const char *path, struct mp_file_facts *facts)
{
    struct info in;

    (void)path;
    info_of_fd(_fileno(f), &in);
    memset(facts, 0, sizeof(*facts));
    facts->dir = (in.attrs & FILE_ATTRIBUTE_DIRECTORY) != 0;
    facts->regular = in.type == FILE_TYPE_DISK && !facts->dir;
    facts->size = in.size;
    /* no identity (a pipe): one nothing else matches */
    facts->id.dev = in.have_id ? in.id.dev : UINT64_MAX;
    facts->id.ino = in.have_id ? in.id.ino : (uint64_t)(uintptr_t)f;
    return 0;
}

int mp_file_id_of(const char *path, struct mp_file_id *id)
{
    struct info in;
    DWORD err;

    if (info_of(path, &in, &err) < 0)
        return -1;
    if (!in.have_id) {
        errno = ENOENT;
        return -1;
    }
    *id = in.id;
    return 0;
}

/* "-" is the standard output; no other name is a descriptor here. */
static int output_info(const char *out, struct info *in, DWORD *err)
{
    if (strcmp(out, "-") == 0) {
        info_of_fd(1, in);
        *err = 0;
        return 0;
    }
    return info_of(out, in, err);
}

/* Whether A and B, neither of which exists yet, name one file: their
 * full paths equal but for case, as Windows' file systems compare them
 * ("out\x.gmon" and "OUT/X.gmon"). */
static int same_name(const char *a, const char *b)
{
    wchar_t *wa = mp_wide(a), *wb = mp_wide(b), fa[1024], fb[1024];
    DWORD na = wa ? GetFullPathNameW(wa, 1024, fa, NULL) : 0, nb = wb ? GetFullPathNameW(wb, 1024, fb, NULL) : 0;
    int same = na && nb && na < 1024 && nb < 1024 ? CompareStringOrdinal(fa, -1, fb, -1, TRUE) == CSTR_EQUAL
                                                  : strcmp(a, b) == 0;

    free(wa);
    free(wb);
    return same;
}

int mp_same_file(const char *a, const char *b)
{
    struct info ia, ib;
    DWORD err;
    int ea = output_info(a, &ia, &err) == 0, eb = output_info(b, &ib, &err) == 0;

    if (ea && eb && ia.have_id && ib.have_id)
        return ia.id.dev == ib.id.dev && ia.id.ino == ib.id.ino;
    return !ea && !eb && (strcmp(a, b) == 0 || (strcmp(a, "-") && strcmp(b, "-") && same_name(a, b)));
}

/* A console, NUL or a pipe is written in place: nothing to rename over. */
static int is_stream(const struct info *in)
{
    return in->exists && (in->type == FILE_TYPE_CHAR || in->type == FILE_TYPE_PIPE);
}

static int check_output(const char *out, int dir_too, struct info *existing, int *fd)
{
    struct info in;
    DWORD err, attrs;
    wchar_t *w;
    char *dir;
    int ret = 0;

    memset(existing, 0, sizeof(*existing));
    *fd = strcmp(out, "-") == 0 ? 1 : -1;
    if (output_info(out, &in, &err) == 0) {
        if (in.attrs & FILE_ATTRIBUTE_DIRECTORY)
            return mp_error(out, "is a directory: refusing to write the output to it");
        if (in.have_id && mp_file_is_input(&in.id))
            return mp_error(out, "is an input of this command: refusing to overwrite it");
        if (in.attrs & FILE_ATTRIBUTE_READONLY)
            return mp_error(out, "exists and is read-only: refusing to replace it (remove it or "
                                 "make it writable first)");
        *existing = in;
        if (*fd >= 0 || is_stream(&in))
            return 0;
    } else if (errno != ENOENT) {
        return mp_error(out, "cannot check the output: %s", sys_text(err));
    }
    if (!dir_too)
        return 0;
    if (!(dir = mp_path_dir(out)) || !(w = mp_wide(dir))) {
        free(dir);
        return mp_error(out, "out of memory");
    }
    attrs = GetFileAttributesW(w);
    if (attrs == INVALID_FILE_ATTRIBUTES)
        ret = mp_error(out, "cannot create the output: directory %s: %s", dir, sys_text(GetLastError()));
    else if (!(attrs & FILE_ATTRIBUTE_DIRECTORY))
        ret = mp_error(out, "cannot create the output: %s is not a directory", dir);
    free(w);
    free(dir);
    return ret;
}

int mp_output_check(const char *out)
{
    struct info in;
    int fd;

    return check_output(out, 1, &in, &fd);
}

/* A FILE writing to the new file W made by CreateFileW (FLAGS: its
 * attributes and flags, MODE: fdopen's), or NULL with *ERR set. */
static FILE *create_file(const wchar_t *w, DWORD flags, const char *mode, DWORD *err)
{
    HANDLE h = CreateFileW(w, GENERIC_READ | GENERIC_WRITE, 0, NULL, CREATE_NEW, flags, NULL);
    int fd;
    FILE *f;

    if (h == INVALID_HANDLE_VALUE) {
        *err = GetLastError();
        return NULL;
    }
    fd = _open_osfhandle((intptr_t)h, _O_BINARY);
    if (fd < 0) {
        *err = ERROR_TOO_MANY_OPEN_FILES;
        CloseHandle(h);
        return NULL;
    }
    if (!(f = _fdopen(fd, mode))) {
        *err = ERROR_NOT_ENOUGH_MEMORY;
        _close(fd);
    }
    return f;
}

/* The six characters that make a temporary name unique, a new set each
 * call. */
static void unique6(char out[7])
{
    static unsigned long n;
    unsigned long v = (unsigned long)GetCurrentProcessId() * 2654435761u ^ GetTickCount() ^ ++n * 40503u;
    int i;

    for (i = 0; i < 6; i++, v /= 36)
        out[i] = "0123456789abcdefghijklmnopqrstuvwxyz"[v % 36];
    out[6] = '\0';
}

/* A stream is staged in a file of the temporary folder that Windows
 * deletes when it is closed (the CRT's tmpfile writes to the root of the
 * drive, which a user may not). */
static int open_stream(struct mp_atomic *a, int fd)
{
    wchar_t dir[MAX_PATH + 1], name[MAX_PATH + 32];
    DWORD err = 0;
    char u[7];
    int tries;

    a->stream = 1;
    a->fd = fd;
    if (!GetTempPathW(MAX_PATH + 1, dir))
        return mp_error(a->path, "cannot create a temporary file to stage the output: %s",
                        sys_text(GetLastError()));
    for (tries = 0; tries < 100 && !a->f; tries++) {
        unique6(u);
        _snwprintf(name, sizeof(name) / sizeof(name[0]), L"%lsmcuprof-%hs.tmp", dir, u);
        a->f = create_file(name, FILE_ATTRIBUTE_TEMPORARY | FILE_FLAG_DELETE_ON_CLOSE, "w+b", &err);
        if (!a->f && err != ERROR_FILE_EXISTS)
            break;
    }
    if (!a->f)
        return mp_error(a->path, "cannot create a temporary file to stage the output: %s", sys_text(err));
    return 0;
}

int mp_atomic_open(struct mp_atomic *a, const char *path)
{
    static const char suffix[] = ".tmpXXXXXX";
    struct info existing;
    size_t len = strlen(path);
    DWORD err = 0;
    wchar_t *w;
    int fd, tries;

    memset(a, 0, sizeof(*a));
    a->path = path;
    a->fd = a->dest = -1;
    if (check_output(path, 0, &existing, &fd) < 0)
        return -1;
    if (fd >= 0 || is_stream(&existing))
        return open_stream(a, fd);
    a->tmp_path = malloc(len + sizeof(suffix));
    if (!a->tmp_path)
        return mp_error(path, "out of memory");
    memcpy(a->tmp_path, path, len);
    for (tries = 0; tries < 100 && !a->f; tries++) {
        unique6(a->tmp_path + len + 4);
        memcpy(a->tmp_path + len, ".tmp", 4);
        if (!(w = mp_wide(a->tmp_path))) {
            err = ERROR_NO_UNICODE_TRANSLATION;
            break;
        }
        a->f = create_file(w, FILE_ATTRIBUTE_NORMAL, "wb", &err);
        free(w);
        if (!a->f && err != ERROR_FILE_EXISTS)
            break;
    }
    if (!a->f) {
        mp_error(path, "cannot create temporary output %s: %s", a->tmp_path, sys_text(err));
        free(a->tmp_path);
        a->tmp_path = NULL;
        return -1;
    }
    return 0;
}

int mp_file_stream_ready(struct mp_atomic *a)
{
    if (fflush(a->f) != 0 || ferror(a->f))
        return mp_error(a->path, "cannot stage the output in a temporary file: %s", strerror(errno));
    if (a->fd >= 0)
        a->dest = a->fd;
    else if ((a->dest = mp_open(a->path, _O_WRONLY)) < 0)
        return mp_error(a->path, "cannot open: %s", strerror(errno));
    _setmode(a->dest, _O_BINARY); /* the bytes as they are: LF, never CRLF */
    if (_isatty(a->dest) && mp_file_check_terminal(a) < 0)
        return -1;
    return 0;
}

int mp_file_sync(FILE *f)
{
    return _commit(_fileno(f));
}

/* Copy the staged output to the stream. */
int mp_file_copy_out(struct mp_atomic *a, const char *note)
{
    char buf[65536];
    uintmax_t done = 0;
    size_t n;
    int ret = 0;

    rewind(a->f);
    while (ret == 0 && (n = fread(buf, 1, sizeof(buf), a->f)) > 0) {
        size_t off = 0;

        while (off < n) {
            int w = _write(a->dest, buf + off, (unsigned)(n - off));

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
    return ret;
}

/* Move the closed temporary file over the output. */
int mp_file_replace(struct mp_atomic *a, const char *note)
{
    wchar_t *from = mp_wide(a->tmp_path), *to = mp_wide(a->path);
    DWORD err = 0;
    int ok = from && to && MoveFileExW(from, to, MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH);

    if (!ok)
        err = from && to ? GetLastError() : ERROR_NO_UNICODE_TRANSLATION;
    free(from);
    free(to);
    if (ok)
        return 0;
    if (err == ERROR_SHARING_VIOLATION || err == ERROR_ACCESS_DENIED || err == ERROR_LOCK_VIOLATION)
        return mp_error(a->path, "cannot replace: the file is open in another program%s", note);
    return mp_error(a->path, "cannot rename %s into place: %s%s", a->tmp_path, sys_text(err), note);
}

int mp_file_close_fd(int fd)
{
    return _close(fd);
}

/*
 * file_open_win32.c - UTF-8 file names through the wide calls, always
 * binary (file_open.h).
 */
#include "file_open.h"

#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <windows.h>

#include "wide_name.h"

/* A folder opened as a file fails with EACCES on Windows: said EISDIR, as
 * the caller's "is a directory" expects on every host. */
static void folder_is_eisdir(const wchar_t *wpath)
{
    DWORD attrs;

    if (errno == EACCES && (attrs = GetFileAttributesW(wpath)) != INVALID_FILE_ATTRIBUTES &&
        (attrs & FILE_ATTRIBUTE_DIRECTORY))
        errno = EISDIR;
}

FILE *mp_fopen(const char *path, const char *mode)
{
    wchar_t *wpath = mp_wide(path), wmode[8];
    size_t i, n = 0;
    FILE *f;

    if (!wpath)
        return NULL;
    for (i = 0; mode[i] && n < 6; i++) {
        if (mode[i] != 'b' && mode[i] != 't')
            wmode[n++] = (wchar_t)(unsigned char)mode[i];
    }
    wmode[n++] = L'b';
    wmode[n] = L'\0';
    if (!(f = _wfopen(wpath, wmode)))
        folder_is_eisdir(wpath);
    free(wpath);
    return f;
}

int mp_open(const char *path, int flags)
{
    wchar_t *wpath = mp_wide(path);
    int fd;

    if (!wpath)
        return -1;
    if ((fd = _wopen(wpath, flags | _O_BINARY | _O_NOINHERIT, _S_IREAD | _S_IWRITE)) < 0)
        folder_is_eisdir(wpath);
    free(wpath);
    return fd;
}

int mp_remove(const char *path)
{
    wchar_t *wpath = mp_wide(path);
    int r;

    if (!wpath)
        return -1;
    r = _wremove(wpath);
    free(wpath);
    return r;
}

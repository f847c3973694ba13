/*
 * host_dir_win32.c - the file system questions of host_dir.h on
 * Windows, through the wide calls.
 */
#define WIN32_LEAN_AND_MEAN
#include <windows.h>

#include "host_dir.h"

#include <errno.h>
#include <io.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "wide_name.h"

/* UTF-16 W into BUF as UTF-8: 0, or -1 when it does not fit. */
static int narrow_into(const wchar_t *w, char *buf, size_t size)
{
    return WideCharToMultiByte(CP_UTF8, 0, w, -1, buf, size > 0x7fffffff ? 0x7fffffff : (int)size, NULL, NULL) > 0
               ? 0
               : -1;
}

int mp_exe_dir(char *buf, size_t size)
{
    static wchar_t path[32768];
    DWORD n = GetModuleFileNameW(NULL, path, sizeof(path) / sizeof(path[0]));
    wchar_t *p, *sep = NULL;

    if (n == 0 || n >= sizeof(path) / sizeof(path[0]))
        return -1;
    for (p = path; *p; p++)
        if (*p == L'\\' || *p == L'/')
            sep = p;
    if (!sep)
        return -1;
    *sep = L'\0';
    return narrow_into(path, buf, size);
}

/* PATH's attributes, INVALID_FILE_ATTRIBUTES when it names nothing. */
static DWORD attributes(const char *path)
{
    wchar_t *w = path[0] ? mp_wide(path) : NULL;
    DWORD a;

    if (!w)
        return INVALID_FILE_ATTRIBUTES;
    a = GetFileAttributesW(w);
    free(w);
    return a;
}

int mp_is_dir(const char *path)
{
    DWORD a = attributes(path);

    return a != INVALID_FILE_ATTRIBUTES && (a & FILE_ATTRIBUTE_DIRECTORY);
}

int mp_exists(const char *path)
{
    return attributes(path) != INVALID_FILE_ATTRIBUTES;
}

int mp_is_readable(const char *path)
{
    wchar_t *w = mp_wide(path);
    int ok;

    if (!w)
        return 0;
    ok = _waccess(w, 4) == 0;
    free(w);
    return ok;
}

int mp_dir_each(const char *dir, void (*fn)(const char *name, void *ctx), void *ctx)
{
    WIN32_FIND_DATAW e;
    HANDLE h;
    wchar_t *w = mp_wide(dir), *spec;
    size_t n;

    if (!w)
        return -1;
    n = wcslen(w);
    if (!(spec = malloc((n + 3) * sizeof(wchar_t)))) {
        free(w);
        return errno = ENOMEM, -1;
    }
    memcpy(spec, w, n * sizeof(wchar_t));
    wcscpy(spec + n, L"\\*");
    free(w);
    h = FindFirstFileW(spec, &e);
    free(spec);
    if (h == INVALID_HANDLE_VALUE)
        return errno = ENOENT, -1;
    do {
        char name[MAX_PATH * 4];

        if (wcscmp(e.cFileName, L".") && wcscmp(e.cFileName, L"..") &&
            narrow_into(e.cFileName, name, sizeof(name)) == 0)
            fn(name, ctx);
    } while (FindNextFileW(h, &e));
    FindClose(h);
    return 0;
}

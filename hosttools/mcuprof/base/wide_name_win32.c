/*
 * wide_name_win32.c - UTF-8 <-> UTF-16 (wide_name.h).
 */
#include "wide_name.h"

#include <errno.h>
#include <stdlib.h>
#include <windows.h>

wchar_t *mp_wide(const char *s)
{
    int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, NULL, 0);
    wchar_t *w;

    if (n <= 0) {
        errno = EILSEQ;
        return NULL;
    }
    if (!(w = malloc((size_t)n * sizeof(*w)))) {
        errno = ENOMEM;
        return NULL;
    }
    MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, w, n);
    return w;
}

char *mp_narrow(const wchar_t *w)
{
    int n = WideCharToMultiByte(CP_UTF8, 0, w, -1, NULL, 0, NULL, NULL);
    char *s;

    if (n <= 0) {
        errno = EILSEQ;
        return NULL;
    }
    if (!(s = malloc((size_t)n))) {
        errno = ENOMEM;
        return NULL;
    }
    WideCharToMultiByte(CP_UTF8, 0, w, -1, s, n, NULL, NULL);
    return s;
}

/*
 * term_win32.c - the console on Windows (term.h).
 */
#include "term.h"

#include <io.h>
#include <stdlib.h>
#include <windows.h>

#ifndef ENABLE_VIRTUAL_TERMINAL_PROCESSING
#define ENABLE_VIRTUAL_TERMINAL_PROCESSING 0x0004
#endif

static HANDLE console(FILE *f)
{
    return (HANDLE)_get_osfhandle(_fileno(f));
}

int mp_term_is(FILE *f)
{
    DWORD mode;

    /* _isatty is true for NUL too: a console answers GetConsoleMode */
    return _isatty(_fileno(f)) && GetConsoleMode(console(f), &mode);
}

size_t mp_term_columns(FILE *f)
{
    CONSOLE_SCREEN_BUFFER_INFO info;

    if (!GetConsoleScreenBufferInfo(console(f), &info))
        return 0;
    return (size_t)(info.srWindow.Right - info.srWindow.Left + 1);
}

int mp_term_vt(FILE *f)
{
    static int vt = -1;
    DWORD mode;

    if (vt < 0) {
        HANDLE h = console(f);

        vt = GetConsoleMode(h, &mode) &&
             ((mode & ENABLE_VIRTUAL_TERMINAL_PROCESSING) ||
              SetConsoleMode(h, mode | ENABLE_VIRTUAL_TERMINAL_PROCESSING));
    }
    return vt;
}

static UINT saved_cp; /* the console's output code page before, 0: none */

void mp_term_restore(void)
{
    if (saved_cp)
        SetConsoleOutputCP(saved_cp);
}

void mp_term_utf8(void)
{
    if ((saved_cp = GetConsoleOutputCP()) != 0 && SetConsoleOutputCP(CP_UTF8))
        atexit(mp_term_restore);
    else
        saved_cp = 0;
}

/*
 * args_win32.c - UTF-8 arguments from GetCommandLineW, a UTF-8 console,
 * binary standard streams (args.h).
 */
#include "args.h"

#include <fcntl.h>
#include <io.h>
#include <stdio.h>
#include <stdlib.h>
#include <windows.h>
#include <shellapi.h>

#include "term.h"
#include "wide_name.h"

void mp_args_start(int *argc, char ***argv)
{
    int n, i;
    wchar_t **w = CommandLineToArgvW(GetCommandLineW(), &n);
    char **u;

    _setmode(_fileno(stdout), _O_BINARY);
    _setmode(_fileno(stderr), _O_BINARY);
    mp_term_utf8();
    if (!w)
        return;
    u = calloc((size_t)n + 1, sizeof(*u));
    for (i = 0; u && i < n; i++) {
        if (!(u[i] = mp_narrow(w[i]))) {
            while (i > 0)
                free(u[--i]);
            free(u);
            u = NULL;
        }
    }
    LocalFree(w);
    if (!u)
        return;
    /* kept until the process ends: argv's strings are used throughout */
    *argc = n;
    *argv = u;
}

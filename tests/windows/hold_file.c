/*
 * hold_file.c - hold_file PATH SECONDS: open PATH (created if missing) the
 * way an editor or a viewer holding it open does on Windows, with no
 * sharing, say "held" on stdout, and keep it open for SECONDS. Built only
 * by the Windows build: the tests run it under Wine beside mcuprof.exe to
 * check that a locked output is one clear error, not a crash or a
 * half-written file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <wchar.h>
#include <windows.h>

int main(void)
{
    int argc;
    wchar_t **argv = CommandLineToArgvW(GetCommandLineW(), &argc);
    if (!argv || argc != 3) {
        fputs("usage: hold_file PATH SECONDS\n", stderr);
        return 2;
    }
    HANDLE h = CreateFileW(argv[1], GENERIC_READ | GENERIC_WRITE, 0 /* no sharing */, NULL, OPEN_ALWAYS,
                           FILE_ATTRIBUTE_NORMAL, NULL);
    if (h == INVALID_HANDLE_VALUE) {
        fprintf(stderr, "hold_file: cannot open the file (error %lu)\n", (unsigned long)GetLastError());
        return 1;
    }
    puts("held");
    fflush(stdout);
    Sleep((DWORD)wcstoul(argv[2], NULL, 10) * 1000u);
    CloseHandle(h);
    return 0;
}

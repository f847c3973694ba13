/*
 * top_term_win32.c - the terminal of `mcuprof top` on Windows
 * (top_term.h): the console's modes, its input records and its virtual
 * terminal sequences.
 *
 * The drawing is the same as on POSIX: ANSI sequences and the alternate
 * screen, which the console understands once
 * ENABLE_VIRTUAL_TERMINAL_PROCESSING is on (Windows 10 1809 and later).
 * Input keeps ENABLE_PROCESSED_INPUT, so Ctrl-C and Ctrl-Break reach the
 * console control handler (interrupt.h) as SIGINT does on POSIX, and top
 * ends the same way; line input and echo are off, so q, r and the rest
 * come one key at a time. A resize arrives as a WINDOW_BUFFER_SIZE_EVENT
 * among the input records. Windows has no Ctrl-Z job control: nothing to
 * give back while stopped.
 */
#define WIN32_LEAN_AND_MEAN
#include <windows.h>

#include "top_term.h"

#include <stdlib.h>

#include "diag.h"
#include "interrupt.h"

#ifndef ENABLE_VIRTUAL_TERMINAL_PROCESSING
#define ENABLE_VIRTUAL_TERMINAL_PROCESSING 0x0004
#endif

/* The alternate screen on, the cursor hidden; and back. */
#define ENTER "\033[?1049h\033[?25l\033[H\033[2J"
#define LEAVE "\033[?25h\033[?1049l"

/* The longest wait without looking at mp_interrupted() when there is no
 * event to wait on beside the console (mp_interrupt_event() NULL: the
 * handlers not installed). */
#define SLICE_MS 50

static HANDLE in, out;
static DWORD saved_in, saved_out;
static UINT saved_cp;
static volatile LONG is_open; /* the console is ours to give back */
static volatile LONG changed; /* the window changed size */

static void put(const char *s, size_t len)
{
    while (len > 0) {
        DWORD n = 0, chunk = len > 65536 ? 65536 : (DWORD)len;

        if (!WriteFile(out, s, chunk, &n, NULL) || n == 0)
            return;
        s += n;
        len -= n;
    }
}

int top_term_usable(void)
{
    DWORD m;

    return GetConsoleMode(GetStdHandle(STD_INPUT_HANDLE), &m) && GetConsoleMode(GetStdHandle(STD_OUTPUT_HANDLE), &m);
}

void top_term_close(void)
{
    /* once, from whichever thread gets here first (the main one, or the
     * console control handler's at a third Ctrl-C) */
    if (InterlockedExchange(&is_open, 0)) {
        put(LEAVE, sizeof(LEAVE) - 1);
        SetConsoleMode(out, saved_out);
        SetConsoleMode(in, saved_in);
        if (saved_cp)
            SetConsoleOutputCP(saved_cp);
    }
}

static void at_exit(void)
{
    top_term_close();
}

int top_term_open(void)
{
    static int registered;
    DWORD mode;

    in = GetStdHandle(STD_INPUT_HANDLE);
    out = GetStdHandle(STD_OUTPUT_HANDLE);
    if (!GetConsoleMode(in, &saved_in) || !GetConsoleMode(out, &saved_out))
        return mp_error(NULL, "top: cannot read the console's modes (error %lu)", (unsigned long)GetLastError());
    if (!registered++) {
        atexit(at_exit);
        mp_interrupt_on_exit(at_exit);
    }
    if (!SetConsoleMode(out, saved_out | ENABLE_PROCESSED_OUTPUT | ENABLE_VIRTUAL_TERMINAL_PROCESSING)) {
        SetConsoleMode(out, saved_out);
        return mp_error(NULL, "top needs a console with virtual terminal sequences (Windows 10 1809 or later); "
                              "use --batch");
    }
    mode = (saved_in | ENABLE_PROCESSED_INPUT | ENABLE_WINDOW_INPUT) &
           ~(DWORD)(ENABLE_LINE_INPUT | ENABLE_ECHO_INPUT | ENABLE_MOUSE_INPUT);
    if (!SetConsoleMode(in, mode)) {
        DWORD err = GetLastError();

        SetConsoleMode(out, saved_out);
        return mp_error(NULL, "top: cannot set the console's input mode (error %lu)", (unsigned long)err);
    }
    /* the screen's names and bars are UTF-8 */
    saved_cp = GetConsoleOutputCP();
    SetConsoleOutputCP(CP_UTF8);
    is_open = 1;
    put(ENTER, sizeof(ENTER) - 1);
    return 0;
}

void top_term_size(unsigned *rows, unsigned *cols)
{
    CONSOLE_SCREEN_BUFFER_INFO info;

    *rows = 24;
    *cols = 80;
    if (GetConsoleScreenBufferInfo(GetStdHandle(STD_OUTPUT_HANDLE), &info) &&
        info.srWindow.Bottom >= info.srWindow.Top && info.srWindow.Right >= info.srWindow.Left) {
        *rows = (unsigned)(info.srWindow.Bottom - info.srWindow.Top + 1);
        *cols = (unsigned)(info.srWindow.Right - info.srWindow.Left + 1);
    }
}

int top_term_changed(void)
{
    return (int)InterlockedExchange(&changed, 0);
}

/* The records waiting on the console's input, one at a time so that a
 * key typed ahead stays for the next call: the key (an ASCII character,
 * as a terminal sends it), 0 when none (a resize noted), -1 when the
 * input failed. */
static int read_records(void)
{
    DWORD avail = 0;

    if (!GetNumberOfConsoleInputEvents(in, &avail))
        return -1;
    while (avail-- > 0) {
        INPUT_RECORD rec;
        DWORD n = 0;

        if (!ReadConsoleInputW(in, &rec, 1, &n))
            return -1;
        if (n == 0)
            break;
        if (rec.EventType == WINDOW_BUFFER_SIZE_EVENT)
            changed = 1;
        else if (rec.EventType == KEY_EVENT && rec.Event.KeyEvent.bKeyDown) {
            WCHAR c = rec.Event.KeyEvent.uChar.UnicodeChar;

            /* the keys top knows are ASCII (Ctrl-L is 12); arrows,
             * shift and the like carry no character */
            if (c > 0 && c < 128)
                return (int)c;
        }
    }
    return 0;
}

int top_term_key(unsigned ms)
{
    DWORD start = GetTickCount();

    for (;;) {
        /* the console's input, and the event the console control
         * handler sets (interrupt.h): a Ctrl-C ends the wait at once */
        HANDLE h[2] = {in, (HANDLE)mp_interrupt_event()};
        DWORD waited = GetTickCount() - start, r;

        if (changed || mp_interrupted())
            return 0;
        if (waited >= ms)
            return 0;
        r = WaitForMultipleObjects(h[1] ? 2 : 1, h, FALSE,
                                   h[1] ? ms - waited : ms - waited < SLICE_MS ? ms - waited : SLICE_MS);
        if (r == WAIT_FAILED)
            return -1;
        if (r == WAIT_OBJECT_0 + 1) {
            /* a signal let by (interrupt.h): only the next one counts */
            if (!mp_interrupted())
                mp_interrupt_drain();
            return 0;
        }
        if (r == WAIT_OBJECT_0) {
            int k = read_records();

            if (k != 0)
                return k;
        }
    }
}

void top_term_write(const char *s, size_t len)
{
    put(s, len);
}

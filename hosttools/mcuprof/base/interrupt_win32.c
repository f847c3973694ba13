/*
 * interrupt_win32.c - the console's Ctrl-C, Ctrl-Break and close as
 * SIGINT, SIGTERM and SIGHUP (interrupt_os.h).
 *
 * Windows calls the handler on a thread of its own while the main thread
 * runs on: the handler sets the flags (interrupt.c) and wakes the waits
 * through a loopback socket pair, which WSAPoll waits on beside the
 * sockets of a link (mp_interrupt_fd), and an event, which
 * WaitForMultipleObjects waits on beside the console (mp_interrupt_event).
 */
#include "interrupt.h"
#include "interrupt_os.h"
#include "term.h"

#include <stdlib.h>
#include <string.h>
#include <winsock2.h>
#include <ws2tcpip.h>
#include <windows.h>

static void (*on_stop)(int sig);
static SOCKET wake_rd = INVALID_SOCKET, wake_wr = INVALID_SOCKET;
static HANDLE wake_event;

/* A connected pair of loopback TCP sockets, both non-blocking: what one
 * sends, the other reads. The listener takes 127.0.0.1 only, is exclusive
 * and lives until the pair is made. */
static int socket_pair(SOCKET s[2])
{
    struct sockaddr_in a;
    int len = sizeof(a), one = 1;
    u_long nb = 1;
    SOCKET l = socket(AF_INET, SOCK_STREAM, IPPROTO_TCP);

    s[0] = s[1] = INVALID_SOCKET;
    if (l == INVALID_SOCKET)
        return -1;
    memset(&a, 0, sizeof(a));
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    setsockopt(l, SOL_SOCKET, SO_EXCLUSIVEADDRUSE, (const char *)&one, sizeof(one));
    if (bind(l, (struct sockaddr *)&a, sizeof(a)) != 0 || getsockname(l, (struct sockaddr *)&a, &len) != 0 ||
        listen(l, 1) != 0)
        goto fail;
    s[1] = socket(AF_INET, SOCK_STREAM, IPPROTO_TCP);
    if (s[1] == INVALID_SOCKET || connect(s[1], (struct sockaddr *)&a, sizeof(a)) != 0)
        goto fail;
    s[0] = accept(l, NULL, NULL);
    if (s[0] == INVALID_SOCKET)
        goto fail;
    closesocket(l);
    ioctlsocket(s[0], FIONBIO, &nb);
    ioctlsocket(s[1], FIONBIO, &nb);
    setsockopt(s[1], IPPROTO_TCP, TCP_NODELAY, (const char *)&one, sizeof(one));
    return 0;
fail:
    closesocket(l);
    if (s[1] != INVALID_SOCKET)
        closesocket(s[1]);
    s[0] = s[1] = INVALID_SOCKET;
    return -1;
}

void mp_interrupt_os_wake(void)
{
    if (wake_wr != INVALID_SOCKET)
        send(wake_wr, "", 1, 0); /* a full buffer already wakes the poll */
    if (wake_event)
        SetEvent(wake_event);
}

void mp_interrupt_os_exit(const char *text, size_t len, int code)
{
    DWORD done;

    if (len > 0)
        WriteFile(GetStdHandle(STD_ERROR_HANDLE), text, (DWORD)len, &done, NULL);
    mp_term_restore(); /* no atexit runs */
    /* At once, from this thread, whatever the main thread holds (as
     * _exit does from a signal handler): no atexit, no stdio flush. */
    TerminateProcess(GetCurrentProcess(), (UINT)code);
}

static BOOL WINAPI on_console(DWORD event)
{
    switch (event) {
    case CTRL_C_EVENT:
        on_stop(SIGINT);
        return TRUE;
    case CTRL_BREAK_EVENT:
        on_stop(SIGTERM);
        return TRUE;
    case CTRL_CLOSE_EVENT:
        /* Windows ends the process when this returns (at the latest some
         * seconds later): the main thread gets that time to release the
         * target and return from main. */
        on_stop(SIGHUP);
        Sleep(INFINITE);
        return TRUE;
    default:
        return FALSE;
    }
}

void mp_interrupt_os_catch(void (*handler)(int sig))
{
    WSADATA wsa;
    SOCKET s[2];

    on_stop = handler;
    /* Winsock for the pair; net_win32.c starts it too (it counts). */
    if (WSAStartup(MAKEWORD(2, 2), &wsa) == 0 && socket_pair(s) == 0) {
        wake_rd = s[0];
        wake_wr = s[1];
    }
    wake_event = CreateEventW(NULL, TRUE, FALSE, NULL);
    SetConsoleCtrlHandler(on_console, TRUE);
}

int mp_interrupt_fd(void)
{
    /* a SOCKET is a handle value, which stays far below INT_MAX (the
     * waits cast it back) */
    return wake_rd == INVALID_SOCKET ? -1 : (int)wake_rd;
}

void *mp_interrupt_event(void)
{
    return wake_event;
}

void mp_interrupt_drain(void)
{
    char b[64];

    while (wake_rd != INVALID_SOCKET && recv(wake_rd, b, sizeof(b), 0) > 0)
        ;
    if (wake_event)
        ResetEvent(wake_event);
}

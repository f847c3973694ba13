/*
 * sock_win32.c - Winsock behind the BSD calls net.c makes, and the
 * monotonic clock (sock.h).
 */
#include "sock.h"

#include <errno.h>
#include <limits.h>
#include <string.h>
#include <windows.h>
#include <mmsystem.h>

/* Windows' timer ticks every 15.6 ms unless asked for 1 ms: every sleep
 * and every select timeout would round up to that (sample's pacing at a
 * kHz, a 10 ms poll). Asked once, for the life of the process. */
static void fine_timer(void)
{
    static int asked;

    if (!asked) {
        asked = 1;
        timeBeginPeriod(1);
    }
}

int mp_sock_start(void)
{
    static int started;
    WSADATA wsa;

    if (!started) {
        if (WSAStartup(MAKEWORD(2, 2), &wsa) != 0) {
            errno = ENOSYS;
            return -1;
        }
        started = 1;
    }
    return 0;
}

/* WSAGetLastError() as the errno value a POSIX host gives. */
static int map_error(int wsa)
{
    switch (wsa) {
    case WSAEWOULDBLOCK: return EAGAIN;
    case WSAEINPROGRESS: return EINPROGRESS;
    case WSAEINTR: return EINTR;
    case WSAECONNREFUSED: return ECONNREFUSED;
    case WSAECONNRESET: return ECONNRESET;
    case WSAECONNABORTED: return ECONNABORTED;
    case WSAENETDOWN: return ENETDOWN;
    case WSAENETUNREACH: return ENETUNREACH;
    case WSAEHOSTUNREACH: return EHOSTUNREACH;
    case WSAETIMEDOUT: return ETIMEDOUT;
    case WSAEADDRNOTAVAIL: return EADDRNOTAVAIL;
    case WSAEADDRINUSE: return EADDRINUSE;
    case WSAEAFNOSUPPORT: return EAFNOSUPPORT;
    case WSAENOTCONN: return ENOTCONN;
    case WSAESHUTDOWN: return EPIPE;
    case WSAEMFILE: return EMFILE;
    case WSAENOBUFS: return ENOBUFS;
    case WSAEACCES: return EACCES;
    default: return EIO;
    }
}

int mp_sock_errno(void)
{
    return map_error(WSAGetLastError());
}

/* What glibc's strerror says for the errors a link meets: msvcrt's knows
 * only the C89 ones. */
const char *mp_sock_strerror(int err)
{
    switch (err) {
    case ECONNREFUSED: return "Connection refused";
    case ECONNRESET: return "Connection reset by peer";
    case ECONNABORTED: return "Software caused connection abort";
    case ENETDOWN: return "Network is down";
    case ENETUNREACH: return "Network is unreachable";
    case EHOSTUNREACH: return "No route to host";
    case ETIMEDOUT: return "Connection timed out";
    case EADDRNOTAVAIL: return "Cannot assign requested address";
    case EADDRINUSE: return "Address already in use";
    case EAFNOSUPPORT: return "Address family not supported by protocol";
    case ENOTCONN: return "Transport endpoint is not connected";
    case EPIPE: return "Broken pipe";
    case ENOBUFS: return "No buffer space available";
    case EIO: return "Input/output error";
    default: return strerror(err);
    }
}

int mp_sock_open(const struct addrinfo *ai)
{
    SOCKET s = WSASocketW(ai->ai_family, ai->ai_socktype, ai->ai_protocol, NULL, 0, WSA_FLAG_NO_HANDLE_INHERIT);
    u_long nb = 1;

    if (s == INVALID_SOCKET) {
        errno = mp_sock_errno();
        return -1;
    }
    ioctlsocket(s, FIONBIO, &nb);
    return (int)s;
}

void mp_sock_close(int fd)
{
    closesocket((SOCKET)fd);
}

/* A non-blocking connect under way is WSAEWOULDBLOCK here. */
int mp_sock_connect(int fd, const struct addrinfo *ai)
{
    int err;

    if (connect((SOCKET)fd, ai->ai_addr, (int)ai->ai_addrlen) == 0)
        return 0;
    err = WSAGetLastError();
    errno = err == WSAEWOULDBLOCK ? EINPROGRESS : map_error(err);
    return -1;
}

int mp_sock_connect_result(int fd)
{
    int err = 0, len = sizeof(err);

    if (getsockopt((SOCKET)fd, SOL_SOCKET, SO_ERROR, (char *)&err, &len) != 0)
        return mp_sock_errno();
    return err ? map_error(err) : 0;
}

void mp_sock_nodelay(int fd)
{
    int one = 1;

    setsockopt((SOCKET)fd, IPPROTO_TCP, TCP_NODELAY, (const char *)&one, sizeof(one));
}

/* select(), not WSAPoll: WSAPoll reports no event for a connect that
 * fails (before Windows 10 2004), select shows it in the except set. */
int mp_sock_poll(struct pollfd *p, unsigned n, int timeout_ms)
{
    fd_set rd, wr, ex;
    struct timeval tv, *ptv = NULL;
    unsigned i;
    int r, ready = 0;

    fine_timer();
    FD_ZERO(&rd);
    FD_ZERO(&wr);
    FD_ZERO(&ex);
    for (i = 0; i < n; i++) {
        p[i].revents = 0;
        if (p[i].events & POLLIN)
            FD_SET((SOCKET)p[i].fd, &rd);
        if (p[i].events & POLLOUT)
            FD_SET((SOCKET)p[i].fd, &wr);
        FD_SET((SOCKET)p[i].fd, &ex);
    }
    if (timeout_ms >= 0) {
        tv.tv_sec = timeout_ms / 1000;
        tv.tv_usec = timeout_ms % 1000 * 1000;
        ptv = &tv;
    }
    if (n == 0) {
        Sleep(timeout_ms < 0 ? INFINITE : (DWORD)timeout_ms);
        return 0;
    }
    r = select(0, &rd, &wr, &ex, ptv);
    if (r == SOCKET_ERROR) {
        errno = mp_sock_errno();
        return -1;
    }
    for (i = 0; i < n; i++) {
        if (FD_ISSET((SOCKET)p[i].fd, &rd))
            p[i].revents |= POLLIN;
        if (FD_ISSET((SOCKET)p[i].fd, &wr))
            p[i].revents |= POLLOUT;
        if (FD_ISSET((SOCKET)p[i].fd, &ex))
            p[i].revents |= POLLERR;
        ready += p[i].revents != 0;
    }
    return ready;
}

/* The socket is non-blocking (mp_sock_open): MSG_DONTWAIT's part; Windows
 * has no SIGPIPE. */
long mp_sock_send_now(int fd, const void *data, size_t len)
{
    int w = send((SOCKET)fd, data, len > INT_MAX ? INT_MAX : (int)len, 0);

    if (w == SOCKET_ERROR) {
        errno = mp_sock_errno();
        return -1;
    }
    return w;
}

long mp_sock_recv(int fd, void *buf, size_t len)
{
    int got = recv((SOCKET)fd, buf, len > INT_MAX ? INT_MAX : (int)len, 0);

    if (got == SOCKET_ERROR) {
        errno = mp_sock_errno();
        return -1;
    }
    return got;
}

int mp_sock_peer_closed(int fd)
{
    char c;

    return recv((SOCKET)fd, &c, 1, MSG_PEEK) == 0;
}

uint64_t mp_sock_clock_us(void)
{
    static LARGE_INTEGER freq;
    LARGE_INTEGER now;

    if (!freq.QuadPart)
        QueryPerformanceFrequency(&freq);
    QueryPerformanceCounter(&now);
    return (uint64_t)(now.QuadPart / freq.QuadPart) * 1000000u +
           (uint64_t)(now.QuadPart % freq.QuadPart) * 1000000u / (uint64_t)freq.QuadPart;
}

void mp_sock_nap_us(uint64_t us)
{
    /* Sleep counts milliseconds: a shorter nap yields the processor */
    fine_timer();
    Sleep((DWORD)(us >= 1000 ? us / 1000 : 0));
}

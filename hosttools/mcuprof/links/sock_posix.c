/*
 * sock_posix.c - BSD sockets and the monotonic clock (sock.h).
 */
/* poll, clock_gettime and nanosleep are POSIX, not C11. */
#define _POSIX_C_SOURCE 200809L

#include "sock.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef MSG_NOSIGNAL
#define MSG_NOSIGNAL 0 /* elsewhere SIGPIPE is ignored by the command */
#endif

int mp_sock_start(void)
{
    return 0;
}

int mp_sock_open(const struct addrinfo *ai)
{
    int fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);

    if (fd < 0)
        return -1;
    fcntl(fd, F_SETFD, FD_CLOEXEC);
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    return fd;
}

void mp_sock_close(int fd)
{
    close(fd);
}

int mp_sock_connect(int fd, const struct addrinfo *ai)
{
    return connect(fd, ai->ai_addr, ai->ai_addrlen);
}

int mp_sock_connect_result(int fd)
{
    int err = 0;
    socklen_t len = sizeof(err);

    return getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0 ? errno : err;
}

void mp_sock_nodelay(int fd)
{
    int one = 1;

    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

int mp_sock_errno(void)
{
    return errno;
}

const char *mp_sock_strerror(int err)
{
    return strerror(err);
}

int mp_sock_poll(struct pollfd *p, unsigned n, int timeout_ms)
{
    return poll(p, n, timeout_ms);
}

long mp_sock_send_now(int fd, const void *data, size_t len)
{
    return (long)send(fd, data, len, MSG_NOSIGNAL | MSG_DONTWAIT);
}

long mp_sock_recv(int fd, void *buf, size_t len)
{
    return (long)recv(fd, buf, len, 0);
}

int mp_sock_peer_closed(int fd)
{
    struct pollfd p = {fd, POLLIN, 0};
    char c;

    return poll(&p, 1, 0) == 1 && (p.revents & (POLLIN | POLLHUP)) && recv(fd, &c, 1, MSG_PEEK | MSG_DONTWAIT) == 0;
}

uint64_t mp_sock_clock_us(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

void mp_sock_nap_us(uint64_t us)
{
    struct timespec ts;

    ts.tv_sec = (time_t)(us / 1000000u);
    ts.tv_nsec = (long)(us % 1000000u * 1000u);
    nanosleep(&ts, NULL);
}

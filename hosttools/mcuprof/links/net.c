/* getaddrinfo, poll and clock_gettime are POSIX, not C11. */
#define _POSIX_C_SOURCE 200809L

#include "net.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "diag.h"

#ifndef MSG_NOSIGNAL
#define MSG_NOSIGNAL 0 /* elsewhere SIGPIPE is ignored by the command */
#endif

uint64_t mp_now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

int mp_sleep_ms(unsigned ms)
{
    struct timespec ts;

    ts.tv_sec = ms / 1000u;
    ts.tv_nsec = (long)(ms % 1000u) * 1000000L;
    return nanosleep(&ts, NULL) != 0;
}

/* Wait for EVENTS on the socket until DEADLINE (mp_now_ms). A signal does
 * not end the wait: the command finishes the exchange in progress so the
 * target is never left frozen. Returns 1 when ready, 0 on timeout, -1 on
 * error (errno set). */
static int wait_fd(int fd, short events, uint64_t deadline)
{
    for (;;) {
        struct pollfd p = {fd, events, 0};
        uint64_t now = mp_now_ms();
        int r;

        if (now >= deadline)
            return 0;
        r = poll(&p, 1, (int)(deadline - now > 60000 ? 60000 : deadline - now));
        if (r > 0)
            return 1;
        if (r < 0 && errno != EINTR)
            return -1;
    }
}

static int try_connect(struct mp_net *n, const struct addrinfo *ai, uint64_t deadline, int *err)
{
    int fd, flags, one = 1, r;
    socklen_t len = sizeof(*err);

    fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
    if (fd < 0) {
        *err = errno;
        return -1;
    }
    flags = fcntl(fd, F_GETFL);
    fcntl(fd, F_SETFL, flags | O_NONBLOCK);
    if (connect(fd, ai->ai_addr, ai->ai_addrlen) != 0) {
        if (errno != EINPROGRESS) {
            *err = errno;
            goto fail;
        }
        r = wait_fd(fd, POLLOUT, deadline);
        if (r <= 0) {
            *err = r == 0 ? ETIMEDOUT : errno;
            goto fail;
        }
        if (getsockopt(fd, SOL_SOCKET, SO_ERROR, err, &len) != 0 || *err != 0)
            goto fail;
    }
    /* Requests are small and each waits for its reply: send them now. */
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    n->fd = fd;
    return 0;
fail:
    close(fd);
    return -1;
}

int mp_net_connect(struct mp_net *n, const struct mp_endpoint *ep, const char *server, unsigned timeout_ms)
{
    struct addrinfo hints, *res = NULL, *ai;
    char port[8];
    uint64_t deadline = mp_now_ms() + timeout_ms;
    int r, err = 0;

    memset(n, 0, sizeof(*n));
    n->fd = -1;
    n->timeout_ms = timeout_ms;
    n->deadline = deadline;
    snprintf(n->name, sizeof(n->name), "%s", ep->name);
    snprintf(port, sizeof(port), "%u", ep->number);
    memset(&hints, 0, sizeof(hints));
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    r = getaddrinfo(ep->where, port, &hints, &res);
    if (r != 0)
        return mp_error(n->name, "cannot resolve host '%s': %s", ep->where, gai_strerror(r));
    for (ai = res; ai; ai = ai->ai_next) {
        if (try_connect(n, ai, deadline, &err) == 0)
            break;
    }
    freeaddrinfo(res);
    if (n->fd < 0) {
        if (err == ETIMEDOUT)
            return mp_error(n->name, "cannot connect: no answer within %u ms", timeout_ms);
        return mp_error(n->name, "cannot connect: %s (is the %s running?)", strerror(err), server);
    }
    return 0;
}

void mp_net_begin(struct mp_net *n)
{
    n->deadline = mp_now_ms() + n->timeout_ms;
    n->received = 0;
}

int mp_net_send(struct mp_net *n, const void *data, size_t len)
{
    const uint8_t *p = data;
    uint64_t deadline = n->deadline;

    while (len > 0) {
        ssize_t w;
        int r = wait_fd(n->fd, POLLOUT, deadline);

        if (r == 0)
            return mp_error(n->name, "the server accepts no data: timed out after %u ms",
                            n->timeout_ms);
        if (r < 0)
            return mp_error(n->name, "send failed: %s", strerror(errno));
        w = send(n->fd, p, len, MSG_NOSIGNAL);
        if (w < 0) {
            if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)
                continue;
            if (errno == EPIPE || errno == ECONNRESET)
                return mp_error(n->name, "the server closed the connection");
            return mp_error(n->name, "send failed: %s", strerror(errno));
        }
        p += w;
        len -= (size_t)w;
    }
    return 0;
}

/* Fill the buffer with whatever arrives before DEADLINE. Returns the
 * number of bytes, 0 on timeout, -1 on error or end of stream (errno 0). */
static int fill(struct mp_net *n, uint64_t deadline)
{
    ssize_t got;
    int r = wait_fd(n->fd, POLLIN, deadline);

    if (r <= 0)
        return r;
    do
        got = recv(n->fd, n->buf, sizeof(n->buf), 0);
    while (got < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) &&
           wait_fd(n->fd, POLLIN, deadline) > 0);
    if (got <= 0) {
        if (got == 0)
            errno = 0;
        return -1;
    }
    n->start = 0;
    n->end = (size_t)got;
    return (int)got;
}

int mp_net_getc(struct mp_net *n, const char *what)
{
    if (n->start == n->end) {
        int r = fill(n, n->deadline);

        if (r == 0 && n->received == 0)
            return mp_error(n->name, "no answer within %u ms while waiting for %s", n->timeout_ms,
                            what);
        if (r == 0)
            return mp_error(n->name,
                            "no complete answer within %u ms while waiting for %s (%zu bytes came)",
                            n->timeout_ms, what, n->received);
        if (r < 0) {
            if (errno == 0 || errno == ECONNRESET)
                return mp_error(n->name, "the server closed the connection while sending %s",
                                what);
            return mp_error(n->name, "receive failed while waiting for %s: %s", what,
                            strerror(errno));
        }
    }
    n->received++;
    return n->buf[n->start++];
}

int mp_net_poll(struct mp_net *n, unsigned wait_ms)
{
    if (n->start != n->end)
        return 1;
    return fill(n, mp_now_ms() + wait_ms) > 0;
}

void mp_net_close(struct mp_net *n)
{
    if (n->fd >= 0)
        close(n->fd);
    n->fd = -1;
}

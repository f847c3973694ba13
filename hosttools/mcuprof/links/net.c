/* getaddrinfo is POSIX, not C11 (sock.h has the host's headers). */
#define _POSIX_C_SOURCE 200809L

#include "net.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "interrupt.h"
#include "sock.h"

uint64_t mp_now_ms(void)
{
    return mp_sock_clock_us() / 1000u;
}

uint64_t mp_now_us(void)
{
    return mp_sock_clock_us();
}

int mp_sleep_ms(unsigned ms)
{
    uint64_t until = mp_now_ms() + ms;

    for (;;) {
        int wake = mp_interrupt_fd();
        struct pollfd p = {wake, POLLIN, 0};
        uint64_t now = mp_now_ms();

        if (mp_interrupted())
            return 1;
        if (now >= until)
            return 0;
        /* Without a signal pipe, poll nothing: a plain sleep, which a
         * signal still ends (EINTR). */
        if (mp_sock_poll(&p, wake >= 0 ? 1 : 0, (int)(until - now)) > 0 && !mp_interrupted())
            mp_interrupt_drain();
    }
}

int mp_sleep_us(uint64_t us)
{
    uint64_t until = mp_now_us() + us;

    for (;;) {
        uint64_t now = mp_now_us();

        if (mp_interrupted())
            return 1;
        if (now >= until)
            return 0;
        /* a signal ends it early (EINTR), and is seen above */
        mp_sock_nap_us(until - now);
    }
}

/* Requests sent whole, on any connection (mp_net_sends). */
static uint64_t sends;

/* The whole command's deadline (mp_net_deadline): 0 for none. */
static uint64_t end_ms;
static double end_seconds;
static int graced; /* the grace of this deadline was given */

void mp_net_deadline(uint64_t end, double seconds)
{
    end_ms = end;
    end_seconds = seconds;
    graced = 0;
}

void mp_net_grace(unsigned ms)
{
    uint64_t now = mp_now_ms();

    if (graced || !end_ms)
        return;
    graced = 1;
    end_ms = (end_ms > now ? end_ms : now) + ms;
}

uint64_t mp_net_limit(uint64_t limit, int *by_end)
{
    int earlier = end_ms && end_ms <= limit;

    if (by_end)
        *by_end = earlier;
    return earlier ? end_ms : limit;
}

uint64_t mp_net_deadline_end(void)
{
    return end_ms;
}

double mp_net_deadline_seconds(void)
{
    return end_seconds;
}

/* Wait for EVENTS on the socket until DEADLINE (mp_now_ms), or until a
 * signal asks the tool to stop (interrupt.h): the caller reports that and
 * the command releases the target. Returns 1 when ready, 0 on timeout, -1
 * on error (errno set), -2 when interrupted. */
static int wait_fd(int fd, short events, uint64_t deadline)
{
    for (;;) {
        int wake = mp_interrupt_fd();
        struct pollfd p[2] = {{fd, events, 0}, {wake, POLLIN, 0}};
        uint64_t now = mp_now_ms();
        int r;

        if (mp_interrupted())
            return -2;
        if (now >= deadline)
            return 0;
        r = mp_sock_poll(p, wake >= 0 ? 2 : 1, (int)(deadline - now > 60000 ? 60000 : deadline - now));
        if (r > 0 && p[0].revents)
            return 1;
        if (r > 0 && !mp_interrupted())
            mp_interrupt_drain(); /* a signal already dealt with */
        if (r < 0 && errno != EINTR)
            return -1;
    }
}

/* Report a wait that ended early: the command's deadline or a signal;
 * WHAT was awaited, or NULL before a request was sent. */
static int quiet_signals; /* mp_net_signals_quiet */
static int signal_stopped; /* mp_net_signal_stopped */
static char signal_text[512]; /* what it said, reported or not */

void mp_net_signals_quiet(int quiet)
{
    quiet_signals = quiet;
}

int mp_net_signal_stopped(void)
{
    return signal_stopped;
}

const char *mp_net_signal_text(void)
{
    return signal_text;
}

static int report_stop(const struct mp_net *n, int r, const char *what)
{
    if (r == -2) {
        int ret;

        if (quiet_signals)
            mp_diag_quiet(1);
        ret = what ? mp_error(n->name, "interrupted (%s) while waiting for %s", mp_signal_name(mp_interrupted()), what)
                   : mp_error(n->name, "interrupted (%s)", mp_signal_name(mp_interrupted()));
        if (quiet_signals)
            mp_diag_quiet(0);
        if (!signal_stopped++)
            snprintf(signal_text, sizeof(signal_text), "%s", mp_last_error());
        return ret;
    }
    if (!what)
        return mp_error(n->name, "the deadline (%.3g s, --deadline) passed", end_seconds);
    return mp_error(n->name, "the deadline (%.3g s, --deadline) passed while waiting for %s",
                    end_seconds, what);
}

static int try_connect(struct mp_net *n, const struct addrinfo *ai, uint64_t deadline, int *err)
{
    int fd, r;

    fd = mp_sock_open(ai);
    if (fd < 0) {
        *err = errno;
        return -1;
    }
    if (mp_sock_connect(fd, ai) != 0) {
        if (errno != EINPROGRESS) {
            *err = errno;
            goto fail;
        }
        r = wait_fd(fd, POLLOUT, deadline);
        if (r <= 0) {
            *err = r == 0 ? ETIMEDOUT : r == -2 ? EINTR : errno;
            goto fail;
        }
        if ((*err = mp_sock_connect_result(fd)) != 0)
            goto fail;
    }
    mp_sock_nodelay(fd);
    n->fd = fd;
    return 0;
fail:
    mp_sock_close(fd);
    return -1;
}

int mp_net_connect(struct mp_net *n, const struct mp_endpoint *ep, const char *server, unsigned timeout_ms)
{
    struct addrinfo hints, *res = NULL, *ai;
    char port[8];
    int by_end, r, err = 0;
    uint64_t deadline = mp_net_limit(mp_now_ms() + timeout_ms, &by_end);

    memset(n, 0, sizeof(*n));
    n->fd = -1;
    n->timeout_ms = timeout_ms;
    n->deadline = deadline;
    n->by_end = by_end;
    snprintf(n->name, sizeof(n->name), "%s", ep->name);
    snprintf(port, sizeof(port), "%u", ep->number);
    memset(&hints, 0, sizeof(hints));
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    if (mp_sock_start() < 0)
        return mp_error(n->name, "cannot start the network: %s", strerror(errno));
    r = getaddrinfo(ep->where, port, &hints, &res);
    if (r != 0)
        return mp_error(n->name, "cannot resolve host '%s': %s", ep->where, gai_strerror(r));
    for (ai = res; ai && err != EINTR; ai = ai->ai_next) {
        if (try_connect(n, ai, deadline, &err) == 0)
            break;
    }
    freeaddrinfo(res);
    if (n->fd < 0) {
        if (err == EINTR)
            return report_stop(n, -2, "the connection");
        if (err == ETIMEDOUT && by_end)
            return report_stop(n, 0, "the connection");
        if (err == ETIMEDOUT)
            return mp_error(n->name, "cannot connect: no answer within %u ms", timeout_ms);
        return mp_error(n->name, "cannot connect: %s (is the %s running?)", mp_sock_strerror(err), server);
    }
    return 0;
}

void mp_net_begin(struct mp_net *n)
{
    n->deadline = mp_net_limit(mp_now_ms() + n->timeout_ms, &n->by_end);
    n->received = 0;
}

/* Whether the server has closed its end: its end of stream is all that is
 * left to read. A request sent then would be lost, and whether it took
 * effect could not be told; it is not sent. */
static int peer_closed(const struct mp_net *n)
{
    return n->start == n->end && mp_sock_peer_closed(n->fd);
}

int mp_net_send(struct mp_net *n, const void *data, size_t len)
{
    const uint8_t *p = data;
    uint64_t deadline = n->deadline;

    if (n->fd < 0 || peer_closed(n))
        return mp_error(n->name, "the server closed the connection");

    while (len > 0) {
        long w;
        int r;

        /* What the socket takes at once goes out even after a signal: a
         * signal ends waits, and a request or an acknowledgement half
         * sent (the server has it, mcuprof thinks not) would leave the
         * two sides disagreeing on the target's state. */
        w = mp_sock_send_now(n->fd, p, len);
        if (w > 0) {
            p += w;
            len -= (size_t)w;
            continue;
        }
        if (w < 0 && errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK) {
            if (errno == EPIPE || errno == ECONNRESET)
                return mp_error(n->name, "the server closed the connection");
            return mp_error(n->name, "send failed: %s", mp_sock_strerror(errno));
        }
        r = wait_fd(n->fd, POLLOUT, deadline);
        if (r == -2 || (r == 0 && n->by_end))
            return report_stop(n, r, NULL);
        if (r == 0)
            return mp_error(n->name, "the server accepts no data: timed out after %u ms",
                            n->timeout_ms);
        if (r < 0)
            return mp_error(n->name, "send failed: %s", mp_sock_strerror(errno));
    }
    sends++;
    return 0;
}

uint64_t mp_net_sends(void)
{
    return sends;
}

/* Fill the buffer with whatever arrives before DEADLINE. Returns the
 * number of bytes, 0 on timeout, -2 when interrupted, -1 on error or end
 * of stream (errno 0). */
static int fill(struct mp_net *n, uint64_t deadline)
{
    long got;
    int r;

    for (;;) {
        r = wait_fd(n->fd, POLLIN, deadline);
        if (r <= 0)
            return r;
        got = mp_sock_recv(n->fd, n->buf, sizeof(n->buf));
        if (got >= 0 || (errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK))
            break;
    }
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

        if (r == 0 || r == -2)
            n->abandoned = 1;
        if (r == -2 || (r == 0 && n->by_end))
            return report_stop(n, r, what);
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
                            mp_sock_strerror(errno));
        }
    }
    n->received++;
    return n->buf[n->start++];
}

void mp_net_close(struct mp_net *n)
{
    if (n->fd >= 0)
        mp_sock_close(n->fd);
    n->fd = -1;
}

/*
 * mem_net.c - net.h over a buffer instead of a socket, for the fuzz
 * targets of the links (fuzz_link.c): what the server "sends" is the
 * fuzzer's input, byte after byte, whatever the tool asked; the end of the
 * input is the server closing the connection. What the tool sends goes to
 * a simulated server when one is set (fuzz_seeds.c records its answers
 * as seeds), else nowhere.
 *
 * Every function of net.h is here; the deadline's bookkeeping as net.c
 * keeps it, on the virtual clock. No signal ever stops a wait.
 *
 * Time is virtual, so that an input runs the same at any machine load:
 * sleeping advances the clock, nothing else does. time() is replaced too:
 * the freeze token of snapshot.c (time() * 2654435761 ^ a count << 20)
 * comes out the same at every freeze, so a recorded answer that
 * acknowledges it still does when replayed.
 */
#include "mem_net.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "diag.h"

static const uint8_t *feed;
static uint8_t *record;
static size_t feed_len, feed_pos, record_cap;
static uint64_t clock_ms;
static fuzz_net_server *server;
static void *server_ctx;
static uint64_t sends;
/* The whole command's deadline (mp_net_deadline): 0 for none. */
static uint64_t end_ms;
static double end_seconds;
static int graced;

void fuzz_net_feed(const uint8_t *data, size_t len)
{
    feed = data;
    feed_len = len;
    feed_pos = 0;
    clock_ms = 1000;
}

void fuzz_net_serve(fuzz_net_server *fn, void *ctx, uint8_t *buf, size_t cap)
{
    server = fn;
    server_ctx = ctx;
    record = buf;
    record_cap = cap;
    fuzz_net_feed(buf, 0);
}

int fuzz_net_answer(const void *data, size_t len)
{
    if (!record || len > record_cap - feed_len)
        return -1;
    memcpy(record + feed_len, data, len);
    feed_len += len;
    return 0;
}

size_t fuzz_net_consumed(void) { return feed_pos; }

/* The inverse of 2654435761 modulo 2^32, and the token every freeze
 * writes. */
#define TOKEN_INV 0x0e8b2f51u
#define TOKEN 0x5eed0001u

time_t time(time_t *t)
{
    static uint32_t calls;
    /* snapshot.c's count is at calls + 1 when it calls */
    uint32_t v = TOKEN_INV * (TOKEN ^ (++calls << 20));

    if (t)
        *t = (time_t)v;
    return (time_t)v;
}

uint64_t mp_now_ms(void) { return clock_ms; }

int mp_sleep_ms(unsigned ms)
{
    clock_ms += ms;
    return 0;
}

/* The same simulated clock in microseconds (the PC sampler's pacing). */
uint64_t mp_now_us(void) { return clock_ms * 1000u; }

int mp_sleep_us(uint64_t us)
{
    clock_ms += (us + 999u) / 1000u;
    return 0;
}

void mp_net_deadline(uint64_t end, double seconds)
{
    end_ms = end;
    end_seconds = seconds;
    graced = 0;
}

double mp_net_deadline_seconds(void) { return end_seconds; }

uint64_t mp_net_deadline_end(void) { return end_ms; }

void mp_net_grace(unsigned ms)
{
    if (graced || !end_ms)
        return;
    graced = 1;
    end_ms = (end_ms > clock_ms ? end_ms : clock_ms) + ms;
}

uint64_t mp_net_limit(uint64_t limit, int *by_end)
{
    int earlier = end_ms && end_ms <= limit;

    if (by_end)
        *by_end = earlier;
    return earlier ? end_ms : limit;
}

void mp_net_signals_quiet(int quiet) { (void)quiet; }

int mp_net_signal_stopped(void) { return 0; }

const char *mp_net_signal_text(void) { return ""; }

uint64_t mp_net_sends(void) { return sends; }

int mp_net_connect(struct mp_net *n, const struct mp_endpoint *ep, const char *server_name,
                   unsigned timeout_ms)
{
    (void)server_name;
    memset(n, 0, sizeof(*n));
    n->fd = 0; /* "open": nothing is ever closed */
    n->timeout_ms = timeout_ms;
    n->deadline = mp_net_limit(clock_ms + timeout_ms, &n->by_end);
    snprintf(n->name, sizeof(n->name), "%s", ep->name);
    return 0;
}

void mp_net_begin(struct mp_net *n)
{
    n->deadline = mp_net_limit(clock_ms + n->timeout_ms, &n->by_end);
    n->received = 0;
}

int mp_net_send(struct mp_net *n, const void *data, size_t len)
{
    (void)n;
    if (server)
        server(server_ctx, data, len);
    sends++;
    return 0;
}

int mp_net_getc(struct mp_net *n, const char *what)
{
    if (n->start == n->end) {
        size_t k = feed_len - feed_pos < sizeof(n->buf) ? feed_len - feed_pos : sizeof(n->buf);

        if (k == 0)
            return mp_error(n->name, "the server closed the connection while sending %s", what);
        memcpy(n->buf, feed + feed_pos, k);
        feed_pos += k;
        n->start = 0;
        n->end = k;
    }
    n->received++;
    return n->buf[n->start++];
}

void mp_net_close(struct mp_net *n) { n->fd = -1; }

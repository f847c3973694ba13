/*
 * net.h - a TCP connection with a deadline on every operation.
 *
 * The debug servers mcuprof talks to (GDB servers, OpenOCD) may hang, close
 * the connection or never answer; every wait here ends at a deadline so the
 * tool always terminates with one error line instead of blocking forever.
 * Errors are reported through diag.h naming the endpoint ("host:port").
 */
#ifndef MCUPROF_NET_H
#define MCUPROF_NET_H

#include <stddef.h>
#include <stdint.h>

#include "endpoint.h"

struct mp_net {
    int fd;
    char name[272];     /* "host:port", the name every message carries */
    unsigned timeout_ms; /* limit for the connect and for each answer */
    uint64_t deadline;   /* the answer in progress must be complete by then */
    int by_end;          /* that is the command's deadline (mp_net_deadline) */
    /* A wait for an answer was given up (a timeout, the deadline, a
     * signal): the answer may still come, and the protocol must take it
     * off the stream before the next one (and clear this). */
    int abandoned;
    size_t received;     /* bytes received since mp_net_begin */
    /* Bytes received but not yet consumed (replies arrive in pieces). */
    uint8_t buf[16384];
    size_t start, end;
};

/* Connect to EP's host (where) and port (number) within timeout_ms.
 * Reports and returns -1 on failure; SERVER names what should have
 * answered ("GDB server"). */
int mp_net_connect(struct mp_net *n, const struct mp_endpoint *ep, const char *server, unsigned timeout_ms);

/* Start a request: from now on, sending it and receiving all of its answer
 * must end within timeout_ms, however the server paces its bytes. */
void mp_net_begin(struct mp_net *n);

/* Send all LEN bytes (or report why not), before the request's deadline. */
int mp_net_send(struct mp_net *n, const void *data, size_t len);

/* How many sends completed so far, on any connection: a request whose
 * answer never came was sent whole if this grew (it may have taken effect). */
uint64_t mp_net_sends(void);

/* Next received byte, waiting no longer than the request's deadline.
 * Returns the byte (0..255), or -1 after reporting a timeout, a closed
 * connection or an error; WHAT says what was awaited ("a reply to
 * 'm20000000,100'"). */
int mp_net_getc(struct mp_net *n, const char *what);

void mp_net_close(struct mp_net *n);

/* Milliseconds on a monotonic clock, for deadlines and rates. */
uint64_t mp_now_ms(void);
/* The same clock in microseconds, for what a sample costs. */
uint64_t mp_now_us(void);

/* Sleep MS milliseconds; returns early (non-zero) when a signal asks the
 * tool to stop (interrupt.h), so an interrupted wait ends at once. */
int mp_sleep_ms(unsigned ms);
/* The same in microseconds (the pacing of PC samples). */
int mp_sleep_us(uint64_t us);

/* The deadline of the whole command (a pull, a ctl): every wait of every
 * connection, and every answer, ends by then. END on mp_now_ms's clock, 0
 * for none; SECONDS is how messages name it. Every wait also ends when a
 * signal asks the tool to stop (interrupt.h); both are reported as such. */
void mp_net_deadline(uint64_t end, double seconds);
double mp_net_deadline_seconds(void);
uint64_t mp_net_deadline_end(void);

/* A clean-up (the release of a freeze) may run MS past the deadline,
 * once per deadline: a command ends within its deadline plus MS. */
void mp_net_grace(unsigned ms);

/* QUIET: a wait a signal ends is not reported (the command says what
 * the signal meant). Whether one was, since the start. */
void mp_net_signals_quiet(int quiet);
int mp_net_signal_stopped(void);
/* The first such message ("HOST: interrupted (SIGINT) while ..."). */
const char *mp_net_signal_text(void);

/* The earlier of LIMIT and the command's deadline; *BY_END (if not NULL)
 * is set when the deadline is the earlier. */
uint64_t mp_net_limit(uint64_t limit, int *by_end);

#endif /* MCUPROF_NET_H */

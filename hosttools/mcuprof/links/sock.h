/*
 * sock.h - the BSD socket calls net.c makes, on every host.
 *
 * getaddrinfo, socket, connect, getsockopt, setsockopt, recv and send are
 * the same calls under Winsock, from other headers (below). What differs
 * is one function each here: sock_posix.c and sock_win32.c. A socket is
 * an int (Winsock's SOCKET handles stay far below INT_MAX); errors are
 * errno values (Winsock's WSAGetLastError() mapped to them) so net.c
 * says the same words on every host.
 */
#ifndef MCUPROF_SOCK_H
#define MCUPROF_SOCK_H

#include <stddef.h>
#include <stdint.h>

/* Winsock declares the BSD calls in its own headers. */
#ifdef _WIN32
#include <winsock2.h>
#include <ws2tcpip.h>
#else
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#endif

/* Start the socket library (Winsock: WSAStartup, once); -1 on failure,
 * errno set. */
int mp_sock_start(void);

/* A stream socket for AI, non-blocking and not inherited by children;
 * -1 with errno set. */
int mp_sock_open(const struct addrinfo *ai);

void mp_sock_close(int fd);

/* connect(): 0 when connected, -1 with errno set, EINPROGRESS while it
 * goes on (the socket becomes writable when it ends). */
int mp_sock_connect(int fd, const struct addrinfo *ai);

/* How the connect that went on ended: 0, or an errno value. */
int mp_sock_connect_result(int fd);

/* Requests are small and each waits for its reply: TCP_NODELAY. */
void mp_sock_nodelay(int fd);

/* The last socket call's error as an errno value (EINPROGRESS for a
 * connect under way, EAGAIN for "try again", ECONNREFUSED ...). */
int mp_sock_errno(void);

/* What ERR (an errno value) says: "Connection refused" ..., the same
 * words on every host. */
const char *mp_sock_strerror(int err);

/* poll(): the events of N entries within TIMEOUT_MS (-1: no limit).
 * Returns how many are ready, 0 on timeout, -1 with errno set. */
int mp_sock_poll(struct pollfd *p, unsigned n, int timeout_ms);

/* Send what the socket takes now, without waiting and without SIGPIPE.
 * Returns the bytes sent, -1 with errno set (EAGAIN: nothing now). */
long mp_sock_send_now(int fd, const void *data, size_t len);

/* recv() on the non-blocking socket; -1 with errno set. */
long mp_sock_recv(int fd, void *buf, size_t len);

/* Whether the peer's end of stream is the next thing to read (nothing
 * is taken off the stream). */
int mp_sock_peer_closed(int fd);

/* Milliseconds and microseconds on a monotonic clock. */
uint64_t mp_sock_clock_us(void);

/* Sleep up to US microseconds; a signal may end it early. */
void mp_sock_nap_us(uint64_t us);

#endif /* MCUPROF_SOCK_H */

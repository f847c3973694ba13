/*
 * A signal at any point of a GDB remote protocol exchange leaves the
 * client knowing what the core does (links/gdb_rsp.c), so that the
 * clean-up after Ctrl-C (the last image of a window, the release of a
 * freeze) can still stop and read the core. Against a small GDB server in
 * a child process that keeps acknowledgements on, as QEMU 7.2's does:
 *   - a continue sent, its '+' not yet read when the signal came: the core
 *     runs, the '+' is taken before the next request, a halt is answered;
 *   - an interrupt (0x03) sent, its stop reply not yet read: the reply is
 *     taken before the next request and the core is known stopped, so no
 *     second interrupt waits for an answer that never comes.
 */
#define _POSIX_C_SOURCE 200809L

#include <arpa/inet.h>
#include <netinet/in.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "gdb_rsp.h"
#include "interrupt.h"
#include "net.h"

static struct mp_rsp rsp;

static void put_packet(int fd, const char *body)
{
    char wire[256];
    unsigned sum = 0;
    size_t i, n = strlen(body);

    for (i = 0; i < n; i++)
        sum += (unsigned char)body[i];
    n = (size_t)snprintf(wire, sizeof(wire), "+$%s#%02x", body, sum & 0xffu);
    if (write(fd, wire, n) != (ssize_t)n)
        _exit(3);
}

/* The server: acknowledges every packet, answers the few requests the
 * client makes, a stop reply to each interrupt; never offers
 * QStartNoAckMode. Ends when the client closes. */
static void serve(int fd)
{
    char body[256];
    size_t n = 0;
    int in = 0;
    char c;

    while (read(fd, &c, 1) == 1) {
        if (!in && c == 0x03) {
            put_packet(fd, "T05thread:01;");
            continue;
        }
        if (!in) {
            in = c == '$';
            n = 0;
            continue;
        }
        if (c != '#') {
            if (n < sizeof(body) - 1)
                body[n++] = c;
            continue;
        }
        in = 0;
        body[n] = '\0';
        if (read(fd, &c, 1) != 1 || read(fd, &c, 1) != 1)
            break;
        if (strncmp(body, "qSupported", 10) == 0)
            put_packet(fd, "PacketSize=1000");
        else if (strcmp(body, "vCont?") == 0)
            put_packet(fd, "vCont;c;C;s;S");
        else if (strcmp(body, "?") == 0)
            put_packet(fd, "S05");
        else if (strncmp(body, "vCont;c", 7) == 0 || strcmp(body, "c") == 0) {
            if (write(fd, "+", 1) != 1) /* a continue has no reply until the core stops */
                break;
        } else if (body[0] == 'm')
            put_packet(fd, "2a000000");
        else
            put_packet(fd, "");
    }
    _exit(0);
}

/* A server on a free port of 127.0.0.1, in a child; the client connected. */
static pid_t start_server(void)
{
    struct sockaddr_in a;
    socklen_t len = sizeof(a);
    struct mp_endpoint ep;
    int s = socket(AF_INET, SOCK_STREAM, 0), c;
    pid_t pid;

    assert_true(s >= 0);
    memset(&a, 0, sizeof(a));
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(bind(s, (struct sockaddr *)&a, sizeof(a)), 0);
    assert_int_equal(listen(s, 1), 0);
    assert_int_equal(getsockname(s, (struct sockaddr *)&a, &len), 0);
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        c = accept(s, NULL, NULL);
        if (c < 0)
            _exit(2);
        close(s);
        serve(c);
    }
    close(s);
    memset(&ep, 0, sizeof(ep));
    snprintf(ep.where, sizeof(ep.where), "127.0.0.1");
    ep.number = ntohs(a.sin_port);
    snprintf(ep.name, sizeof(ep.name), "127.0.0.1:%u", ep.number);
    assert_int_equal(mp_rsp_open(&rsp, &ep, 2000), 0);
    assert_int_equal(rsp.ack_mode, 1);
    return pid;
}

static void stop_server(pid_t pid)
{
    int status;

    rsp.link.ops->close(&rsp.link);
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* Each case in a child of its own: the signal state is process-wide. */
static void in_child(void (*body)(void))
{
    int status;
    pid_t pid = fork();

    assert_true(pid >= 0);
    if (pid == 0) {
        body();
        _exit(0);
    }
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
}

#define CHECK(cond)                                                                                                \
    do {                                                                                                           \
        if (!(cond)) {                                                                                             \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #cond);                                             \
            _exit(1);                                                                                              \
        }                                                                                                          \
    } while (0)

static void continue_cut_short(void)
{
    struct mp_link *l = &rsp.link;
    pid_t server;
    uint8_t word[4];
    uint64_t t0;

    mp_interrupt_catch();
    server = start_server();
    CHECK(!l->running);
    /* the signal lands before the continue's '+' is read */
    raise(SIGINT);
    CHECK(l->ops->resume(l) < 0);
    CHECK(l->running);
    /* the clean-up: the core is stopped and read within one answer */
    mp_interrupt_defer();
    t0 = mp_now_ms();
    CHECK(l->ops->halt(l) == 0);
    CHECK(!l->running);
    CHECK(l->ops->read(l, 0x20000000, word, 4) == 0);
    CHECK(word[0] == 0x2a);
    CHECK(mp_now_ms() - t0 < 1000);
    stop_server(server);
}

static void stop_reply_cut_short(void)
{
    struct mp_link *l = &rsp.link;
    pid_t server;
    uint8_t word[4];
    uint64_t t0;

    mp_interrupt_catch();
    server = start_server();
    CHECK(l->ops->resume(l) == 0 && l->running);
    /* the signal lands after the interrupt went out, before its stop reply */
    raise(SIGINT);
    CHECK(l->ops->halt(l) < 0);
    mp_interrupt_defer();
    t0 = mp_now_ms();
    /* the owed stop reply is taken first: the core is known stopped and
     * no second interrupt is sent (it would never be answered) */
    CHECK(l->ops->read(l, 0x20000000, word, 4) == 0);
    CHECK(!l->running);
    CHECK(word[0] == 0x2a);
    CHECK(l->ops->halt(l) == 0);
    CHECK(l->ops->resume(l) == 0 && l->running);
    CHECK(l->ops->halt(l) == 0 && !l->running);
    CHECK(mp_now_ms() - t0 < 1000);
    stop_server(server);
}

static void test_continue_cut_short(void **state)
{
    (void)state;
    in_child(continue_cut_short);
}

static void test_stop_reply_cut_short(void **state)
{
    (void)state;
    in_child(stop_reply_cut_short);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_continue_cut_short),
        cmocka_unit_test(test_stop_reply_cut_short),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}

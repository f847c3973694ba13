/*
 * The signal state every long loop looks at (base/interrupt.c): a signal
 * asks the work in progress to stop (mp_interrupted), a clean-up defers
 * the signals so far, a drain lets one by (shield), a wait on its pipe
 * wakes, and a third signal ends the tool at once with its last words and
 * exit status 128 + the signal.
 */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "interrupt.h"
#include "net.h"

/* Run BODY in a child of its own (the state is process-wide): it must
 * exit with CODE, having written exactly ERR to stderr. */
static void expect_child(void (*body)(void), int code, const char *err)
{
    char got[256];
    int fds[2], status;
    pid_t pid;
    ssize_t n, len = 0;

    assert_int_equal(pipe(fds), 0);
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(fds[1], 2);
        close(fds[0]);
        body();
        _exit(0);
    }
    close(fds[1]);
    while ((n = read(fds[0], got + len, sizeof(got) - 1 - (size_t)len)) > 0)
        len += n;
    got[len] = '\0';
    close(fds[0]);
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), code);
    assert_string_equal(got, err);
}

static void check(int ok, int code)
{
    if (!ok)
        _exit(code);
}

static void flags_body(void)
{
    check(mp_interrupt_fd() == -1 && mp_interrupted() == 0, 10);
    mp_interrupt_catch();
    check(mp_interrupt_fd() >= 0, 11);
    raise(SIGTERM);
    check(mp_interrupted() == SIGTERM && mp_interrupt_signal() == SIGTERM, 12);
    /* a wait ends at once, a sleep too */
    check(mp_sleep_ms(5000) != 0, 13);
    mp_interrupt_defer();
    check(mp_interrupted() == 0 && mp_interrupt_signal() == SIGTERM, 14);
    check(mp_sleep_ms(1) == 0, 15);
    /* a drain lets one by, not two */
    mp_interrupt_shield(1);
    raise(SIGINT);
    check(mp_interrupted() == 0, 16);
    mp_interrupt_shield(0);
    check(mp_interrupted() == SIGTERM, 17); /* the first signal names it */
    _exit(0);
}

static void test_flags(void **state)
{
    (void)state;
    expect_child(flags_body, 0, "");
}

static void third_body(void)
{
    mp_interrupt_catch();
    mp_interrupt_last_words("mcuprof: error: host:1: the target is left frozen");
    raise(SIGINT);
    raise(SIGINT);
    check(mp_interrupted() == SIGINT, 20);
    raise(SIGINT); /* does not return */
    _exit(21);
}

static void test_third_signal_ends_with_last_words(void **state)
{
    (void)state;
    expect_child(third_body, 128 + SIGINT, "mcuprof: error: host:1: the target is left frozen\n");
}

static void cleared_body(void)
{
    mp_interrupt_catch();
    mp_interrupt_last_words("frozen");
    mp_interrupt_last_words(NULL); /* released */
    raise(SIGHUP);
    raise(SIGHUP);
    raise(SIGHUP);
    _exit(22);
}

static void test_third_signal_after_release_says_nothing(void **state)
{
    (void)state;
    expect_child(cleared_body, 128 + SIGHUP, "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_flags),
        cmocka_unit_test(test_third_signal_ends_with_last_words),
        cmocka_unit_test(test_third_signal_after_release_says_nothing),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}

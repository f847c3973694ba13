/*
 * cmocka_lite.c - runs the tests of cmocka.h: each between its setup and
 * teardown, a failed check jumping back here. Output follows cmocka's
 * lines ([ RUN ], [ OK ], [ FAILED ], [ SKIPPED ]) so a log reads the same
 * on Linux and under Wine.
 */
#include "cmocka.h"

#ifdef _WIN32
#include <fcntl.h>
#include <io.h>
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static jmp_buf test_end;
static int test_running;
enum { ENDED_FAILED = 1, ENDED_SKIPPED = 2 };

void print_message(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    fflush(stdout);
}

void print_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fflush(stderr);
}

void cmocka_lite_fail(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n%s:%d: error: Failure!\n", file, line);
    fflush(stderr);
    if (!test_running) /* a check in a group fixture: nothing to return to */
        exit(1);
    longjmp(test_end, ENDED_FAILED);
}

void cmocka_lite_skip(const char *file, int line)
{
    (void)file;
    (void)line;
    if (!test_running)
        exit(0);
    longjmp(test_end, ENDED_SKIPPED);
}

void cmocka_lite_int_equal(uintmax_t a, uintmax_t b, int want_equal, const char *file, int line)
{
    if ((a == b) != !!want_equal)
        cmocka_lite_fail(file, line, "%#jx (%ju) %s %#jx (%ju)", a, a, want_equal ? "!=" : "==", b, b);
}

void cmocka_lite_string_equal(const char *a, const char *b, const char *file, int line)
{
    if (!a || !b || strcmp(a, b) != 0)
        cmocka_lite_fail(file, line, "\"%s\" != \"%s\"", a ? a : "(null)", b ? b : "(null)");
}

void cmocka_lite_memory_equal(const void *a, const void *b, size_t n, const char *file, int line)
{
    const unsigned char *x = a, *y = b;
    for (size_t i = 0; i < n; i++)
        if (x[i] != y[i])
            cmocka_lite_fail(file, line, "difference at offset %zu: 0x%02x != 0x%02x (of %zu bytes)", i, x[i],
                             y[i], n);
}

void cmocka_lite_double_equal(double a, double b, double eps, const char *file, int line)
{
    if (!(fabs(a - b) <= eps))
        cmocka_lite_fail(file, line, "%.17g != %.17g (within %g)", a, b, eps);
}

/* One test: 0 passed, ENDED_FAILED, ENDED_SKIPPED. volatile: read after a
 * longjmp back into this frame. */
static int run_one(const struct CMUnitTest *t, void *group_state)
{
    void *volatile state = t->initial_state ? t->initial_state : group_state;
    volatile int ended = 0, setup_done = 0;
    test_running = 1;
    int jumped = setjmp(test_end);
    if (jumped)
        ended = jumped;
    else {
        if (t->setup_func && t->setup_func((void **)&state) != 0)
            cmocka_lite_fail(__FILE__, __LINE__, "setup of %s failed", t->name);
        setup_done = 1;
        t->test_func((void **)&state);
    }
    if (setup_done && t->teardown_func) {
        setup_done = 0; /* a failing teardown must not run twice */
        if (!setjmp(test_end)) {
            if (t->teardown_func((void **)&state) != 0)
                cmocka_lite_fail(__FILE__, __LINE__, "teardown of %s failed", t->name);
        } else if (!ended)
            ended = ENDED_FAILED;
    }
    test_running = 0;
    return ended;
}

int cmocka_lite_run(const char *group, const struct CMUnitTest *tests, size_t n,
                    CMFixtureFunction group_setup, CMFixtureFunction group_teardown)
{
    void *state = NULL;
    size_t failed = 0, skipped = 0;
#ifdef _WIN32
    /* The bytes the code writes, as the tool's main() has them on
     * Windows: LF, never translated to CRLF. */
    _setmode(_fileno(stdout), _O_BINARY);
    _setmode(_fileno(stderr), _O_BINARY);
#endif
    printf("[==========] %s: Running %zu test(s).\n", group, n);
    if (group_setup && group_setup(&state) != 0) {
        printf("[  ERROR   ] %s: group setup failed\n", group);
        return (int)n;
    }
    for (size_t i = 0; i < n; i++) {
        printf("[ RUN      ] %s\n", tests[i].name);
        fflush(stdout);
        int ended = run_one(&tests[i], state);
        printf("%s %s\n", ended == ENDED_FAILED ? "[  FAILED  ]" : ended == ENDED_SKIPPED ? "[  SKIPPED ]" : "[       OK ]",
               tests[i].name);
        failed += ended == ENDED_FAILED;
        skipped += ended == ENDED_SKIPPED;
    }
    if (group_teardown && group_teardown(&state) != 0) {
        printf("[  ERROR   ] %s: group teardown failed\n", group);
        failed++;
    }
    printf("[==========] %s: %zu test(s) run.\n[  PASSED  ] %zu test(s).\n", group, n, n - failed - skipped);
    if (skipped)
        printf("[  SKIPPED ] %zu test(s).\n", skipped);
    if (failed)
        printf("[  FAILED  ] %zu test(s).\n", failed);
    fflush(stdout);
    return (int)failed;
}

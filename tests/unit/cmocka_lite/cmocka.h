/*
 * cmocka.h - the part of cmocka's interface the host tool's tests use, for
 * builds that have no cmocka: Debian ships cmocka for Linux only, not for
 * mingw-w64, so the Windows build of the tests (run under Wine) links this
 * instead. Linux builds use the real cmocka (libcmocka-dev).
 *
 * Same meaning as cmocka's: a failed assertion ends the test (longjmp) and
 * marks it failed; skip() ends it as skipped; setup and teardown run around
 * each test; cmocka_run_group_tests returns the number of failed tests.
 * Anything beyond this subset (mocks, test_malloc) is deliberately absent,
 * so a test using it fails to build here rather than behave differently.
 */
#ifndef MCUPROF_CMOCKA_LITE_H
#define MCUPROF_CMOCKA_LITE_H

#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>
#include <setjmp.h>

/* mingw's printf is C99's here (__USE_MINGW_ANSI_STDIO), so the checks
 * of its formats are GNU's */
#ifdef _WIN32
#define CMOCKA_LITE_PRINTF gnu_printf
#else
#define CMOCKA_LITE_PRINTF printf
#endif

typedef uintmax_t LargestIntegralType;
typedef void (*CMUnitTestFunction)(void **state);
typedef int (*CMFixtureFunction)(void **state);

struct CMUnitTest {
    const char *name;
    CMUnitTestFunction test_func;
    CMFixtureFunction setup_func;
    CMFixtureFunction teardown_func;
    void *initial_state;
};

#define cmocka_unit_test(f) { #f, f, NULL, NULL, NULL }
#define cmocka_unit_test_setup(f, setup) { #f, f, setup, NULL, NULL }
#define cmocka_unit_test_teardown(f, teardown) { #f, f, NULL, teardown, NULL }
#define cmocka_unit_test_setup_teardown(f, setup, teardown) { #f, f, setup, teardown, NULL }
#define cmocka_unit_test_prestate(f, state) { #f, f, NULL, NULL, state }

int cmocka_lite_run(const char *group, const struct CMUnitTest *tests, size_t n,
                    CMFixtureFunction group_setup, CMFixtureFunction group_teardown);
#define cmocka_run_group_tests(tests, gs, gt) \
    cmocka_lite_run(#tests, tests, sizeof(tests) / sizeof((tests)[0]), gs, gt)
#define cmocka_run_group_tests_name(name, tests, gs, gt) \
    cmocka_lite_run(name, tests, sizeof(tests) / sizeof((tests)[0]), gs, gt)

/* Each ends the running test when its check fails, saying where and why. */
void cmocka_lite_fail(const char *file, int line, const char *fmt, ...)
    __attribute__((noreturn, format(CMOCKA_LITE_PRINTF, 3, 4)));
void cmocka_lite_skip(const char *file, int line) __attribute__((noreturn));
void cmocka_lite_int_equal(uintmax_t a, uintmax_t b, int want_equal, const char *file, int line);
void cmocka_lite_string_equal(const char *a, const char *b, const char *file, int line);
void cmocka_lite_memory_equal(const void *a, const void *b, size_t n, const char *file, int line);
void cmocka_lite_double_equal(double a, double b, double eps, const char *file, int line);
void print_message(const char *fmt, ...) __attribute__((format(CMOCKA_LITE_PRINTF, 1, 2)));
void print_error(const char *fmt, ...) __attribute__((format(CMOCKA_LITE_PRINTF, 1, 2)));

#define fail() cmocka_lite_fail(__FILE__, __LINE__, "failed")
#define fail_msg(...) cmocka_lite_fail(__FILE__, __LINE__, __VA_ARGS__)
#define skip() cmocka_lite_skip(__FILE__, __LINE__)
#define assert_true(c) \
    ((c) ? (void)0 : cmocka_lite_fail(__FILE__, __LINE__, "%s is not true", #c))
#define assert_false(c) \
    (!(c) ? (void)0 : cmocka_lite_fail(__FILE__, __LINE__, "%s is not false", #c))
#define assert_non_null(p) \
    ((p) != NULL ? (void)0 : cmocka_lite_fail(__FILE__, __LINE__, "%s is NULL", #p))
#define assert_null(p) \
    ((p) == NULL ? (void)0 : cmocka_lite_fail(__FILE__, __LINE__, "%s is not NULL", #p))
#define assert_int_equal(a, b) \
    cmocka_lite_int_equal((uintmax_t)(a), (uintmax_t)(b), 1, __FILE__, __LINE__)
#define assert_int_not_equal(a, b) \
    cmocka_lite_int_equal((uintmax_t)(a), (uintmax_t)(b), 0, __FILE__, __LINE__)
#define assert_ptr_equal(a, b) \
    cmocka_lite_int_equal((uintmax_t)(uintptr_t)(const void *)(a), \
                          (uintmax_t)(uintptr_t)(const void *)(b), 1, __FILE__, __LINE__)
#define assert_string_equal(a, b) cmocka_lite_string_equal((a), (b), __FILE__, __LINE__)
#define assert_memory_equal(a, b, n) cmocka_lite_memory_equal((a), (b), (n), __FILE__, __LINE__)
#define assert_float_equal(a, b, eps) cmocka_lite_double_equal((a), (b), (eps), __FILE__, __LINE__)
#define assert_double_equal(a, b, eps) cmocka_lite_double_equal((a), (b), (eps), __FILE__, __LINE__)

#endif /* MCUPROF_CMOCKA_LITE_H */

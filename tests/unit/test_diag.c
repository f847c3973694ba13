/*
 * diag.h as a run sees it on stderr: a warning or a note said twice is
 * printed once (the same fact), errors every time, held warnings once
 * when released; mp_say lines with their context, silenced by
 * mp_diag_set_quiet with the notes but never the warnings; no progress
 * line when stderr is not a terminal; counts grouped by thousands.
 */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "count_text.h"
#include "diag.h"
#include "stderr_line.h"

static char path[64];
static int saved_fd = -1;

/* stderr into a fresh file, until said() puts it back. */
static int capture(void **state)
{
    int fd;

    (void)state;
    strcpy(path, "/tmp/mcuprof-diag-XXXXXX");
    fd = mkstemp(path);
    assert_true(fd >= 0);
    fflush(stderr);
    saved_fd = dup(2);
    assert_true(dup2(fd, 2) != -1); /* 2 on POSIX, 0 on Windows */
    close(fd);
    mp_diag_reset();
    mp_diag_set_quiet(0);
    mp_say_context(NULL);
    return 0;
}

/* Fails unless stderr held exactly WANT since capture(). */
static void said(const char *want)
{
    fflush(stderr);
    dup2(saved_fd, 2);
    close(saved_fd);
    expect_stderr_line(path, want);
    unlink(path);
}

static void a_warning_twice_is_printed_once(void **s)
{
    (void)s;
    mp_warn("a.img", "lost_samples_frozen %d is %s", 12, "many");
    mp_warn("a.img", "lost_samples_frozen %d is %s", 12, "many");
    mp_note("a.img", "lost_samples_frozen 12 is many"); /* a note: another kind */
    mp_note("a.img", "lost_samples_frozen 12 is many");
    mp_warn("a.img", "lost_samples_frozen %d is %s", 13, "many"); /* other numbers: another fact */
    mp_warn_now("a.img", "lost_samples_frozen 12 is many");
    mp_error("a.img", "bad");
    mp_error("a.img", "bad");
    assert_int_equal(mp_warning_count(), 4);
    said("mcuprof: warning: a.img: lost_samples_frozen 12 is many\n"
         "mcuprof: note: a.img: lost_samples_frozen 12 is many\n"
         "mcuprof: warning: a.img: lost_samples_frozen 13 is many\n"
         "mcuprof: error: a.img: bad\n"
         "mcuprof: error: a.img: bad");
}

static void held_warnings_once(void **s)
{
    (void)s;
    mp_warn("b.img", "printed before the hold");
    mp_diag_hold();
    mp_warn("b.img", "held");
    mp_warn("b.img", "held");
    mp_warn("b.img", "printed before the hold");
    assert_int_equal(mp_diag_held(), 2);
    mp_diag_release(1);
    said("mcuprof: warning: b.img: printed before the hold\n"
         "mcuprof: warning: b.img: held");
}

static void say_and_quiet(void **s)
{
    (void)s;
    mp_say("wrote %s", "gmon.out");
    mp_say_context("pull 3");
    mp_say("wrote %s", "gmon.out");
    mp_say_context(NULL);
    mp_progress_show("not a terminal: %d", 1);
    mp_progress_clear();
    assert_false(mp_progress_wanted());
    mp_diag_set_quiet(1);
    mp_say("wrote q.out");
    mp_note("c.img", "a note");
    mp_warn("c.img", "a warning");
    mp_diag_set_quiet(0);
    said("mcuprof: wrote gmon.out\n"
         "mcuprof: pull 3: wrote gmon.out\n"
         "mcuprof: warning: c.img: a warning");
}

/* Not on a terminal, kept lines are printed at once. */
static void keep_without_terminal_prints(void **s)
{
    (void)s;
    mp_say_keep(1);
    mp_say_context("pull 1");
    mp_say("wrote a");
    mp_say_context("pull 2");
    mp_say("wrote a");
    mp_say_keep(0);
    mp_say_context(NULL);
    assert_string_equal(mp_say_last(), "pull 2: wrote a");
    said("mcuprof: pull 1: wrote a\n"
         "mcuprof: pull 2: wrote a");
}

static void counts_grouped(void **s)
{
    char b[MP_COUNT_TEXT_MAX];

    (void)s;
    assert_string_equal(mp_count_text(b, 0), "0");
    assert_string_equal(mp_count_text(b, 999), "999");
    assert_string_equal(mp_count_text(b, 1000), "1,000");
    assert_string_equal(mp_count_text(b, 10249), "10,249");
    assert_string_equal(mp_count_text(b, 123456789), "123,456,789");
    assert_string_equal(mp_count_text(b, UINT64_MAX), "18,446,744,073,709,551,615");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(a_warning_twice_is_printed_once, capture),
        cmocka_unit_test_setup(held_warnings_once, capture),
        cmocka_unit_test_setup(say_and_quiet, capture),
        cmocka_unit_test_setup(keep_without_terminal_prints, capture),
        cmocka_unit_test(counts_grouped),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}

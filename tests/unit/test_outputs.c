/*
 * test_outputs.c - several outputs put in place together (file_io.h):
 * when placing one fails after others were, its error line names exactly
 * those already written, the rest keep their old bytes, and no temporary
 * file is left; a stream is written before any file is replaced.
 */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "diag.h"
#include "file_io.h"

static char dir[64];

/* Each test in a directory of its own. */
static int setup(void **state)
{
    (void)state;
    strcpy(dir, "/tmp/mcuprof_outputs_XXXXXX");
    return mkdtemp(dir) ? chdir(dir) : -1;
}

static int teardown(void **state)
{
    DIR *d = opendir(".");
    struct dirent *e;

    (void)state;
    while (d && (e = readdir(d)))
        if (e->d_name[0] != '.')
            remove(e->d_name);
    if (d)
        closedir(d);
    return chdir("/") == 0 && rmdir(dir) == 0 ? 0 : -1;
}

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");

    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

static void expect(const char *path, const char *text)
{
    char buf[64] = "";
    FILE *f = fopen(path, "r");

    assert_non_null(f);
    buf[fread(buf, 1, sizeof(buf) - 1, f)] = '\0';
    fclose(f);
    assert_string_equal(buf, text);
}

/* Files in the directory whose name holds ".tmp". */
static int temporaries(void)
{
    DIR *d = opendir(".");
    struct dirent *e;
    int n = 0;

    while (d && (e = readdir(d)))
        n += strstr(e->d_name, ".tmp") != NULL;
    if (d)
        closedir(d);
    return n;
}

/* Open, write and ready N outputs named by PATHS, each holding "new". */
static void stage(struct mp_atomic *a, const char *const *paths, unsigned n)
{
    unsigned i;

    for (i = 0; i < n; i++) {
        assert_int_equal(mp_atomic_open(&a[i], paths[i]), 0);
        fputs("new", a[i].f);
    }
    for (i = 0; i < n; i++)
        assert_int_equal(mp_atomic_ready(&a[i]), 0);
}

/* The second rename fails (its temporary file vanished): the first output
 * is replaced, the error says so, the third keeps its bytes. */
static void rename_fails_midway(void **s)
{
    static const char *const paths[] = {"a.out", "b.out", "c.out"};
    struct mp_atomic a[3];
    char want[256];

    (void)s;
    put("a.out", "old");
    put("b.out", "old");
    put("c.out", "old");
    stage(a, paths, 3);
    assert_int_equal(remove(a[1].tmp_path), 0);
    snprintf(want, sizeof(want),
             "b.out: cannot rename %s into place: No such file or directory; already written: a.out; "
             "no other output was",
             a[1].tmp_path);
    mp_diag_reset();
    assert_int_equal(mp_atomic_place_all(a, 3), -1);
    assert_int_equal(mp_error_count(), 1);
    assert_string_equal(mp_last_error(), want);
    expect("a.out", "new");
    expect("b.out", "old");
    expect("c.out", "old");
    assert_int_equal(temporaries(), 0);
}

/* A stream that cannot be written (a full device) goes first: nothing is
 * replaced. */
static void stream_fails_first(void **s)
{
    static const char *const paths[] = {"a.out", "/dev/full"};
    struct mp_atomic a[2];

    (void)s;
    put("a.out", "old");
    stage(a, paths, 2);
    mp_diag_reset();
    assert_int_equal(mp_atomic_place_all(a, 2), -1);
    assert_string_equal(mp_last_error(),
                        "/dev/full: write error after 0 bytes: No space left on device; no other output was written");
    expect("a.out", "old");
    assert_int_equal(temporaries(), 0);
}

/* All ready: all in place, nothing left over. */
static void all_placed(void **s)
{
    static const char *const paths[] = {"a.out", "b.out", "/dev/null"};
    struct mp_atomic a[3];

    (void)s;
    put("a.out", "old");
    stage(a, paths, 3);
    mp_diag_reset();
    assert_int_equal(mp_atomic_place_all(a, 3), 0);
    assert_int_equal(mp_error_count(), 0);
    expect("a.out", "new");
    expect("b.out", "new");
    assert_int_equal(temporaries(), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(rename_fails_midway, setup, teardown),
        cmocka_unit_test_setup_teardown(stream_fails_first, setup, teardown),
        cmocka_unit_test_setup_teardown(all_placed, setup, teardown),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}

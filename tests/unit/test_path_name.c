/*
 * File names taken apart (path_name.h) by both hosts' rules: POSIX's
 * (only `/` separates) and Windows' (`\` and `/`, drives, shares).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "path_name.h"

/* PATH's base and folder by the rule WIN: BASE, and the folder DIR
 * ("" for none). */
static void parts(const char *path, int win, const char *base, const char *dir)
{
    size_t n = mp_path_dir_len_in(path, win);

    if (strcmp(mp_path_base_in(path, win), base) != 0)
        fail_msg("%s (%s): base '%s', want '%s'", path, win ? "Windows" : "POSIX",
                 mp_path_base_in(path, win), base);
    if (n != strlen(dir) || strncmp(path, dir, n) != 0)
        fail_msg("%s (%s): folder '%.*s', want '%s'", path, win ? "Windows" : "POSIX", (int)n, path, dir);
}

static void posix_rule(void **s)
{
    (void)s;
    parts("gmon.out", 0, "gmon.out", "");
    parts("out/gmon.out", 0, "gmon.out", "out");
    parts("/gmon.out", 0, "gmon.out", "/");
    parts("/a/b/fw.elf", 0, "fw.elf", "/a/b");
    parts("a//b", 0, "b", "a/"); /* one separator dropped, as dirname's callers had it */
    parts("out/", 0, "", "out");
    parts("/", 0, "", "/");
    parts("", 0, "", "");
    /* a backslash and a colon are characters of a POSIX name */
    parts("dir\\fw.elf", 0, "dir\\fw.elf", "");
    parts("C:fw.elf", 0, "C:fw.elf", "");
    parts("x/C:\\y", 0, "C:\\y", "x");
}

static void windows_rule(void **s)
{
    (void)s;
    parts("fw.elf", 1, "fw.elf", "");
    parts("build\\fw.elf", 1, "fw.elf", "build");
    parts("build/fw.elf", 1, "fw.elf", "build");
    parts("a/b\\c", 1, "c", "a/b");
    parts("C:\\fw.elf", 1, "fw.elf", "C:\\");
    parts("C:/fw.elf", 1, "fw.elf", "C:/");
    parts("c:\\work\\fw.elf", 1, "fw.elf", "c:\\work");
    parts("C:fw.elf", 1, "fw.elf", "C:"); /* the current folder of drive C */
    parts("C:", 1, "", "C:");
    parts("C:\\", 1, "", "C:\\");
    parts("\\fw.elf", 1, "fw.elf", "\\");
    /* a share: \\server\share\ is its root, as C:\ is a drive's */
    parts("\\\\server\\share\\fw.elf", 1, "fw.elf", "\\\\server\\share\\");
    parts("\\\\server\\share\\dir\\fw.elf", 1, "fw.elf", "\\\\server\\share\\dir");
    parts("\\\\server\\share", 1, "", "\\\\server\\share");
    parts("//server/share/fw.elf", 1, "fw.elf", "//server/share/");
    /* the long-name prefix keeps its drive */
    parts("\\\\?\\C:\\fw.elf", 1, "fw.elf", "\\\\?\\C:\\");
}

/* The host's own rule, and the folder as a name ("." for none). */
static void host_rule(void **s)
{
    char *d;

    (void)s;
    assert_string_equal(mp_path_base("out/gmon.out"), "gmon.out");
    assert_true(mp_path_sep('/'));
    d = mp_path_dir("gmon.out");
    assert_string_equal(d, ".");
    free(d);
    d = mp_path_dir("out/gmon.out");
    assert_string_equal(d, "out");
    free(d);
    d = mp_path_dir("/gmon.out");
    assert_string_equal(d, "/");
    free(d);
#ifdef _WIN32
    assert_true(mp_path_sep('\\'));
    assert_string_equal(mp_path_base("C:\\out\\gmon.out"), "gmon.out");
#else
    assert_false(mp_path_sep('\\'));
    assert_string_equal(mp_path_base("out\\gmon.out"), "out\\gmon.out");
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(posix_rule),
        cmocka_unit_test(windows_rule),
        cmocka_unit_test(host_rule),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}

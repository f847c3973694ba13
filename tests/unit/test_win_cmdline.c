/*
 * An argument vector as one Windows command line (win_cmdline.h): exact
 * lines for the cases the rules single out (blanks, quotes, backslashes
 * before a quote and at the end, empty arguments, the program's name),
 * and random vectors split back by the rules of CommandLineToArgvW (as
 * written below) to what went in.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "win_cmdline.h"

static void line_is(char *const argv[], const char *want)
{
    char buf[512];

    assert_int_equal(mp_win_cmdline(argv, buf, sizeof(buf)), (long)strlen(want));
    assert_string_equal(buf, want);
}

static void exact(void **s)
{
    (void)s;
    line_is((char *[]){"qemu-system-arm.exe", NULL}, "qemu-system-arm.exe");
    line_is((char *[]){"C:\\Program Files\\qemu\\qemu-system-arm.exe", "-machine", "mps2-an385", NULL},
            "\"C:\\Program Files\\qemu\\qemu-system-arm.exe\" -machine mps2-an385");
    line_is((char *[]){"q", "", "a b", "tab\there", NULL}, "q \"\" \"a b\" \"tab\there\"");
    line_is((char *[]){"q", "say \"hi\"", NULL}, "q \"say \\\"hi\\\"\"");
    /* backslashes: as they are unless a quote follows */
    line_is((char *[]){"q", "C:\\dir\\file.elf", NULL}, "q C:\\dir\\file.elf");
    line_is((char *[]){"q", "C:\\my dir\\", NULL}, "q \"C:\\my dir\\\\\"");
    line_is((char *[]){"q", "a\\\\\"b c", NULL}, "q \"a\\\\\\\\\\\"b c\"");
    line_is((char *[]){"q", "a\\\"b", NULL}, "q \"a\\\\\\\"b\"");
    line_is((char *[]){"q", "trail\\", NULL}, "q trail\\");
    line_is((char *[]){"q", "shift=7,align=off,sleep=off", "-kernel", "C:\\Users\\J\xc3\xb6rg\\fw.elf", NULL},
            "q shift=7,align=off,sleep=off -kernel C:\\Users\\J\xc3\xb6rg\\fw.elf");
}

static void refused(void **s)
{
    char buf[16];

    (void)s;
    /* a quote in the program's name cannot be written */
    assert_int_equal(mp_win_cmdline((char *[]){"a\"b", NULL}, buf, sizeof(buf)), -1);
    /* too long for the buffer */
    assert_int_equal(mp_win_cmdline((char *[]){"q", "0123456789abcdef", NULL}, buf, sizeof(buf)), -1);
    assert_int_equal(mp_win_cmdline((char *[]){"q", "0123456789abc", NULL}, buf, sizeof(buf)), 15);
}

/* CommandLineToArgvW's rules: the program's name up to the closing quote
 * or a blank; then 2n backslashes and a quote are n backslashes and a
 * quote that opens or closes, 2n+1 are n and a literal quote, backslashes
 * without a quote are themselves, a blank outside quotes ends an
 * argument. Into ARGS (each of SIZE bytes): the count. */
static int split(const char *p, char args[][256], int max)
{
    int n = 0;
    size_t len = 0;

    if (*p == '"') {
        for (p++; *p && *p != '"'; p++)
            args[n][len++] = *p;
        if (*p)
            p++;
    } else {
        for (; *p && *p != ' ' && *p != '\t'; p++)
            args[n][len++] = *p;
    }
    args[n++][len] = '\0';
    for (;;) {
        int quoted = 0;

        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p || n >= max)
            return n;
        len = 0;
        while (*p && (quoted || (*p != ' ' && *p != '\t'))) {
            size_t k = 0;

            while (*p == '\\') {
                k++;
                p++;
            }
            if (*p == '"') {
                while (k >= 2) {
                    args[n][len++] = '\\';
                    k -= 2;
                }
                if (k) {
                    args[n][len++] = '"';
                } else if (quoted && p[1] == '"') {
                    args[n][len++] = '"';
                    p++;
                } else {
                    quoted = !quoted;
                }
                p++;
            } else {
                while (k--)
                    args[n][len++] = '\\';
                if (*p && (quoted || (*p != ' ' && *p != '\t')))
                    args[n][len++] = *p++;
            }
        }
        args[n++][len] = '\0';
    }
}

static uint32_t seed = 777;

static unsigned rnd(unsigned n)
{
    seed = seed * 1103515245u + 12345u;
    return (seed >> 16) % n;
}

static void round_trip(void **s)
{
    static const char alphabet[] = "ab \\\"\t=,:.\xc3\xb6";
    static char words[8][256], got[16][256], line[8192];
    char *argv[9];
    unsigned i, trial;

    (void)s;
    for (trial = 0; trial < 20000; trial++) {
        unsigned n = 1 + rnd(7);
        int k;

        for (i = 0; i < n; i++) {
            unsigned len = rnd(i ? 12 : 8), c;

            for (c = 0; c < len; c++) {
                char ch = alphabet[rnd(sizeof(alphabet) - 1)];

                /* the program's name has no quote, nor is it empty */
                words[i][c] = i == 0 && ch == '"' ? 'x' : ch;
            }
            if (i == 0 && len == 0)
                words[i][len++] = 'p';
            words[i][len] = '\0';
            argv[i] = words[i];
        }
        argv[n] = NULL;
        assert_true(mp_win_cmdline(argv, line, sizeof(line)) > 0);
        k = split(line, got, 16);
        if (k != (int)n)
            fail_msg("'%s' splits into %d arguments, not %u", line, k, n);
        for (i = 0; i < n; i++)
            if (strcmp(got[i], words[i]) != 0)
                fail_msg("'%s': argument %u is '%s', not '%s'", line, i, got[i], words[i]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(exact),
        cmocka_unit_test(refused),
        cmocka_unit_test(round_trip),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}

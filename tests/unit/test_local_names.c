/*
 * test_local_names.c - the verdicts on local symbol names, every offset of
 * a string table judged in one pass from its end (local_names.h), against
 * the questions asked of one name at a time: fixed cases, then every
 * offset of random tables made of the pieces these names are made of.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "clone_names.h"
#include "local_names.h"

/* ---- one name at a time, as the rules read ----------------------------- */

static int one_local_ok(const char *name, int is_func)
{
    if (name[0] == '\0' || name[0] == '.' || strchr(name, '$') || strncmp(name, "__gnu_compiled", 14) == 0)
        return 0;
    return !strchr(name, '.') || is_func || mp_clone_origin_len(name) < strlen(name);
}

static int left(const char *p, const char *end, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p + i >= end || !p[i])
            return 0;
    return 1;
}

/* binutils 2.40 gprof/corefile.c core_sym_class on a local name, its loop
 * as written there (it runs past the NUL after ".constprop.N") */
static int one_gprof_ok(const char *name, const char *end)
{
    const char *p;

    if (name[0] == '\0' || name[0] == '.' || strncmp(name, "__gnu_compiled", 14) == 0)
        return 0;
    for (p = name; p < end && *p; ++p) {
        if (*p == '$')
            return 0;
        while (*p == '.') {
            int digit_seen = 0;

            if (left(p, end, 8) && strncmp(p, ".clone.", 7) == 0)
                p += 6;
            else if (left(p, end, 12) && strncmp(p, ".constprop.", 11) == 0)
                p += 10;
            for (p++; p < end && *p; p++) {
                if (digit_seen && *p == '.')
                    break;
                if (*p >= '0' && *p <= '9')
                    digit_seen = 1;
                else
                    return 0;
            }
            if (p >= end)
                return 1;
        }
    }
    return 1;
}

/* ---- tests ------------------------------------------------------------------ */

static struct mp_local_names scan(const char *s, size_t n)
{
    struct mp_local_names ln;

    assert_int_equal(mp_local_names_scan(&ln, s, n, n), 0);
    return ln;
}

static void fixed(void **st)
{
    /* offsets: 0 foo.isra.0, 11 $t, 14 .L1, 18 a.b, 22 f.constprop.0
     * (gprof reads on into "x.cold" and drops it), 36 x.cold, 43 g */
    static const char s[] = "foo.isra.0\0$t\0.L1\0a.b\0f.constprop.0\0x.cold\0g";
    struct mp_local_names ln = scan(s, sizeof(s) - 1);

    (void)st;
    assert_true(mp_local_name_ok(&ln, s, 0, 0));  /* a clone's name */
    assert_false(mp_local_name_gprof_ok(&ln, s, 0));
    assert_false(mp_local_name_ok(&ln, s, 4, 0)); /* "isra.0": a dot, no clone */
    assert_true(mp_local_name_ok(&ln, s, 4, 1));
    assert_false(mp_local_name_ok(&ln, s, 11, 1)); /* mapping symbol */
    assert_false(mp_local_name_ok(&ln, s, 14, 1)); /* label */
    assert_false(mp_local_name_ok(&ln, s, 18, 0)); /* a dot, no clone */
    assert_true(mp_local_name_ok(&ln, s, 18, 1));  /* ... in a function */
    assert_false(mp_local_name_gprof_ok(&ln, s, 18));
    assert_true(mp_local_name_ok(&ln, s, 22, 0));
    assert_false(mp_local_name_gprof_ok(&ln, s, 22)); /* "x.cold" after it */
    assert_false(mp_local_name_gprof_ok(&ln, s, 36));
    assert_true(mp_local_name_ok(&ln, s, 43, 0));
    assert_true(mp_local_name_gprof_ok(&ln, s, 43));
    assert_false(mp_local_name_ok(&ln, s, 10, 0)); /* the empty name */
    mp_local_names_free(&ln);
}

/* Every offset of 20000 random tables of up to 190 bytes built from the
 * pieces of these names, each with a random end for gprof's scan: the
 * same verdicts as one name at a time. */
static void random_tables(void **st)
{
    static const char *const pieces[] = {".", "constprop", ".clone.", ".constprop.", "0", "12", "isra", "part",
                                         "cold", "lto_priv", "localalias", "clone", "$", "a", "_", ".L",
                                         "", "__gnu_compiled", "x.1"};
    enum { NP = sizeof(pieces) / sizeof(pieces[0]) };
    unsigned seed = 1;
    long compared = 0;

    (void)st;
    for (int it = 0; it < 20000; it++) {
        char s[200];
        size_t n = 0, end;
        struct mp_local_names ln;
        int k;

        seed = seed * 1103515245u + 12345u;
        k = (int)(seed >> 16) % 12;
        for (int j = 0; j < k; j++) {
            const char *p;
            size_t l;

            seed = seed * 1103515245u + 12345u;
            p = pieces[(seed >> 16) % NP];
            l = p[0] ? strlen(p) : 1; /* "": a NUL */
            if (n + l >= 190)
                break;
            memcpy(s + n, p, l);
            n += l;
        }
        s[n] = '\0';
        seed = seed * 1103515245u + 12345u;
        end = n - (n && (seed >> 16) % 4 == 0 ? (seed >> 18) % n : 0);
        assert_int_equal(mp_local_names_scan(&ln, s, n, end), 0);
        for (size_t o = 0; o < n; o++) {
            if (!s[o])
                continue;
            assert_int_equal(mp_local_name_ok(&ln, s, o, 0), one_local_ok(s + o, 0));
            assert_int_equal(mp_local_name_ok(&ln, s, o, 1), one_local_ok(s + o, 1));
            if (o < end)
                assert_int_equal(mp_local_name_gprof_ok(&ln, s, o), one_gprof_ok(s + o, s + end));
            compared++;
        }
        mp_local_names_free(&ln);
    }
    assert_true(compared > 100000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fixed),
        cmocka_unit_test(random_tables),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * C++ names (cxx_demangle.h): libiberty demangles as gprof 2.40 prints
 * them (its flat profile's names, checked by hand against
 * arm-none-eabi-gprof), C names and what is no mangled name are left
 * alone, and the --no-demangle switch turns it all off.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cxx_demangle.h"
#include "cxx_demangler.h"

static void readable(const char *sym, const char *want)
{
    char *got = mp_demangle(sym);

    if (!got)
        fail_msg("%s: not demangled", sym);
    assert_string_equal(got, want);
    free(got);
}

static void cxx_symbols(void **s)
{
    (void)s;
    readable("_ZN5motor6Filter4stepEm", "motor::Filter::step(unsigned long)");
    readable("_Z10accumulateIjET_S0_S0_", "unsigned int accumulate<unsigned int>(unsigned int, unsigned int)");
    readable("_ZN12_GLOBAL__N_15scaleEi", "(anonymous namespace)::scale(int)");
    readable("_ZplRK3VecS1_", "operator+(Vec const&, Vec const&)");
    readable("_ZZN5motor9run_roundEPPNS_5StageEiENKUliE_clEi",
             "motor::run_round(motor::Stage**, int)::{lambda(int)#1}::operator()(int) const");
    /* GCC's clones keep their origin's name and say which clone */
    readable("_Z3fooi.constprop.0", "foo(int) [clone .constprop.0]");
    readable("_Z3fooi.cold", "foo(int) [clone .cold]");
    /* a constructor's complete- and base-object versions read the same:
     * outputs that key on names must tell them apart by address */
    readable("_ZN3FooC1Ev", "Foo::Foo()");
    readable("_ZN3FooC2Ev", "Foo::Foo()");
}

static void c_names_alone(void **s)
{
    (void)s;
    assert_null(mp_demangle("main"));
    assert_null(mp_demangle("__gnu_mcount_nc"));
    assert_null(mp_demangle("_mcount"));
    assert_null(mp_demangle("foo.constprop.0"));
    assert_null(mp_demangle("_Z"));       /* a prefix and nothing else */
    assert_null(mp_demangle("_Zgarbage")); /* not a mangled name */
    assert_null(mp_demangle(""));
    assert_null(mp_demangle(NULL));
}

/* A name's length is capped before libiberty sees it: a Rust legacy
 * name (which libiberty demangles at any length) of MP_DEMANGLE_MAX
 * bytes reads demangled, one byte more is shown as it is; a C++ name of
 * 1 MiB nested templates, far past libiberty's own limit, is shown as it
 * is without a crash. */
static char *rust_legacy(size_t len)
{
    static const char head[] = "_ZN", tail[] = "17h0123456789abcdefE";
    char *s = malloc(len + 1);
    size_t i = 0, body = len - (sizeof(head) - 1) - (sizeof(tail) - 1);

    assert_non_null(s);
    memcpy(s, head, sizeof(head) - 1);
    if (body % 2) /* components "1a", the first "2ab" when the length is odd */
        memcpy(s + sizeof(head) - 1, "2ab", 3), i = 3;
    for (; i < body; i += 2)
        memcpy(s + sizeof(head) - 1 + i, "1a", 2);
    memcpy(s + len - (sizeof(tail) - 1), tail, sizeof(tail));
    return s;
}

static void length_capped(void **s)
{
    char *sym, *got;
    size_t i, n = (size_t)1 << 20;

    (void)s;
    /* C++ names of one identifier, "_Z<N><N x's>v": a long one is
     * demangled on every host (the C++ demangler takes names up to 1024
     * bytes: cxx_demangle.c), one over the cap never reaches it */
    sym = malloc(MP_DEMANGLE_MAX + 2);
    assert_non_null(sym);
    assert_int_equal(snprintf(sym, 8, "_Z%u", 1000u), 6);
    memset(sym + 6, 'x', 1000);
    memcpy(sym + 1006, "v", 2);
    got = mp_demangle(sym);
    assert_non_null(got);
    assert_int_equal(strlen(got), 1002);
    assert_string_equal(got + 1000, "()");
    free(got);
    assert_int_equal(snprintf(sym, 8, "_Z%u", MP_DEMANGLE_MAX - 6u), 6);
    memset(sym + 6, 'x', MP_DEMANGLE_MAX - 6);
    memcpy(sym + MP_DEMANGLE_MAX, "v", 2);
    assert_int_equal(strlen(sym), MP_DEMANGLE_MAX + 1);
    assert_null(mp_demangle(sym));
    free(sym);
    /* the Rust name libiberty reads, where the demangler does */
    if (!mp_demangler_lacks) {
        sym = rust_legacy(MP_DEMANGLE_MAX);
        got = mp_demangle(sym);
        assert_non_null(got);
        assert_int_equal(strncmp(got, "ab::a::a", 8), 0);
        free(got);
        free(sym);
        sym = rust_legacy(MP_DEMANGLE_MAX + 1);
        assert_null(mp_demangle(sym));
        free(sym);
    }
    sym = malloc(n + 8);
    assert_non_null(sym);
    memcpy(sym, "_Z1fI", 5);
    for (i = 5; i < n; i++)
        sym[i] = i % 2 ? 'I' : 'P';
    memcpy(sym + n, "iEEv", 5);
    assert_null(mp_demangle(sym));
    free(sym);
}

static void switched_off(void **s)
{
    (void)s;
    assert_true(mp_demangle_enabled());
    mp_demangle_enable(0);
    assert_false(mp_demangle_enabled());
    assert_null(mp_demangle("_ZN5motor6Filter4stepEm"));
    mp_demangle_enable(1);
    readable("_ZN5motor6Filter4stepEm", "motor::Filter::step(unsigned long)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cxx_symbols),
        cmocka_unit_test(c_names_alone),
        cmocka_unit_test(length_capped),
        cmocka_unit_test(switched_off),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}

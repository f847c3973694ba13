/*
 * test_clones.c - GCC's clone names (clone_names.h) and the two views of
 * them (clone_group.c): each clone its own function, or grouped with its
 * source function, on a model filled by hand.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "clone_names.h"
#include "model.h"
#include "model_fixture.h"

static void origins(void **s)
{
    (void)s;
    assert_int_equal(mp_clone_origin_len("foo"), 3);
    assert_int_equal(mp_clone_origin_len("foo.constprop.0"), 3);
    assert_int_equal(mp_clone_origin_len("foo.isra.0.constprop.12"), 3);
    assert_int_equal(mp_clone_origin_len("foo.part.0.cold"), 3);
    assert_int_equal(mp_clone_origin_len("foo.cold"), 3);
    assert_int_equal(mp_clone_origin_len("foo.lto_priv.0"), 3);
    assert_int_equal(mp_clone_origin_len("_ZL3fooi.constprop.0"), 8);
    /* a dot that starts no clone suffix belongs to the origin */
    assert_int_equal(mp_clone_origin_len("a.b.constprop.0"), 3);
    assert_int_equal(mp_clone_origin_len("foo.bar"), 7);
    assert_int_equal(mp_clone_origin_len("foo.constprop.x"), 15);
    assert_int_equal(mp_clone_origin_len("foo.coldness"), 12);
    assert_int_equal(mp_clone_origin_len(".cold"), 5);
    assert_int_equal(mp_clone_origin_len(""), 0);
    assert_true(mp_clone_is_piece("foo.part.0"));
    assert_true(mp_clone_is_piece("foo.cold"));
    assert_true(mp_clone_is_piece("foo.constprop.0.part.1"));
    assert_false(mp_clone_is_piece("foo.constprop.0"));
    assert_false(mp_clone_is_piece("foo.isra.0"));
    assert_false(mp_clone_is_piece("foo"));
}

/* caller, f, f.part.0, f.cold, g.constprop.0, g.isra.0 (g itself gone),
 * and two static s with an s.constprop.0 whose origin cannot be told. */
static const char *const names[] = {"caller", "f", "f.part.0", "f.cold", "g.constprop.0", "g.isra.0", "s",
                                    "s", "s.constprop.0"};
#define NF (sizeof(names) / sizeof(names[0]))

/* A hostile symbol name of 100000 ".cold" and a last ".x": no clone
 * suffix ends it, so its origin is all of it. Each dot starts a parse
 * that stops at ".x"; trying every dot anew took 100000 parses of up to
 * 500000 bytes (ctest's timeout of this test fails that), one pass now. */
static void many_suffixes_linear(void **s)
{
    enum { N = 100000 };
    char *name = malloc(1 + 5 * (size_t)N + 3);
    size_t i;

    (void)s;
    assert_non_null(name);
    name[0] = 'f';
    for (i = 0; i < N; i++)
        memcpy(name + 1 + 5 * i, ".cold", 5);
    memcpy(name + 1 + 5 * (size_t)N, ".x", 3);
    assert_int_equal(mp_clone_origin_len(name), 1 + 5 * (size_t)N + 2);
    name[1 + 5 * (size_t)N] = '\0'; /* all ".cold": the origin is "f" */
    assert_int_equal(mp_clone_origin_len(name), 1);
    free(name);
}

static void fill(struct mp_model *m)
{
    static struct mp_model_func funcs[NF];
    /* caller -> f 10, caller -> f.part.0 4 (f's head inlined), f ->
     * f.part.0 6 (its own body), caller -> g.constprop.0 3, caller ->
     * g.isra.0 2, g.isra.0 -> g.isra.0 5 (recursion), caller -> s.constprop.0 1 */
    static struct mp_model_arc arcs[] = {
        {0x1004, 0x1010, 10, 0, 1, 0}, {0x1006, 0x1020, 4, 0, 2, 0},  {0x1014, 0x1020, 6, 1, 2, 0},
        {0x1008, 0x1040, 3, 0, 4, 0},  {0x100a, 0x1050, 2, 0, 5, 0},  {0x1054, 0x1050, 5, 5, 5, 0},
        {0x100c, 0x1080, 1, 0, 8, 0},
    };
    static const double self[NF] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    size_t i;

    model_fixture_arm(m);
    for (i = 0; i < NF; i++) {
        funcs[i] = (struct mp_model_func){0};
        funcs[i].name = names[i];
        funcs[i].addr = 0x1000 + 0x10 * i;
        funcs[i].end = funcs[i].addr + 0x10;
        funcs[i].self = self[i];
    }
    m->funcs = funcs;
    m->nfuncs = NF;
    m->arcs = arcs;
    m->narcs = sizeof(arcs) / sizeof(arcs[0]);
    for (i = 0; i < m->narcs; i++)
        funcs[arcs[i].callee_fn].calls += arcs[i].count;
    assert_int_equal(mp_model_find_groups(m), 0);
}

static void separate(void **s)
{
    struct mp_model m;
    char buf[128];

    (void)s;
    fill(&m);
    assert_int_equal(m.nclones, 5);
    assert_int_equal(m.funcs[2].group, 1);
    assert_int_equal(m.funcs[3].group, 1);
    /* no g: the first clone stands for it */
    assert_int_equal(m.funcs[4].group, 4);
    assert_int_equal(m.funcs[5].group, 4);
    /* two s: s.constprop.0 stays apart */
    assert_int_equal(m.funcs[8].group, 8);
    assert_int_equal(mp_model_find_func(&m, 0x1024), 2);
    assert_string_equal(mp_model_clone_view(&m, buf, sizeof(buf)),
                        "5 GCC clones and cold parts, each its own function (--group-clones: with their origin)");
    assert_false(mp_model_own_piece(&m, 0x1010, 0x1020));
    mp_model_free(&m);
}

static void grouped(void **s)
{
    struct mp_model m;
    char buf[128];

    (void)s;
    fill(&m);
    assert_int_equal(mp_model_group_clones(&m), 0);
    assert_true(m.clones_grouped);
    /* f: its own, its .part's and its .cold's time */
    assert_float_equal(m.funcs[1].self, 2 + 3 + 4, 1e-9);
    assert_float_equal(m.funcs[2].self, 0, 1e-9);
    assert_float_equal(m.funcs[3].self, 0, 1e-9);
    /* called 10 times, and 4 times through its inlined head; f's 6 calls
     * of its own body are no calls, counted apart */
    assert_int_equal(m.funcs[1].calls, 14);
    assert_int_equal(m.internal_calls, 6);
    assert_int_equal(m.narcs, 6);
    /* g: named after the source function, its clones' time and calls,
     * recursion kept as recursion */
    assert_string_equal(m.funcs[4].name, "g");
    assert_float_equal(m.funcs[4].self, 5 + 6, 1e-9);
    assert_int_equal(m.funcs[4].calls, 3 + 2 + 5);
    assert_int_equal(m.arcs[4].caller, 4);
    assert_int_equal(m.arcs[4].callee_fn, 4);
    /* the ambiguous static's clone stays itself */
    assert_string_equal(m.funcs[8].name, "s.constprop.0");
    assert_int_equal(m.funcs[8].calls, 1);
    /* addresses in a clone name its group */
    assert_int_equal(mp_model_find_func(&m, 0x1024), 1);
    assert_int_equal(mp_model_find_func(&m, 0x1034), 1);
    assert_int_equal(mp_model_find_func(&m, 0x1058), 4);
    assert_int_equal(mp_model_find_symbol(&m, 0x1024), 2);
    assert_true(mp_model_own_piece(&m, 0x1010, 0x1020));
    assert_false(mp_model_own_piece(&m, 0x1000, 0x1020));
    assert_false(mp_model_own_piece(&m, 0x1040, 0x1050));
    assert_string_equal(mp_model_clone_view(&m, buf, sizeof(buf)),
                        "5 GCC clones and cold parts, grouped with their origin");
    /* once is enough */
    assert_int_equal(mp_model_group_clones(&m), 0);
    assert_int_equal(m.funcs[1].calls, 14);
    mp_model_free(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(origins),
        cmocka_unit_test(many_suffixes_linear),
        cmocka_unit_test(separate),
        cmocka_unit_test(grouped),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}

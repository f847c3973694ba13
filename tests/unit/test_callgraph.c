/*
 * Time propagated along the call graph (callgraph.h) on hand-made models
 * whose inclusive times are worked out by hand in each test's comment,
 * and the callgrind and DOT writers on such models: their numbers, and
 * the escaping of names that would break either format.
 */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "callgraph.h"
#include "diag.h"
#include "formats.h"
#include "model.h"
#include "model_fixture.h"

#define EXACT 1e-9

/* cmocka before 1.1.6 has no assert_double_equal. */
static void near(double got, double want, const char *expr, int line)
{
    if (!(fabs(got - want) <= EXACT))
        fail_msg("line %d: %s is %.12g, expected %.12g", line, expr, got, want);
}
#define assert_near(got, want) near((got), (want), #got, __LINE__)

static struct mp_model m;
static struct mp_callgraph g;

/* NF functions 0x100 bytes apart from 0x1000, named f0, f1, ... unless
 * NAMES is given, with room for MAXARCS arcs. */
static void model(size_t nf, const double *self, const char *const *names, size_t maxarcs)
{
    size_t i;

    model_fixture_arm(&m);
    assert_non_null(m.funcs = mp_model_alloc(&m, (nf ? nf : 1) * sizeof(*m.funcs)));
    assert_non_null(m.arcs = mp_model_alloc(&m, (maxarcs ? maxarcs : 1) * sizeof(*m.arcs)));
    for (i = 0; i < nf; i++) {
        struct mp_model_func *f = &m.funcs[i];
        char name[32];

        snprintf(name, sizeof(name), "f%zu", i);
        assert_non_null(f->name = mp_model_strdup(&m, names ? names[i] : name));
        f->addr = 0x1000 + 0x100 * (uint64_t)i;
        f->end = f->addr + 0x100;
        f->size = 0x100;
        f->self = self ? self[i] : 0;
    }
    m.nfuncs = nf;
}

/* COUNT calls from CALLER (-1: code that is no function) to CALLEE. */
static void arc(long caller, long callee, uint64_t count)
{
    struct mp_model_arc *a = &m.arcs[m.narcs];

    a->callsite = caller >= 0 ? m.funcs[caller].addr + 4 + 2 * m.narcs % 0x80 : 0;
    a->callee = callee >= 0 ? m.funcs[callee].addr : 0x99990;
    a->caller = caller;
    a->callee_fn = callee;
    a->count = count;
    if (callee >= 0)
        m.funcs[callee].calls += count;
    m.narcs++;
}

static void compute(void)
{
    assert_int_equal(mp_callgraph_compute(&g, &m), 0);
}

static int teardown(void **s)
{
    (void)s;
    mp_callgraph_free(&g);
    mp_model_free(&m);
    return 0;
}

static int quiet(void **s)
{
    (void)s;
    mp_diag_quiet(1);
    return 0;
}

/* main(1) -> a(2) -> b(4), 1 and 3 calls: b 4, a 2 + 4 = 6, main 7. */
static void chain(void **s)
{
    const double self[] = {1, 2, 4};

    (void)s;
    model(3, self, NULL, 2);
    arc(0, 1, 1);
    arc(1, 2, 3);
    compute();
    assert_near(g.inclusive[2], 4);
    assert_near(g.inclusive[1], 6);
    assert_near(g.inclusive[0], 7);
    assert_near(g.arc_time[1], 4);
    assert_near(g.arc_time[0], 6);
    assert_int_equal(g.ncycles, 0);
    assert_near(g.spontaneous, 0);
}

/* top(0.5) calls l(1) and r(2) once each; l calls d(8) once, r three
 * times: d's 8 splits 1:3, 2 to l and 6 to r; l = 3, r = 8,
 * top = 0.5 + 3 + 8 = 11.5. */
static void diamond(void **s)
{
    const double self[] = {0.5, 1, 2, 8};

    (void)s;
    model(4, self, NULL, 4);
    arc(0, 1, 1);
    arc(0, 2, 1);
    arc(1, 3, 1);
    arc(2, 3, 3);
    compute();
    assert_near(g.arc_time[2], 2);
    assert_near(g.arc_time[3], 6);
    assert_near(g.inclusive[3], 8);
    assert_near(g.inclusive[1], 3);
    assert_near(g.inclusive[2], 8);
    assert_near(g.inclusive[0], 11.5);
    assert_int_equal(g.cycle[3], 0);
}

/* main(1) -> fib(10) once, fib -> fib 464 times: the recursive calls
 * carry nothing and do not dilute main's share: fib 10, main 11; a self
 * call is no cycle. */
static void self_recursion(void **s)
{
    const double self[] = {1, 10};

    (void)s;
    model(2, self, NULL, 2);
    arc(0, 1, 1);
    arc(1, 1, 464);
    compute();
    assert_near(g.arc_time[1], 0);
    assert_near(g.arc_time[0], 10);
    assert_near(g.inclusive[1], 10);
    assert_near(g.inclusive[0], 11);
    assert_int_equal(g.ncycles, 0);
    assert_int_equal(g.cycle[1], 0);
}

/* main(1) calls even(3) 5 times and x(0) once; x calls odd(2) 5 times;
 * even <-> odd 50 times each way; odd calls leaf(4) 10 times. The cycle
 * is 3 + 2 + 4 = 9, entered 5 + 5 times from outside: 4.5 to main's arc,
 * 4.5 to x's; x = 4.5, main = 1 + 4.5 + 4.5 = 10; the arcs inside the
 * cycle carry nothing. */
static void two_function_cycle(void **s)
{
    const double self[] = {1, 3, 2, 4, 0};

    (void)s;
    model(5, self, NULL, 8);
    arc(0, 1, 5);  /* 0: main -> even */
    arc(1, 2, 50); /* 1: even -> odd */
    arc(2, 1, 50); /* 2: odd -> even */
    arc(2, 3, 10); /* 3: odd -> leaf */
    arc(0, 4, 1);  /* 4: main -> x */
    arc(4, 2, 5);  /* 5: x -> odd */
    compute();
    assert_int_equal(g.ncycles, 1);
    assert_int_equal(g.cycle[1], 1);
    assert_int_equal(g.cycle[2], 1);
    assert_int_equal(g.cycle[0], 0);
    assert_int_equal(g.cycle[3], 0);
    assert_near(g.cycle_time[1], 9);
    assert_near(g.inclusive[1], 9);
    assert_near(g.inclusive[2], 9);
    assert_near(g.arc_time[1], 0);
    assert_near(g.arc_time[2], 0);
    assert_near(g.arc_time[3], 4);
    assert_near(g.arc_time[0], 4.5);
    assert_near(g.arc_time[5], 4.5);
    assert_near(g.inclusive[4], 4.5);
    assert_near(g.inclusive[0], 10);
}

/* f0 -> f1 <-> f2 -> f3 <-> f4: Tarjan finds {f3, f4} first, but cycles
 * are numbered by address: {f1, f2} is cycle 1. Each function 1 sample:
 * the inner cycle 2, the outer 2 + 2 = 4, f0 5. */
static void cycles_numbered_by_address(void **s)
{
    const double self[] = {1, 1, 1, 1, 1};

    (void)s;
    model(5, self, NULL, 6);
    arc(0, 1, 1);
    arc(1, 2, 7);
    arc(2, 1, 7);
    arc(2, 3, 2);
    arc(3, 4, 3);
    arc(4, 3, 3);
    compute();
    assert_int_equal(g.ncycles, 2);
    assert_int_equal(g.cycle[1], 1);
    assert_int_equal(g.cycle[2], 1);
    assert_int_equal(g.cycle[3], 2);
    assert_int_equal(g.cycle[4], 2);
    assert_near(g.cycle_time[2], 2);
    assert_near(g.cycle_time[1], 4);
    assert_near(g.inclusive[0], 5);
}

/* work(8) is called once by main(1) and 3 times from code that is no
 * function (an interrupt): main gets 2, the outside 6, which no function
 * is charged with. */
static void outside_caller(void **s)
{
    const double self[] = {1, 8};

    (void)s;
    model(2, self, NULL, 2);
    arc(0, 1, 1);
    arc(-1, 1, 3);
    compute();
    assert_near(g.arc_time[0], 2);
    assert_near(g.arc_time[1], 6);
    assert_near(g.spontaneous, 6);
    assert_near(g.inclusive[0], 3);
    assert_near(g.inclusive[1], 8);
}

/* Functions without arcs keep their self time; an arc to code that is no
 * function carries nothing. */
static void no_arcs(void **s)
{
    const double self[] = {5, 0, 2.25};

    (void)s;
    model(3, self, NULL, 1);
    arc(2, -1, 9);
    compute();
    assert_near(g.inclusive[0], 5);
    assert_near(g.inclusive[1], 0);
    assert_near(g.inclusive[2], 2.25);
    assert_near(g.arc_time[0], 0);
    assert_int_equal(g.ncycles, 0);
}

static void empty_model(void **s)
{
    (void)s;
    model(0, NULL, NULL, 0);
    compute();
    assert_int_equal(g.ncycles, 0);
}

/* A chain and a ring 200,000 functions long: a recursive search would
 * overflow the stack. Chain: f0's time is all 200,000 samples; ring: one
 * cycle holding them all. */
#define DEEP 200000
static void deep_graphs(void **s)
{
    double *self = malloc(DEEP * sizeof(*self));
    size_t i;

    (void)s;
    assert_non_null(self);
    for (i = 0; i < DEEP; i++)
        self[i] = 1;
    model(DEEP, self, NULL, DEEP);
    for (i = 0; i + 1 < DEEP; i++)
        arc((long)i, (long)i + 1, 2);
    compute();
    assert_near(g.inclusive[0], DEEP);
    assert_near(g.inclusive[DEEP / 2], DEEP / 2);
    assert_int_equal(g.ncycles, 0);
    mp_callgraph_free(&g);

    arc(DEEP - 1, 0, 2);
    compute();
    assert_int_equal(g.ncycles, 1);
    assert_int_equal(g.cycle[DEEP - 1], 1);
    assert_near(g.inclusive[12345], DEEP);
    free(self);
}

static void bad_function_index(void **s)
{
    (void)s;
    model(2, NULL, NULL, 1);
    arc(0, 1, 1);
    m.arcs[0].callee_fn = 7;
    assert_int_equal(mp_callgraph_compute(&g, &m), -1);
    assert_non_null(strstr(mp_last_error(), "arc 0"));
    assert_non_null(strstr(mp_last_error(), "7"));
    assert_null(g.inclusive);
}

/* --- the writers ------------------------------------------------------- */

static char out[16384];

static void write_format(const struct mp_format *fmt)
{
    FILE *f = tmpfile();
    size_t n;

    assert_non_null(f);
    assert_int_equal(mp_format_check(fmt, &m), 0);
    assert_int_equal(fmt->write(&m, f), 0);
    rewind(f);
    n = fread(out, 1, sizeof(out) - 1, f);
    out[n] = '\0';
    fclose(f);
}

static void has(const char *text)
{
    if (!strstr(out, text))
        fail_msg("missing \"%s\" in:\n%s", text, out);
}

/* The diamond again, with fractional self time and 2 calls from outside:
 * d = 8.4 is called 1 + 3 + 2 times: 1.4 to l, 4.2 to r, 2.8 outside.
 * Whole samples: top 1 (0.5 rounds up), l 1, r 2, d 8; l = 2.4, r = 6.2,
 * top = 0.5 + 2.4 + 6.2 = 9.1. */
static void diamond_model(void)
{
    const double self[] = {0.5, 1, 2, 8.4};
    static const char *const names[] = {"top", "l", "r", "d"};

    model(4, self, names, 5);
    arc(0, 1, 1);
    arc(0, 2, 1);
    arc(1, 3, 1);
    arc(2, 3, 3);
    arc(-1, 3, 2);
}

static void callgrind_costs(void **s)
{
    (void)s;
    diamond_model();
    m.sample_rate_hz = 1000;
    write_format(&mp_format_callgrind);
    has("# callgrind format\nversion: 1\ncreator: mcuprof\n");
    /* no line table: lines only, every function at its line 0 */
    has("positions: line\n");
    has("events: Samples Ns\n");
    has("summary: 12 12000000\n");
    has("fl=(1) ???\nfn=(1) top\n0 1 1000000\n");
    has("cfn=(2) l\ncalls=1 0\n0 2 2000000\n");       /* 2.4 */
    has("cfn=(3) r\ncalls=1 0\n0 6 6000000\n");       /* 6.2 */
    has("fn=(4)\n0 8 8000000\n");
    has("fn=(3)\n0 2 2000000\ncfl=(1)\ncfn=(4)\ncalls=3 0\n0 4 4000000\n"); /* 4.2 */
    has("fn=(5) <spontaneous>\ncfl=(1)\ncfn=(4)\ncalls=2 0\n0 3 3000000\n"); /* 2.8 */
    /* the rate unknown: no Ns */
    m.sample_rate_hz = 0;
    write_format(&mp_format_callgrind);
    has("events: Samples\nsummary: 12\n");
}

/* With a line table: f0 (a.c, 3.5 samples) has lines 10 and 11 of a.c
 * (1.25 each) and line 5 of inc.h (1.0), inlined. Rounded once to 4 and
 * dealt out: the floors 1 + 1 + 1, the one left to the first of the
 * largest remainders, line 10. The call to f1 (b.c:20, no row) is at
 * a.c:12. File ids in name order: ??? 1, a.c 2, b.c 3, inc.h 4. */
static void callgrind_lines(void **s)
{
    const double self[] = {3.5, 2};
    static const char *const names[] = {"f0", "f1"};
    static struct mp_model_linerow rows[] = {
        {0x1000, 0x1010, "a.c", 10}, {0x1010, 0x1020, "a.c", 11},
        {0x1020, 0x1030, "inc.h", 5}, {0x1030, 0x1100, "a.c", 12},
    };
    static struct mp_model_line lines[] = {
        {0, "a.c", 10, 0x1000, 1.25}, {0, "a.c", 11, 0x1010, 1.25}, {0, "inc.h", 5, 0x1020, 1.0},
    };

    (void)s;
    model(2, self, names, 1);
    m.funcs[0].file = "a.c";
    m.funcs[0].line = 9;
    m.funcs[1].file = "b.c";
    m.funcs[1].line = 20;
    m.linerows = rows;
    m.nlinerows = 4;
    m.lines = lines;
    m.nlines = 3;
    arc(0, 1, 1);
    m.arcs[0].callsite = 0x1034;
    write_format(&mp_format_callgrind);
    has("positions: instr line\n");
    has("events: Samples\nsummary: 6\n");
    has("fl=(2) a.c\nfn=(1) f0\n0x1000 10 2\n0x1010 11 1\nfi=(4) inc.h\n0x1020 5 1\nfe=(2)\n"
        "cfl=(3) b.c\ncfn=(2) f1\ncalls=1 0x1100 20\n0x1034 12 2\n");
    has("fl=(3)\nfn=(2)\n0x1100 20 2\n");
}

/* Line breaks in names would start lines of their own; names two
 * functions share get their address. */
static void callgrind_names(void **s)
{
    const double self[] = {1, 1, 1};
    static const char *const names[] = {"odd\nname", "twin", "twin"};

    (void)s;
    model(3, self, names, 0);
    write_format(&mp_format_callgrind);
    has("fn=(1) odd\\x0aname\n"); /* text_safe.h: on one line */
    has("fn=(2) twin [0x1100]\n");
    has("fn=(3) twin [0x1200]\n");
}

static void callgrind_needs_elf(void **s)
{
    (void)s;
    model(0, NULL, NULL, 0);
    assert_int_equal(mp_format_check(&mp_format_callgrind, &m), -1);
    assert_non_null(strstr(mp_last_error(), "--elf"));
    assert_int_equal(mp_format_check(&mp_format_dot, &m), -1);
}

static void dot_graph(void **s)
{
    (void)s;
    diamond_model();
    m.arcs[3].saturated = 1;
    write_format(&mp_format_dot);
    has("digraph mcuprof {\n");
    /* shares of 11.9 samples */
    has("f0 [label=\"top\\nself 4.20 %\\ntotal 76.47 %\"");
    has("f3 [label=\"d\\nself 70.59 %\\ntotal 70.59 %\\n6 calls\"");
    has("spontaneous [label=\"<spontaneous>\"");
    has("f0 -> f1 [label=\"1\"");
    has("f2 -> f3 [label=\"\xe2\x89\xa5" "3\"");
    has("spontaneous -> f3 [label=\"2\"");
    has("cost the same (gprof)");
}

/* Names escaped by the rule of text_safe.h (control characters and bytes
 * that are not UTF-8 as \xNN, a backslash doubled, UTF-8 kept), then
 * quotes and backslashes escaped for DOT and '&' as an entity. */
static void dot_escaping(void **s)
{
    static const char *const names[] = {"say \"hi\"", "back\\slash\\n", "a&b<c>", "tab\tnl\n",
                                        "caf\xc3\xa9", "bad\xff\xc3", "\xe0\x80\x80"};

    (void)s;
    model(7, NULL, names, 6);
    arc(0, 1, 1);
    arc(0, 2, 1);
    arc(0, 3, 1);
    arc(0, 4, 1);
    arc(0, 5, 1);
    arc(0, 6, 1);
    write_format(&mp_format_dot);
    has("[label=\"say \\\"hi\\\"\\nself");
    has("[label=\"back\\\\\\\\slash\\\\\\\\n\\nself");
    has("[label=\"a&amp;b<c>\\nself");
    has("[label=\"tab\\\\x09nl\\\\x0a\\nself");
    has("[label=\"caf\xc3\xa9\\nself");
    has("[label=\"bad\\\\xff\\\\xc3\\nself");
    has("[label=\"\\\\xe0\\\\x80\\\\x80\\nself");
}

/* A cycle's functions in one box, labelled with its number and total. */
static void dot_cycle(void **s)
{
    const double self[] = {1, 3, 2, 4, 0};

    (void)s;
    model(5, self, NULL, 6);
    arc(0, 1, 5);
    arc(1, 2, 50);
    arc(2, 1, 50);
    arc(2, 3, 10);
    write_format(&mp_format_dot);
    has("subgraph cluster_cycle1 {\n    label=\"<cycle 1>: total 90.00 %\";\n    style=dashed;\n"
        "    f1 [label=\"f1\\nself 30.00 %\\ntotal 90.00 %\\n55 calls\\n<cycle 1>\"");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(chain, teardown),
        cmocka_unit_test_teardown(diamond, teardown),
        cmocka_unit_test_teardown(self_recursion, teardown),
        cmocka_unit_test_teardown(two_function_cycle, teardown),
        cmocka_unit_test_teardown(cycles_numbered_by_address, teardown),
        cmocka_unit_test_teardown(outside_caller, teardown),
        cmocka_unit_test_teardown(no_arcs, teardown),
        cmocka_unit_test_teardown(empty_model, teardown),
        cmocka_unit_test_teardown(deep_graphs, teardown),
        cmocka_unit_test_teardown(bad_function_index, teardown),
        cmocka_unit_test_teardown(callgrind_costs, teardown),
        cmocka_unit_test_teardown(callgrind_lines, teardown),
        cmocka_unit_test_teardown(callgrind_names, teardown),
        cmocka_unit_test_teardown(callgrind_needs_elf, teardown),
        cmocka_unit_test_teardown(dot_graph, teardown),
        cmocka_unit_test_teardown(dot_escaping, teardown),
        cmocka_unit_test_teardown(dot_cycle, teardown),
    };

    return cmocka_run_group_tests(tests, quiet, NULL);
}

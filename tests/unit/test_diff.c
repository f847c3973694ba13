/*
 * `mcuprof diff` and the gmon.out reader behind it: the two tests' numbers
 * against hand computation, functions and arcs of one side only, static
 * functions of one name, Bonferroni's threshold, a gmon.out read back into
 * the model it was written from (GNU and BSD, both byte orders and widths),
 * repeated records added up, and the inputs that must be refused.
 *
 * usage: test_diff [GPROF_ELF_DIR]  (a directory holding arm_le.elf and
 * rv64.elf, tests/unit/gprof; the ELF tests are skipped without them)
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

#include "diag.h"
#include "gmon_capture.h"
#include "gmon_write.h"
#include "image_builder.h"
#include "image_read.h"
#include "model.h"
#include "model_load.h"
#include "profile.h"
#include "profile_diff.h"

#define ARM 40
#define RISCV 243

static const char *elf_dir;
static uint8_t img_buf[1 << 16];
static uint8_t gmon[1 << 16];
static size_t gmon_len;

static int quiet(void **s)
{
    (void)s;
    mp_diag_quiet(1);
    mp_diag_reset();
    return 0;
}

/* ---- the tests' numbers ------------------------------------------------ */

/* 30 of 100 against 50 of 100: pooled p = 80 / 200 = 0.4, standard error
 * sqrt(0.4 * 0.6 * (1/100 + 1/100)) = sqrt(0.0048) = 0.0692820, z = (0.5 -
 * 0.3) / 0.0692820 = 2.8867513, two-sided p = erfc(z / sqrt 2) =
 * erfc(2.0412415) = 0.0038924. */
static void ztest_by_hand(void **s)
{
    double z, p;

    (void)s;
    p = mp_diff_ztest(30, 100, 50, 100, &z);
    assert_float_equal(z, 2.8867513, 1e-6);
    assert_float_equal(p, 0.0038924, 1e-6);
    /* the other way round: the same p, z negative */
    p = mp_diff_ztest(50, 100, 30, 100, &z);
    assert_float_equal(z, -2.8867513, 1e-6);
    assert_float_equal(p, 0.0038924, 1e-6);
    /* 8000 of 20000 (40 %) against 8000 of 22500 (35.56 %): the share of
     * a function whose time did not change while the total grew 12.5 %.
     * p = 16000 / 42500 = 0.3764706, se = sqrt(p (1 - p) (1/20000 +
     * 1/22500)) = 0.0047088, z = (0.3555556 - 0.4) / 0.0047088 = -9.4392 */
    p = mp_diff_ztest(8000, 20000, 8000, 22500, &z);
    assert_float_equal(z, -9.4392019, 1e-5);
    assert_true(p < 1e-20 && p > 1e-22);
}

/* 100 samples against 150 at one rate: given 250, B's count is binomial
 * (250, 1/2): z = (150 - 125) / sqrt(250 / 4) = 3.1622777, p =
 * erfc(2.2360680) = 0.0015654. At 1000 and 2000 Hz, equal time expects
 * B to hold 2/3 of them: z = (150 - 166.667) / sqrt(250 * 2/9) =
 * -2.2360680, p = 0.0253473. */
static void rate_test_by_hand(void **s)
{
    double z, p;

    (void)s;
    p = mp_diff_rate_test(100, 1, 150, 1, &z);
    assert_float_equal(z, 3.1622777, 1e-6);
    assert_float_equal(p, 0.0015654, 1e-6);
    p = mp_diff_rate_test(100, 1000, 150, 2000, &z);
    assert_float_equal(z, -2.2360680, 1e-6);
    assert_float_equal(p, 0.0253473, 1e-6);
}

static void tests_without_data(void **s)
{
    double z;

    (void)s;
    /* nothing to compare: p = 1, never significant */
    assert_float_equal(mp_diff_ztest(0, 0, 5, 10, &z), 1.0, 0);
    assert_float_equal(mp_diff_ztest(0, 100, 0, 100, &z), 1.0, 0);
    assert_float_equal(mp_diff_ztest(100, 100, 10, 10, &z), 1.0, 0);
    assert_float_equal(mp_diff_rate_test(0, 1, 0, 1, &z), 1.0, 0);
    assert_float_equal(z, 0.0, 0);
}

/* ---- models by hand ---------------------------------------------------- */

struct fn {
    const char *name;
    double self;
    uint64_t calls;
    const char *file;
};

/* A model of functions 16 bytes apart from 0x1000, with TOTAL samples;
 * arcs (caller index, callee index, count), caller -1: spontaneous. */
static void make_model(struct mp_model *m, const char *name, uint16_t machine, const struct fn *f, size_t n,
                       uint64_t total, const long (*arcs)[3], size_t narcs)
{
    size_t i;

    assert_int_equal(mp_model_init(m, name, MP_MODEL_IMAGE), 0);
    m->machine = machine;
    m->ptr_size = 4;
    m->sample_rate_hz = 1000;
    m->c.binned = total;
    m->funcs = mp_model_alloc(m, n * sizeof(*m->funcs));
    assert_non_null(m->funcs);
    for (i = 0; i < n; i++) {
        m->funcs[i].name = f[i].name;
        m->funcs[i].addr = 0x1000 + 16 * i;
        m->funcs[i].end = m->funcs[i].addr + 16;
        m->funcs[i].self = f[i].self;
        m->funcs[i].calls = f[i].calls;
        m->funcs[i].file = f[i].file;
        m->funcs[i].hidden = strcmp(f[i].name, "mcount") == 0;
    }
    m->nfuncs = n;
    m->arcs = mp_model_alloc(m, (narcs ? narcs : 1) * sizeof(*m->arcs));
    assert_non_null(m->arcs);
    for (i = 0; i < narcs; i++) {
        m->arcs[i].caller = arcs[i][0];
        m->arcs[i].callsite = arcs[i][0] < 0 ? 0 : 0x1000 + 16 * (uint64_t)arcs[i][0] + 4;
        m->arcs[i].callee_fn = arcs[i][1];
        m->arcs[i].callee = 0x1000 + 16 * (uint64_t)arcs[i][1];
        m->arcs[i].count = (uint64_t)arcs[i][2];
        m->c.total_calls += m->arcs[i].count;
    }
    m->narcs = narcs;
}

static const struct mp_diff_func *find(const struct mp_diff *d, const char *key)
{
    size_t i;

    for (i = 0; i < d->nfuncs; i++)
        if (strcmp(d->funcs[i].key, key) == 0)
            return &d->funcs[i];
    return NULL;
}

static const struct mp_diff_arc *find_arc(const struct mp_diff *d, const char *caller, const char *callee)
{
    size_t i;

    for (i = 0; i < d->narcs; i++)
        if (strcmp(d->arcs[i].caller, caller) == 0 && strcmp(d->arcs[i].callee, callee) == 0)
            return &d->arcs[i];
    return NULL;
}

/* A: main, kept, gone; B: main, kept, fresh. */
static void only_in_one_side(void **s)
{
    static const struct fn fa[] = {{"main", 10, 0, NULL}, {"kept", 500, 7, NULL}, {"gone", 490, 3, NULL}};
    static const struct fn fb[] = {{"main", 10, 0, NULL}, {"kept", 500, 9, NULL}, {"fresh", 490, 4, NULL}};
    static const long aa[][3] = {{0, 1, 7}, {0, 2, 3}, {-1, 0, 1}};
    static const long ab[][3] = {{0, 1, 9}, {0, 2, 4}, {-1, 0, 1}};
    struct mp_model a, b;
    struct mp_diff d;
    const struct mp_diff_func *f;
    const struct mp_diff_arc *arc;

    (void)s;
    make_model(&a, "a.img", ARM, fa, 3, 1000, aa, 3);
    make_model(&b, "b.img", ARM, fb, 3, 1000, ab, 3);
    assert_int_equal(mp_diff_compute(&d, &a, &b, 0.001), 0);
    assert_int_equal(d.nfuncs, 4);
    f = find(&d, "gone");
    assert_non_null(f);
    assert_true(f->fa >= 0 && f->fb < 0);
    assert_int_equal(f->calls_a, 3);
    assert_int_equal(f->calls_b, 0);
    assert_float_equal(f->share_a, 0.49, 1e-12);
    assert_float_equal(f->share_b, 0.0, 0);
    assert_true(f->share_sig);
    f = find(&d, "fresh");
    assert_non_null(f);
    assert_true(f->fa < 0 && f->fb >= 0);
    f = find(&d, "kept");
    assert_int_equal(f->calls_a, 7);
    assert_int_equal(f->calls_b, 9);
    assert_false(f->share_sig);
    assert_float_equal(f->share_p, 1.0, 1e-12);
    /* arcs matched by name, one side only flagged */
    arc = find_arc(&d, "main", "gone");
    assert_non_null(arc);
    assert_true(arc->in_a && !arc->in_b);
    arc = find_arc(&d, "main", "fresh");
    assert_true(!arc->in_a && arc->in_b);
    arc = find_arc(&d, "main", "kept");
    assert_true(arc->in_a && arc->in_b);
    assert_int_equal(arc->count_a, 7);
    assert_int_equal(arc->count_b, 9);
    arc = find_arc(&d, MP_DIFF_SPONTANEOUS, "main");
    assert_non_null(arc);
    assert_int_equal(arc->count_a, 1);
    mp_diff_free(&d);
    mp_model_free(&a);
    mp_model_free(&b);
}

/* Bonferroni: m counts functions with samples on either side (not the
 * idle ones, not mcount), and a change is significant below alpha / m. */
static void bonferroni(void **s)
{
    /* 450 -> 400 of 1000: z = -2.2617, p = 0.0237; 450 -> 300: p = 4.3e-12 */
    static const struct fn fa[] = {{"x", 450, 0, NULL}, {"y", 450, 0, NULL}, {"idle", 0, 0, NULL},
                                   {"mcount", 100, 0, NULL}};
    static const struct fn fb[] = {{"x", 400, 0, NULL}, {"y", 300, 0, NULL}, {"idle", 0, 0, NULL},
                                   {"mcount", 300, 0, NULL}};
    struct mp_model a, b;
    struct mp_diff d;

    (void)s;
    make_model(&a, "a", ARM, fa, 4, 1000, NULL, 0);
    make_model(&b, "b", ARM, fb, 4, 1000, NULL, 0);
    assert_int_equal(mp_diff_compute(&d, &a, &b, 0.05), 0);
    assert_int_equal(d.ntested, 2);
    assert_float_equal(d.alpha_each, 0.025, 1e-15);
    assert_null(find(&d, "mcount"));
    /* 0.0237 < 0.05 / 2: significant with m = 2, it would not be with m = 3 */
    assert_float_equal(find(&d, "x")->share_p, 0.0237186, 1e-6);
    assert_true(find(&d, "x")->share_sig);
    assert_true(find(&d, "y")->share_sig);
    assert_false(find(&d, "idle")->tested);
    mp_diff_free(&d);
    /* 0.04 / 2 = 0.02 < 0.0237 */
    assert_int_equal(mp_diff_compute(&d, &a, &b, 0.04), 0);
    assert_false(find(&d, "x")->share_sig);
    mp_diff_free(&d);
    mp_model_free(&a);
    mp_model_free(&b);
}

/* Static functions of one name: by their file when every one has a file
 * distinct within its side, else by rank in address order. */
static void static_names(void **s)
{
    static const struct fn by_file[] = {{"step", 1, 1, "x.c"}, {"step", 2, 2, "y.c"}, {"main", 3, 0, "m.c"}};
    static const struct fn by_file_b[] = {{"step", 1, 1, "y.c"}, {"step", 2, 5, "x.c"}, {"main", 3, 0, "m.c"}};
    static const struct fn no_file[] = {{"step", 1, 1, NULL}, {"step", 2, 2, "y.c"}, {"main", 3, 0, NULL}};
    struct mp_model a, b;
    struct mp_diff d;

    (void)s;
    make_model(&a, "a", ARM, by_file, 3, 100, NULL, 0);
    make_model(&b, "b", ARM, by_file_b, 3, 100, NULL, 0);
    assert_int_equal(mp_diff_compute(&d, &a, &b, 0.001), 0);
    assert_int_equal(d.by_file, 1);
    assert_int_equal(d.by_position, 0);
    /* B's y.c copy comes first by address: still matched with A's y.c */
    assert_int_equal(find(&d, "step (x.c)")->calls_a, 1);
    assert_int_equal(find(&d, "step (x.c)")->calls_b, 5);
    assert_int_equal(find(&d, "step (y.c)")->calls_b, 1);
    assert_non_null(find(&d, "main"));
    mp_diff_free(&d);
    mp_model_free(&b);

    make_model(&b, "b", ARM, no_file, 3, 100, NULL, 0);
    assert_int_equal(mp_diff_compute(&d, &a, &b, 0.001), 0);
    assert_int_equal(d.by_position, 1);
    assert_int_equal(find(&d, "step#1")->calls_a, 1);
    assert_int_equal(find(&d, "step#2")->calls_b, 2);
    assert_null(find(&d, "step (x.c)"));
    mp_diff_free(&d);
    mp_model_free(&a);
    mp_model_free(&b);
}

static void refuses_two_machines(void **s)
{
    static const struct fn f[] = {{"main", 1, 0, NULL}};
    struct mp_model a, b;
    struct mp_diff d;

    (void)s;
    make_model(&a, "arm.img", ARM, f, 1, 10, NULL, 0);
    make_model(&b, "rv.img", RISCV, f, 1, 10, NULL, 0);
    mp_diag_reset();
    assert_int_equal(mp_diff_compute(&d, &a, &b, 0.001), -1);
    assert_int_equal(mp_error_count(), 1);
    assert_non_null(strstr(mp_last_error(), "machine 243 (RISC-V) differs from arm.img's machine 40 (ARM)"));
    /* a gmon.out without its ELF has machine 0: not a difference */
    b.machine = 0;
    assert_int_equal(mp_diff_compute(&d, &a, &b, 0.001), 0);
    mp_diff_free(&d);
    /* nor are address widths */
    b.machine = ARM;
    b.ptr_size = 8;
    assert_int_equal(mp_diff_compute(&d, &a, &b, 0.001), -1);
    assert_non_null(strstr(mp_last_error(), "8-byte addresses differ"));
    mp_model_free(&a);
    mp_model_free(&b);
}

/* ---- gmon.out back into the model -------------------------------------- */

/* Write image D as a gmon.out in FORMAT into `gmon`; *M is the image's
 * model (the caller frees it). */
static void write_gmon(const struct tb_image *d, enum mp_gmon_format format, struct mp_model *m)
{
    struct mp_image img;
    struct mp_profile p;
    size_t n = tb_build(d, img_buf, sizeof(img_buf));
    long len;

    assert_true(n > 0);
    assert_int_equal(mp_image_parse(&img, "fw.img", img_buf, n), 0);
    assert_int_equal(mp_model_from_image(m, &img), 0);
    assert_int_equal(mp_profile_prepare(&p, m), 0);
    len = gmon_capture(&p, format, gmon, sizeof(gmon));
    assert_true(len > 0);
    gmon_len = (size_t)len;
    mp_profile_free(&p);
}

static int cmp_arc(const void *pa, const void *pb)
{
    const struct mp_model_arc *a = pa, *b = pb;

    if (a->callsite != b->callsite)
        return a->callsite < b->callsite ? -1 : 1;
    return a->callee < b->callee ? -1 : a->callee > b->callee;
}

/* The gmon.out's model holds the image model's bins and arcs exactly. */
static void expect_same(struct mp_model *want, struct mp_model *got)
{
    size_t r, i;

    assert_int_equal(got->source, MP_MODEL_GMON);
    assert_int_equal(got->machine, 0);
    assert_int_equal(got->ptr_size, want->ptr_size);
    assert_int_equal(got->big, want->big);
    assert_int_equal(got->sample_rate_hz, want->sample_rate_hz);
    assert_int_equal(got->bin_shift, want->bin_shift);
    assert_int_equal(got->nranges, want->nranges);
    assert_int_equal(got->c.binned, want->c.binned);
    assert_int_equal(got->c.total_calls, want->c.total_calls);
    assert_int_equal(got->c.outside_calls, want->c.outside_calls);
    for (r = 0; r < want->nranges; r++) {
        /* the image lists its ranges by address, as the reader does */
        assert_int_equal(got->ranges[r].low, want->ranges[r].low);
        assert_int_equal(got->ranges[r].high, want->ranges[r].high);
        assert_int_equal(got->ranges[r].nbins, want->ranges[r].nbins);
        assert_int_equal(got->ranges[r].samples, want->ranges[r].samples);
        assert_int_equal(got->ranges[r].max_bin, want->ranges[r].max_bin);
        assert_memory_equal(got->ranges[r].bins, want->ranges[r].bins, want->ranges[r].nbins * sizeof(uint64_t));
    }
    assert_int_equal(got->narcs, want->narcs);
    qsort(want->arcs, want->narcs, sizeof(*want->arcs), cmp_arc);
    for (i = 0; i < want->narcs; i++) {
        assert_int_equal(got->arcs[i].callsite, want->arcs[i].callsite);
        assert_int_equal(got->arcs[i].callee, want->arcs[i].callee);
        assert_int_equal(got->arcs[i].count, want->arcs[i].count);
        assert_int_equal(got->arcs[i].saturated, want->arcs[i].saturated);
        assert_int_equal(got->arcs[i].caller, -1);
    }
}

/* ARM, two ranges with 32-bit counters and bins above 65535 (which travel
 * as repeated GNU records), an interrupt's arc and a saturated one. */
static const uint32_t flash_bins[8] = {1, 70000, 0, 3, 0x20000, 5, 0, 65535};
static const uint32_t ram_bins[4] = {9, 0, 0, 131071};
static const struct tb_arc two_range_arcs[] = {
    {0x1011, 0x1021, 5}, {0xFFFFFFF9, 0x1041, 7}, {0x1031, 0x20000001, UINT32_MAX}, {0x1035, 0x1021, 1}};

static struct tb_image two_ranges(void)
{
    struct tb_image d;

    tb_arm(&d);
    d.rate = 10000;
    d.bin_shift = 4;
    d.counter_bytes = 4;
    d.nranges = 2;
    d.ranges[0] = (struct tb_range){0x1000, 8, flash_bins};
    d.ranges[1] = (struct tb_range){0x20000000, 4, ram_bins};
    d.narcs = 4;
    d.arcs = two_range_arcs;
    return d;
}

static void round_trip_gnu(void **s)
{
    struct tb_image d = two_ranges();
    struct mp_model want, got;

    (void)s;
    write_gmon(&d, MP_GMON_GNU, &want);
    assert_int_equal(mp_model_from_gmon(&got, "gmon.out", gmon, gmon_len), 0);
    expect_same(&want, &got);
    assert_int_equal(got.ranges[0].bins[1], 70000);
    assert_int_equal(got.ranges[1].bins[3], 131071);
    assert_int_equal(got.c.saturated_arcs, 1);
    mp_model_free(&got);
    mp_model_free(&want);
}

/* BSD: one range; 16-bit bins, so the image keeps its bins below 65536. */
static void round_trip_bsd(void **s)
{
    struct tb_image d;
    struct mp_model want, got;

    (void)s;
    tb_small(&d, 0, 0);
    write_gmon(&d, MP_GMON_BSD, &want);
    assert_int_equal(mp_model_from_gmon(&got, "gmon.out", gmon, gmon_len), 0);
    expect_same(&want, &got);
    assert_int_equal(got.counter_bytes, 2);
    assert_int_equal(got.c.saturated_bins, 0);
    mp_model_free(&got);
    mp_model_free(&want);
}

/* Big-endian RV64 (8-byte addresses) in both formats. */
static void round_trip_rv64_be(void **s)
{
    static const uint32_t bins[4] = {7, 0, 300, 2};
    static const struct tb_arc arcs[] = {{0x80000010, 0x80000040, 12}, {0, 0x80000020, 3}};
    struct tb_image d;
    struct mp_model want, got;
    int format;

    (void)s;
    memset(&d, 0, sizeof(d));
    d.big = 1;
    d.ptr_size = 8;
    d.machine = RISCV;
    d.rate = 1000;
    d.bin_shift = 3;
    d.counter_bytes = 2;
    d.nranges = 1;
    d.ranges[0] = (struct tb_range){0x80000000, 4, bins};
    d.narcs = 2;
    d.arcs = arcs;
    for (format = MP_GMON_GNU; format <= MP_GMON_BSD; format++) {
        write_gmon(&d, (enum mp_gmon_format)format, &want);
        assert_int_equal(mp_model_from_gmon(&got, "gmon.out", gmon, gmon_len), 0);
        expect_same(&want, &got);
        mp_model_free(&got);
        mp_model_free(&want);
    }
}

/* A hand-made little-endian GNU gmon.out, 4-byte addresses. */
struct gb {
    uint8_t b[512];
    size_t n;
};

static void gb_u32(struct gb *g, uint32_t v)
{
    tb_put32(g->b, g->n, v, 0);
    g->n += 4;
}

static void gb_header(struct gb *g)
{
    memset(g, 0, sizeof(*g));
    memcpy(g->b, "gmon", 4);
    g->b[4] = 1;
    g->n = 20;
}

static void gb_hist(struct gb *g, uint32_t low, uint32_t high, uint32_t rate, const uint16_t *bins, uint32_t n)
{
    uint32_t i;

    g->b[g->n++] = 0;
    gb_u32(g, low);
    gb_u32(g, high);
    gb_u32(g, n);
    gb_u32(g, rate);
    memcpy(g->b + g->n, "seconds", 7);
    g->n += 15;
    g->b[g->n++] = 's';
    for (i = 0; i < n; i++) {
        tb_put16(g->b, g->n, bins[i], 0);
        g->n += 2;
    }
}

static void gb_arc(struct gb *g, uint32_t from, uint32_t self, uint32_t count)
{
    g->b[g->n++] = 1;
    gb_u32(g, from);
    gb_u32(g, self);
    gb_u32(g, count);
}

/* Repeated records of one range add up bin by bin, of one arc into one
 * 64-bit count, as gprof adds them; a second range stays its own. */
static void adds_repeated_records(void **s)
{
    static const uint16_t one[2] = {1, 65535}, two[2] = {2, 65535}, other[1] = {4};
    struct mp_model m;
    struct gb g;

    (void)s;
    gb_header(&g);
    gb_hist(&g, 0x2000, 0x2004, 100, other, 1);
    gb_hist(&g, 0x1000, 0x1008, 100, one, 2);
    gb_arc(&g, 0x1006, 0x2000, UINT32_MAX);
    gb_arc(&g, 0x1002, 0x2000, 1);
    gb_hist(&g, 0x1000, 0x1008, 100, two, 2);
    gb_arc(&g, 0x1006, 0x2000, UINT32_MAX);
    gb_arc(&g, 0x1006, 0x2000, 3);
    assert_int_equal(mp_model_from_gmon(&m, "g.out", g.b, g.n), 0);
    assert_int_equal(m.nranges, 2);
    assert_int_equal(m.ranges[0].low, 0x1000);
    assert_int_equal(m.ranges[0].bins[0], 3);
    assert_int_equal(m.ranges[0].bins[1], 131070);
    assert_int_equal(m.ranges[1].bins[0], 4);
    assert_int_equal(m.c.binned, 3 + 131070 + 4);
    assert_int_equal(m.bin_shift, 2);
    assert_int_equal(m.sample_rate_hz, 100);
    assert_int_equal(m.narcs, 2);
    assert_int_equal(m.arcs[1].callsite, 0x1006);
    assert_int_equal(m.arcs[1].count, 2 * (uint64_t)UINT32_MAX + 3);
    assert_false(m.arcs[1].saturated);
    assert_int_equal(m.c.total_calls, 2 * (uint64_t)UINT32_MAX + 4);
    mp_model_free(&m);
}

static void expect_refused(const struct gb *g, const char *what)
{
    struct mp_model m;

    mp_diag_reset();
    assert_int_equal(mp_model_from_gmon(&m, "bad.out", g->b, g->n), -1);
    assert_int_equal(mp_error_count(), 1);
    if (!strstr(mp_last_error(), what))
        fail_msg("error '%s' does not say '%s'", mp_last_error(), what);
    assert_null(m.arena);
}

static void refuses_inconsistent_records(void **s)
{
    static const uint16_t bins[4] = {1, 2, 3, 4};
    struct gb g;

    (void)s;
    /* the same range cut into 2 and 4 bins */
    gb_header(&g);
    gb_hist(&g, 0x1000, 0x1008, 100, bins, 2);
    gb_hist(&g, 0x1000, 0x1008, 100, bins, 4);
    expect_refused(&g, "have 2 and 4 bins");
    /* ranges that overlap */
    gb_header(&g);
    gb_hist(&g, 0x1000, 0x1010, 100, bins, 4);
    gb_hist(&g, 0x100c, 0x1014, 100, bins, 2);
    expect_refused(&g, "0x1000..0x1010 (4 bins) and 0x100c..0x1014 (2 bins) overlap");
    /* a range inside another */
    gb_header(&g);
    gb_hist(&g, 0x1000, 0x1010, 100, bins, 4);
    gb_hist(&g, 0x1000, 0x1004, 100, bins, 1);
    expect_refused(&g, "overlap");
    /* two rates */
    gb_header(&g);
    gb_hist(&g, 0x1000, 0x1008, 100, bins, 2);
    gb_hist(&g, 0x2000, 0x2008, 1000, bins, 2);
    expect_refused(&g, "rate 1000 Hz differs from the first record's 100 Hz");
    /* an empty range */
    gb_header(&g);
    gb_hist(&g, 0x1000, 0x1000, 100, bins, 2);
    expect_refused(&g, "is empty");
}

/* Every cut of a valid file: refused with one error, or (cut exactly
 * between records, which gmon.out cannot tell) a shorter profile. Never
 * a crash, never a profile that claims more than the whole. */
static void truncated(void **s)
{
    static const uint16_t bins[3] = {5, 6, 7};
    struct mp_model m;
    struct gb g;
    size_t n, ok = 0;

    (void)s;
    gb_header(&g);
    gb_hist(&g, 0x1000, 0x1006, 100, bins, 3);
    gb_arc(&g, 0x1002, 0x1000, 9);
    gb_arc(&g, 0x1004, 0x1000, 1);
    for (n = 0; n < g.n; n++) {
        mp_diag_reset();
        if (mp_model_from_gmon(&m, "cut.out", g.b, n) == 0) {
            ok++;
            assert_true(m.c.total_calls <= 10);
            mp_model_free(&m);
        } else {
            assert_int_equal(mp_error_count(), 1);
        }
    }
    /* after the histogram record and after the first arc record */
    assert_int_equal(ok, 2);
    mp_diag_reset();
    assert_int_equal(mp_model_from_gmon(&m, "cut.out", g.b, g.n - 1), -1);
    assert_non_null(strstr(mp_last_error(), "truncated or corrupt"));
}

/* ---- with ELF files ---------------------------------------------------- */

static const char *elf(const char *name, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s/%s", elf_dir ? elf_dir : ".", name);
    if (!elf_dir || access(buf, R_OK) != 0)
        return NULL;
    return buf;
}

/* An ARM image named with a RISC-V ELF: refused. A gmon.out (machine
 * unknown) named with its own ELF: the ELF's machine and functions; with
 * an ELF of another address width: refused. */
static void elf_of_another_machine(void **s)
{
    static const struct tb_arc far_arcs[] = {{0x90000011, 0x90000021, 4}};
    char arm[512], rv[512];
    struct tb_image d;
    struct mp_model m;
    enum mp_input_kind kind;
    FILE *f;

    (void)s;
    if (!elf("arm_le.elf", arm, sizeof(arm)) || !elf("rv64.elf", rv, sizeof(rv)))
        skip();
    tb_small(&d, 0, 0);
    write_gmon(&d, MP_GMON_GNU, &m);
    mp_diag_reset();
    assert_int_equal(mp_model_attach_elf(&m, rv), -1);
    assert_non_null(strstr(mp_last_error(), "differs from the image's machine 40"));
    mp_model_free(&m);

    f = fopen("test_diff.gmon", "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(gmon, 1, gmon_len, f), gmon_len);
    fclose(f);
    assert_int_equal(mp_model_load(&m, "test_diff.gmon", arm, &kind), 0);
    assert_int_equal(kind, MP_INPUT_GMON);
    assert_int_equal(m.machine, ARM);
    assert_true(m.nfuncs > 0);
    assert_true(mp_model_find_func(&m, 0x1000) >= 0);
    mp_model_free(&m);
    mp_diag_reset();
    assert_int_equal(mp_model_load(&m, "test_diff.gmon", rv, &kind), -1);
    assert_int_equal(mp_error_count(), 1);
    assert_non_null(strstr(mp_last_error(), "64-bit, little-endian, but test_diff.gmon reads as 32-bit"));

    /* the same width and byte order, but nothing of it in the ELF's code
     * (another machine's profile): refused */
    d.ranges[0].low = 0x90000000;
    d.narcs = 1;
    d.arcs = far_arcs;
    write_gmon(&d, MP_GMON_GNU, &m);
    mp_model_free(&m);
    f = fopen("test_diff.gmon", "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(gmon, 1, gmon_len, f), gmon_len);
    fclose(f);
    mp_diag_reset();
    assert_int_equal(mp_model_load(&m, "test_diff.gmon", arm, &kind), -1);
    assert_int_equal(mp_error_count(), 1);
    assert_non_null(strstr(mp_last_error(), "none of test_diff.gmon's 1 arcs calls into its functions"));
    remove("test_diff.gmon");
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ztest_by_hand),
        cmocka_unit_test(rate_test_by_hand),
        cmocka_unit_test(tests_without_data),
        cmocka_unit_test(only_in_one_side),
        cmocka_unit_test(bonferroni),
        cmocka_unit_test(static_names),
        cmocka_unit_test(refuses_two_machines),
        cmocka_unit_test(round_trip_gnu),
        cmocka_unit_test(round_trip_bsd),
        cmocka_unit_test(round_trip_rv64_be),
        cmocka_unit_test(adds_repeated_records),
        cmocka_unit_test(refuses_inconsistent_records),
        cmocka_unit_test(truncated),
        cmocka_unit_test(elf_of_another_machine),
    };

    elf_dir = argc > 1 ? argv[1] : NULL;
    return cmocka_run_group_tests(tests, quiet, NULL);
}

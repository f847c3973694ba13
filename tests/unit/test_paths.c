/*
 * Call paths on the host: the path table of an image parsed and refused
 * (image_ext.c), copied into the model (model_image.c), folded stacks
 * byte for byte (format_folded.c), inclusive time measured from paths
 * beside gprof's estimate (path_incl.c, callgraph.c), paths through a
 * drain and the sum of drained snapshots (drain_ext.c, profile_sum.c),
 * and info's block of the heaviest paths (path_print.c).
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
#include "drain_ext.h"
#include "formats.h"
#include "image_builder.h"
#include "image_read.h"
#include "mem_link.h"
#include "model.h"
#include "model_fixture.h"
#include "path_incl.h"
#include "path_print.h"
#include "profile_sum.h"
#include "target_link.h"
#include "trust.h"

static uint8_t buf[3][8192];

static int setup(void **state)
{
    (void)state;
    mp_diag_quiet(1);
    mp_diag_reset();
    return 0;
}

/* cmocka before 1.1.6 has no assert_double_equal. */
static void near(double got, double want, const char *expr, int line)
{
    if (!(fabs(got - want) <= 1e-9))
        fail_msg("line %d: %s is %.12g, expected %.12g", line, expr, got, want);
}
#define assert_near(got, want) near((got), (want), #got, __LINE__)

/* Functions of the test firmware, 0x100 bytes apart from 0x1000; a path
 * frame is the address just after a function's hook call (Thumb bit set
 * on ARM), as the runtime records it. */
#define FN(i) (0x1000u + 0x100u * (i))
#define SELF(i) (FN(i) + 0x9u)
enum { F_MAIN, F_A, F_B, F_WORK, F_F, F_G, NFUNCS };
static const char *const names[NFUNCS] = {"main", "a", "b", "work", "f", "g"};

/* The summed samples of the path of FRAMES (DEPTH), FLAGS, in no task
 * and no context (an older runtime's table). */
static uint64_t sum_path(const struct mp_sum *s, const uint64_t *frames, unsigned depth, unsigned flags)
{
    const struct mp_sum_path key = {(uint64_t *)(uintptr_t)frames, depth, flags, MCUPROF_PATH_NO_TASK,
                                    MCUPROF_PATH_NO_CONTEXT, 0};

    return mp_sum_path_samples(s, &key);
}

/* A little-endian Cortex-M image (tb_small) with a path table of up to
 * 4 frames per path. */
static void describe(struct tb_image *d, const struct tb_path *paths, unsigned n)
{
    tb_small(d, 0x20000000, 0);
    d->path_depth_max = 4;
    d->paths = paths;
    d->npaths = n;
}

static size_t build(int idx, const struct tb_image *d)
{
    size_t len = tb_build(d, buf[idx], sizeof(buf[idx]));

    assert_true(len > 0);
    return len;
}

/* Parse an image that must be refused, with each piece in the error. */
static void refused(const struct tb_image *d, const char *piece1, const char *piece2)
{
    struct mp_image img;
    size_t len = build(0, d);

    assert_int_equal(mp_image_parse(&img, "p.img", buf[0], len), -1);
    assert_non_null(strstr(mp_last_error(), piece1));
    if (piece2)
        assert_non_null(strstr(mp_last_error(), piece2));
}

static const struct tb_path three[] = {
    {30, 3, 0, {SELF(F_MAIN), SELF(F_A), SELF(F_WORK)}},
    {0, 2, 0, {SELF(F_MAIN), SELF(F_B)}}, /* drained: kept, no samples */
    {7, 2, 1, {SELF(F_A), SELF(F_WORK)}}, /* truncated */
};

/* The image of the three paths, 2 more lost and 7 samples truncated,
 * parsed into IMG. */
static void parse_three(struct mp_image *img)
{
    struct tb_image d;

    describe(&d, three, 3);
    d.paths_lost = 2;
    d.paths_invalid = 7;
    assert_int_equal(mp_image_parse(img, "p.img", buf[0], build(0, &d)), 0);
}

static void test_parse(void **state)
{
    struct mp_image img;
    uint32_t samples;
    unsigned depth, flags;

    (void)state;
    parse_three(&img);
    assert_true(img.paths >= 0);
    assert_int_equal(img.path_depth_max, 4);
    assert_int_equal(img.ext[img.paths].used, 3);
    assert_int_equal(img.ext[img.paths].lost, 2);
    assert_int_equal(img.ext[img.paths].invalid, 7);
    mp_image_path(&img, 2, &samples, &depth, &flags);
    assert_int_equal(samples, 7);
    assert_int_equal(depth, 2);
    assert_int_equal(flags, 1);
    assert_int_equal(mp_image_path_frame(&img, 0, 2), SELF(F_WORK));
    assert_int_equal(mp_image_path_frame(&img, 2, 0), SELF(F_A));
}

/* entry_size is 8 + depth_max * ptr_size, depth_max at least 1. */
static void test_bad_entry_size(void **state)
{
    struct tb_image d;

    (void)state;
    describe(&d, three, 3);
    d.path_entry_size = 8; /* depth_max 0 */
    refused(&d, "entry_size 8 ", "depth_max >= 1");
    d.path_entry_size = 18; /* not a whole number of 4-byte frames */
    refused(&d, "entry_size 18 ", "ptr_size");
}

static void test_depth_above_max(void **state)
{
    static const struct tb_path deep[] = {{1, 5, 0, {1, 2, 3, 4, 5}}};
    struct tb_image d;

    (void)state;
    describe(&d, deep, 1);
    refused(&d, "entry 0 has depth 5 above depth_max 4", NULL);
}

static void test_unknown_flags(void **state)
{
    static const struct tb_path odd[] = {{1, 1, 8, {SELF(F_MAIN)}}};
    struct tb_image d;

    (void)state;
    describe(&d, odd, 1);
    refused(&d, "flags 0x8", "newer runtime");
}

/* A path deeper than the shadow stack has one 0 frame, the gap, and the
 * flag GAP: read, and refused when the two disagree. An older runtime's
 * TRUNCATED path (parse_three) is read as before. */
static void test_gap(void **state)
{
    static const struct tb_path gap[] = {{5, 4, MCUPROF_PATH_GAP, {SELF(F_MAIN), SELF(F_A), 0, SELF(F_WORK)}}};
    static const struct tb_path unflagged[] = {{5, 3, 0, {SELF(F_MAIN), 0, SELF(F_WORK)}}};
    static const struct tb_path no_gap[] = {{5, 2, MCUPROF_PATH_GAP, {SELF(F_MAIN), SELF(F_WORK)}}};
    static const struct tb_path two[] = {{5, 4, MCUPROF_PATH_GAP, {SELF(F_MAIN), 0, 0, SELF(F_WORK)}}};
    struct tb_image d;
    struct mp_image img;
    struct mp_model pm;

    (void)state;
    describe(&d, gap, 1);
    d.paths_invalid = 5;
    assert_int_equal(mp_image_parse(&img, "p.img", buf[0], build(0, &d)), 0);
    assert_int_equal(mp_model_from_image(&pm, &img), 0);
    assert_int_equal(pm.paths[0].flags, MCUPROF_PATH_GAP);
    assert_int_equal(pm.paths[0].frames[2], 0);
    assert_true(mp_model_path_gap(&pm.paths[0], 2));
    assert_false(mp_model_path_gap(&pm.paths[0], 1));
    assert_int_equal(mp_model_path_func(&pm, &pm.paths[0], 2), -1);
    mp_model_free(&pm);
    describe(&d, unflagged, 1);
    refused(&d, "entry 0 has 1 frames 0 with flags 0x0", "flagged GAP");
    describe(&d, no_gap, 1);
    refused(&d, "entry 0 has 0 frames 0 with flags 0x4", NULL);
    describe(&d, two, 1);
    refused(&d, "entry 0 has 2 frames 0 with flags 0x4", NULL);
}

/* More samples in paths (with those lost) than the sampler took: not an
 * image the runtime wrote. A saturated samples_taken bounds nothing. */
static void test_counts_above_samples_taken(void **state)
{
    struct tb_image d;
    struct mp_image img;
    size_t len;

    (void)state;
    describe(&d, three, 3);
    d.ranges[0].bins = NULL; /* no bins: only the paths count */
    d.samples_exact = 1;
    d.samples_taken = 38;
    d.paths_lost = 2; /* 30 + 7 + 2 = 39 */
    refused(&d, "path table counts 39 samples", "samples_taken is 38");
    d.samples_taken = 39;
    len = build(0, &d);
    assert_int_equal(mp_image_parse(&img, "p.img", buf[0], len), 0);
    d.paths_invalid = 40;
    refused(&d, "invalid (truncated) 40", "samples_taken 39");
    d.samples_taken = UINT32_MAX;
    d.paths_lost = 1000;
    len = build(0, &d);
    assert_int_equal(mp_image_parse(&img, "p.img", buf[0], len), 0);
}

/* The model: frames with the Thumb bit cleared, the drained path left
 * out, the counters kept. */
static void test_model(void **state)
{
    struct tb_image d;
    struct mp_image img;
    struct mp_model m;
    size_t len;

    (void)state;
    parse_three(&img);
    assert_int_equal(mp_model_from_image(&m, &img), 0);
    assert_true(m.has_paths);
    assert_int_equal(m.npaths, 2);
    assert_int_equal(m.paths_lost, 2);
    assert_int_equal(m.paths_truncated, 7);
    assert_int_equal(m.paths[0].samples, 30);
    assert_int_equal(m.paths[0].depth, 3);
    assert_int_equal(m.paths[0].frames[0], SELF(F_MAIN) - 1);
    assert_int_equal(m.paths[0].frames[2], SELF(F_WORK) - 1);
    assert_int_equal(m.paths[1].flags, MCUPROF_PATH_TRUNCATED);
    assert_int_equal(m.paths[1].frames[1], SELF(F_WORK) - 1);
    /* an older runtime's table (kind 3): no task, no context */
    assert_int_equal(m.paths[0].task, -1);
    assert_int_equal(m.paths[0].context, MCUPROF_PATH_NO_CONTEXT);
    mp_model_free(&m);

    /* without a path table */
    describe(&d, NULL, 0);
    d.path_depth_max = 0;
    len = build(0, &d);
    assert_int_equal(mp_image_parse(&img, "p.img", buf[0], len), 0);
    assert_int_equal(img.paths, -1);
    assert_int_equal(mp_model_from_image(&m, &img), 0);
    assert_false(m.has_paths);
    mp_model_free(&m);
}

/* The path table's losses are trust warnings above --warn, each against
 * the samples the table counted (30 + 7 in paths, 2 lost: 39). */
static void test_warnings(void **state)
{
    struct mp_trust_opts o = MP_TRUST_DEFAULTS;
    struct tb_image d;
    struct mp_image img;
    struct mp_model pm;
    size_t len;

    (void)state;
    describe(&d, three, 3);
    d.paths_lost = 2;    /* 5.13 % */
    d.paths_invalid = 7; /* 17.95 % */
    len = build(0, &d);
    assert_int_equal(mp_image_parse(&img, "p.img", buf[0], len), 0);
    assert_int_equal(mp_model_from_image(&pm, &img), 0);
    o.min_samples = 0;
    mp_diag_reset();
    mp_trust_warn(&pm, &o);
    assert_int_equal(mp_warning_count(), 2);
    assert_non_null(strstr(mp_last_warning(), "7 samples (17.95 % of 39) had call paths deeper than the shadow"));
    o.warn_pct = 10;
    mp_diag_reset();
    mp_trust_warn(&pm, &o);
    assert_int_equal(mp_warning_count(), 1);
    mp_model_free(&pm);
    o.warn_pct = 5;
    d.paths_invalid = 0;
    len = build(0, &d);
    assert_int_equal(mp_image_parse(&img, "p.img", buf[0], len), 0);
    assert_int_equal(mp_model_from_image(&pm, &img), 0);
    mp_diag_reset();
    mp_trust_warn(&pm, &o);
    assert_int_equal(mp_warning_count(), 1);
    assert_non_null(strstr(mp_last_warning(), "path table was full for 2 samples (5.13 % of 39)"));
    mp_model_free(&pm);
}

/* ---- hand-made models ---- */

static struct mp_model m;

/* The functions of names[], and room for NPATHS paths. */
static void model(size_t npaths)
{
    size_t i;

    model_fixture_arm(&m);
    m.has_paths = 1;
    assert_non_null(m.funcs = mp_model_alloc(&m, NFUNCS * sizeof(*m.funcs)));
    assert_non_null(m.arcs = mp_model_alloc(&m, 16 * sizeof(*m.arcs)));
    assert_non_null(m.paths = mp_model_alloc(&m, (npaths ? npaths : 1) * sizeof(*m.paths)));
    for (i = 0; i < NFUNCS; i++) {
        m.funcs[i].name = names[i];
        m.funcs[i].addr = FN(i);
        m.funcs[i].end = FN(i) + 0x100;
        m.funcs[i].size = 0x100;
    }
    m.nfuncs = NFUNCS;
}

/* A path of DEPTH frames given as function indexes (or, at or above
 * 0x100, as addresses in no function; GAP: the gap, 0). */
#define GAP 0xffu
static void path(uint64_t samples, unsigned flags, unsigned depth, ...)
{
    struct mp_model_path *p = &m.paths[m.npaths++];
    uint64_t *frames = mp_model_alloc(&m, (depth ? depth : 1) * sizeof(*frames));
    va_list ap;
    unsigned k;

    assert_non_null(frames);
    va_start(ap, depth);
    for (k = 0; k < depth; k++) {
        unsigned v = va_arg(ap, unsigned);

        frames[k] = v == GAP ? 0 : v < 0x100 ? SELF(v) - 1 : v;
    }
    va_end(ap);
    p->frames = frames;
    p->depth = depth;
    p->flags = flags;
    p->task = -1; /* not recorded, as from a runtime without tasks */
    p->context = MCUPROF_PATH_NO_CONTEXT;
    p->samples = samples;
}

static void arc(long caller, long callee, uint64_t count)
{
    struct mp_model_arc *a = &m.arcs[m.narcs++];

    a->callsite = FN(caller) + 0x20;
    a->callee = FN(callee);
    a->caller = caller;
    a->callee_fn = callee;
    a->count = count;
    m.funcs[callee].calls += count;
}

static char *folded(const struct mp_model *mm)
{
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);

    assert_non_null(f);
    assert_int_equal(mp_format_check(&mp_format_folded, mm), 0);
    assert_int_equal(mp_format_folded.write(mm, f), 0);
    assert_int_equal(fclose(f), 0);
    return out;
}

static int teardown(void **state)
{
    (void)state;
    mp_model_free(&m);
    return 0;
}

/* Outermost first, pseudo-frames before the frames they qualify, lines
 * sorted by their bytes, equal stacks merged, names made safe. */
static void test_folded(void **state)
{
    char *out;

    (void)state;
    model(10);
    path(30, 0, 3, F_MAIN, F_A, F_WORK);
    path(7, MCUPROF_PATH_TRUNCATED, 2, F_A, F_WORK);
    path(5, MCUPROF_PATH_CUT, 1, F_G);
    path(4, MCUPROF_PATH_CUT | MCUPROF_PATH_TRUNCATED, 1, F_F);
    path(3, 0, 0);
    path(2, 0, 2, F_MAIN, 0x9000);
    path(1, 0, 2, F_MAIN, F_B);
    path(6, 0, 2, F_MAIN, F_B); /* alike: one line of 7 */
    path(8, MCUPROF_PATH_GAP, 4, F_MAIN, F_A, GAP, F_WORK);
    path(9, MCUPROF_PATH_GAP, 3, F_MAIN, F_A, GAP); /* in a frame the gap stands for */
    m.funcs[F_B].name = "b;x\n";
    out = folded(&m);
    assert_string_equal(out, "[cut at task switch];g 5\n"
                             "[no profiled function] 3\n"
                             "[truncated];[cut at task switch];f 4\n"
                             "[truncated];a;work 7\n"
                             "main;0x9000 2\n"
                             "main;a;[...] 9\n"
                             "main;a;[...];work 8\n"
                             "main;a;work 30\n"
                             "main;b?x\\x0a 7\n"); /* text_safe.h, and ';' as '?' */
    free(out);
    teardown(NULL);

    /* without the ELF: addresses */
    model(1);
    m.nfuncs = 0;
    path(9, 0, 2, F_MAIN, F_A);
    out = folded(&m);
    assert_string_equal(out, "0x1008;0x1108 9\n");
    free(out);
}

static void test_folded_refused(void **state)
{
    (void)state;
    model(0);
    m.has_paths = 0;
    assert_int_equal(mp_format_check(&mp_format_folded, &m), -1);
    assert_non_null(strstr(mp_last_error(), "built without PATHS"));
    assert_non_null(mp_format_find("folded"));
}

/* work is called 100 times from a, where each call costs 1 sample, and
 * 100 times from b, where each costs 9. gprof shares work's 1000 samples
 * by calls, 500 and 500; the paths measure 100 and 900. */
static void test_two_callers(void **state)
{
    struct mp_callgraph g;
    struct mp_path_incl pi;

    (void)state;
    model(2);
    m.funcs[F_WORK].self = 1000;
    arc(F_MAIN, F_A, 1);
    arc(F_MAIN, F_B, 1);
    arc(F_A, F_WORK, 100); /* arc 2 */
    arc(F_B, F_WORK, 100); /* arc 3 */
    path(100, 0, 3, F_MAIN, F_A, F_WORK);
    path(900, 0, 3, F_MAIN, F_B, F_WORK);

    memset(&g, 0, sizeof(g));
    assert_int_equal(mp_callgraph_compute(&g, &m), 0);
    assert_near(g.arc_time[2], 500);
    assert_near(g.arc_time[3], 500);
    assert_near(g.inclusive[F_A], 500);
    assert_near(g.inclusive[F_B], 500);
    mp_callgraph_free(&g);

    assert_int_equal(mp_path_incl_compute(&pi, &m), 0);
    assert_int_equal(mp_path_incl_edge(&pi, F_A, F_WORK), 100);
    assert_int_equal(mp_path_incl_edge(&pi, F_B, F_WORK), 900);
    assert_int_equal(pi.incl[F_A], 100);
    assert_int_equal(pi.incl[F_B], 900);
    assert_int_equal(pi.incl[F_WORK], 1000);
    assert_int_equal(pi.incl[F_MAIN], 1000);
    assert_int_equal(pi.incl[F_F], 0);
    assert_int_equal(mp_path_incl_edge(&pi, F_WORK, F_A), 0);
    assert_int_equal(pi.recorded, 1000);
    assert_int_equal(pi.total, 1000);
    mp_path_incl_free(&pi);
}

/* Recursion repeats a function (and an edge) within one path: the path's
 * samples count once for it. */
static void test_recursion_once(void **state)
{
    struct mp_path_incl pi;

    (void)state;
    model(3);
    m.paths_lost = 5;
    path(10, 0, 5, F_MAIN, F_F, F_F, F_F, F_G);
    path(4, 0, 5, F_MAIN, F_F, F_G, F_F, F_G);
    path(1, 0, 3, F_MAIN, 0x9000, F_G); /* a frame in no function */
    assert_int_equal(mp_path_incl_compute(&pi, &m), 0);
    assert_int_equal(pi.incl[F_MAIN], 15);
    assert_int_equal(pi.incl[F_F], 14);
    assert_int_equal(pi.incl[F_G], 15);
    assert_int_equal(mp_path_incl_edge(&pi, F_F, F_F), 10);
    assert_int_equal(mp_path_incl_edge(&pi, F_F, F_G), 14);
    assert_int_equal(mp_path_incl_edge(&pi, F_G, F_F), 4);
    assert_int_equal(mp_path_incl_edge(&pi, F_MAIN, F_F), 14);
    assert_int_equal(mp_path_incl_edge(&pi, F_MAIN, F_G), 0); /* not adjacent */
    assert_int_equal(pi.recorded, 15);
    assert_int_equal(pi.total, 20);
    mp_path_incl_free(&pi);
}

/* The gap counts for no function, and no edge crosses it: f and g are
 * not adjacent there. */
static void test_gap_incl(void **state)
{
    struct mp_path_incl pi;

    (void)state;
    model(2);
    path(10, MCUPROF_PATH_GAP, 5, F_MAIN, F_F, GAP, F_F, F_G);
    path(3, MCUPROF_PATH_GAP, 4, F_MAIN, F_A, F_F, GAP);
    assert_int_equal(mp_path_incl_compute(&pi, &m), 0);
    assert_int_equal(pi.incl[F_MAIN], 13);
    assert_int_equal(pi.incl[F_F], 13);
    assert_int_equal(pi.incl[F_G], 10);
    assert_int_equal(pi.incl[F_A], 3);
    assert_int_equal(mp_path_incl_edge(&pi, F_MAIN, F_F), 10);
    assert_int_equal(mp_path_incl_edge(&pi, F_F, F_G), 10);
    assert_int_equal(mp_path_incl_edge(&pi, F_F, F_F), 0); /* across the gap */
    assert_int_equal(mp_path_incl_edge(&pi, F_A, F_F), 3);
    assert_int_equal(pi.recorded, 13);
    mp_path_incl_free(&pi);
}

/* info's top paths elide the middle of a deep path, never its gap. */
static void test_gap_printed(void **state)
{
    char *out = NULL;
    size_t n;
    FILE *f;

    (void)state;
    model(2);
    path(5, MCUPROF_PATH_GAP, 16, F_MAIN, F_A, F_F, F_F, F_F, F_F, F_F, GAP, F_F, F_F, F_F, F_F, F_F, F_F, F_F, F_G);
    path(3, MCUPROF_PATH_GAP, 14, F_MAIN, F_A, F_F, GAP, F_F, F_F, F_F, F_F, F_F, F_F, F_F, F_F, F_F, F_G);
    assert_non_null(f = open_memstream(&out, &n));
    mp_print_paths(f, &m);
    assert_int_equal(fclose(f), 0);
    assert_non_null(strstr(out, "    main > a > f > ... 4 frames ... > [...] > f > f > f > f > f > f > f > g  5 (62.50 %)\n"
                                "    main > a > f > [...] > ... 2 frames ... > f > f > f > f > f > f > f > g  3 (37.50 %)\n"));
    free(out);
}

/* ---- drain and sum ---- */

/* The drain zeroes the samples and the table's lost and invalid (and
 * the samples held off), and keeps every path with its frames; the sum adds paths by frames and
 * flags, through the synthetic image, across drains. */
static void test_drain_and_sum(void **state)
{
    static const struct tb_path later[] = {
        {30, 3, 0, {SELF(F_MAIN), SELF(F_A), SELF(F_WORK)}},
        {4, 2, 0, {SELF(F_MAIN), SELF(F_B)}},
        {7, 2, 1, {SELF(F_A), SELF(F_WORK)}},
        {2, 2, 0, {SELF(F_A), SELF(F_WORK)}}, /* same frames, no flag: another path */
    };
    static const uint64_t maw[] = {SELF(F_MAIN), SELF(F_A), SELF(F_WORK)}, aw[] = {SELF(F_A), SELF(F_WORK)};
    struct mp_link link;
    struct tb_image d;
    struct mp_image img, drained, sum_img;
    struct mp_model sm;
    struct mp_sum s;
    uint8_t *data;
    size_t len, sum_len, i;
    uint32_t samples;
    unsigned depth, flags;

    (void)state;
    describe(&d, three, 3);
    d.paths_lost = 2;
    d.paths_invalid = 7;
    d.samples_taken = 100000; /* room for the samples held off */
    d.has_held = 1;
    d.held = (struct tb_held){2, 0, 320, 5};
    len = build(0, &d);
    assert_int_equal(mp_image_parse(&img, "snap1", buf[0], len), 0);
    assert_int_equal(img.held_entry.samples, 2);

    /* drain into a copy */
    memcpy(buf[1], buf[0], len);
    mem_link_open(&link, buf[1], len);
    assert_int_equal(mp_drain_ext(&link, MEM_LINK_BASE, &img), 0);
    assert_int_equal(mp_image_parse(&drained, "drained", buf[1], len), 0);
    /* the samples held off and the looks restart, the threshold stays */
    assert_int_equal(drained.held_entry.samples, 0);
    assert_int_equal(drained.held_entry.periods, 0);
    assert_int_equal(drained.held_entry.scans, 0);
    assert_int_equal(drained.held_entry.threshold, 320);
    assert_int_equal(drained.ext[drained.paths].used, 3);
    assert_int_equal(drained.ext[drained.paths].lost, 0);
    assert_int_equal(drained.ext[drained.paths].invalid, 0);
    for (i = 0; i < 3; i++) {
        mp_image_path(&drained, (uint32_t)i, &samples, &depth, &flags);
        assert_int_equal(samples, 0);
        assert_int_equal(depth, three[i].depth);
        assert_int_equal(flags, three[i].flags);
        assert_int_equal(mp_image_path_frame(&drained, (uint32_t)i, 0), three[i].frames[0]);
    }
    assert_int_equal(mp_image_path_frame(&drained, 0, 2), SELF(F_WORK));

    /* sum: the first snapshot, the drained one (nothing), a later one */
    describe(&d, later, 4);
    d.paths_lost = 1;
    d.paths_invalid = 7;
    len = build(2, &d);
    mp_sum_init(&s);
    assert_int_equal(mp_sum_add(&s, &img), 0);
    assert_int_equal(mp_sum_add(&s, &drained), 0);
    assert_int_equal(mp_image_parse(&img, "snap2", buf[2], len), 0);
    assert_int_equal(mp_sum_add(&s, &img), 0);
    assert_int_equal(s.npaths, 4);
    assert_int_equal(sum_path(&s, maw, 3, 0), 60);
    assert_int_equal(sum_path(&s, aw, 2, MCUPROF_PATH_TRUNCATED), 14);
    assert_int_equal(sum_path(&s, aw, 2, 0), 2);
    assert_int_equal(sum_path(&s, maw, 2, 0), 0);
    assert_int_equal(s.paths_lost, 3);
    assert_int_equal(s.paths_invalid, 14);

    assert_int_equal(mp_sum_image(&s, &data, &sum_len), 0);
    assert_int_equal(mp_image_parse(&sum_img, "sum", data, sum_len), 0);
    assert_int_equal(sum_img.path_depth_max, 4);
    assert_int_equal(sum_img.ext[sum_img.paths].lost, 3);
    assert_int_equal(sum_img.ext[sum_img.paths].invalid, 14);
    assert_int_equal(mp_model_from_image(&sm, &sum_img), 0);
    assert_int_equal(sm.npaths, 4);
    {
        uint64_t total = 0;

        for (i = 0; i < sm.npaths; i++) {
            total += sm.paths[i].samples;
            if (sm.paths[i].depth == 3)
                assert_int_equal(sm.paths[i].frames[2], SELF(F_WORK) - 1);
        }
        assert_int_equal(total, 60 + 4 + 14 + 2);
    }
    mp_model_free(&sm);
    free(data);

    /* another firmware's table (other depth) is refused */
    describe(&d, later, 4);
    d.path_depth_max = 5;
    len = build(2, &d);
    assert_int_equal(mp_image_parse(&img, "snap3", buf[2], len), 0);
    assert_int_equal(mp_sum_add(&s, &img), -1);
    assert_non_null(strstr(mp_last_error(), "firmware was replaced"));
    mp_sum_free(&s);
}

/* What info prints of the call paths of the image of LEN bytes in
 * buf[0]. */
static char *printed_paths(size_t len)
{
    struct mp_image img;
    struct mp_model pm;
    char *out = NULL;
    size_t n;
    FILE *f;

    assert_int_equal(mp_image_parse(&img, "p.img", buf[0], len), 0);
    assert_int_equal(mp_model_from_image(&pm, &img), 0);
    assert_non_null(f = open_memstream(&out, &n));
    mp_print_paths(f, &pm);
    assert_int_equal(fclose(f), 0);
    mp_model_free(&pm);
    return out;
}

/* info's block, without the ELF: the heaviest first (equal ones in table
 * order), a path deeper than 12 frames shortened in the middle, one of
 * exactly 12 whole. */
static void test_info_block(void **state)
{
    static const struct tb_path paths[] = {
        {10, 12, 0, {0x1001, 0x1011, 0x1021, 0x1031, 0x1041, 0x1051, 0x1061, 0x1071}},
        {0, 1, 0, {0x1001}},
        {50, 14, MCUPROF_PATH_CUT, {0x1001, 0x1011, 0x1021, 0x1031, 0x1041, 0x1051, 0x1061, 0x1071}},
        {10, 1, 0, {0x1001}},
        {30, 0, 0, {0}},
    };
    struct tb_image d;
    char *out;
    size_t len, off, k;

    (void)state;
    describe(&d, paths, 5);
    d.path_depth_max = 16;
    len = build(0, &d);
    /* the frames past the builder's 8 */
    off = tb_paths_offset(&d) + 24;
    for (k = 8; k < 14; k++) {
        if (k < 12)
            tb_put32(buf[0], off + 8 + 4 * k, (uint32_t)(0x1081 + 0x10 * (k - 8)), 0);
        tb_put32(buf[0], off + 2 * (8 + 16 * 4) + 8 + 4 * k, (uint32_t)(0x1081 + 0x10 * (k - 8)), 0);
    }
    out = printed_paths(len);
    assert_string_equal(out, "call paths\n"
                             "  paths in use                 5 of 5 (4 with samples), up to 16 frames each\n"
                             "  lost                         0 samples (the table was full)\n"
                             "  past depth                   0 samples (deeper than the shadow stack: frames missing"
                             " at [...])\n"
                             "  top 4 paths by samples (share of the 100 the table counted, lost included):\n"
                             "    [cut at task switch] > 0x1000 > 0x1010 > 0x1020 > ... 3 frames ... > 0x1060 > 0x1070"
                             " > 0x1080 > 0x1090 > 0x10a0 > 0x10b0 > 0x10c0 > 0x10d0  50 (50.00 %)\n"
                             "    [no profiled function]  30 (30.00 %)\n"
                             "    0x1000 > 0x1010 > 0x1020 > 0x1030 > 0x1040 > 0x1050 > 0x1060 > 0x1070 > 0x1080"
                             " > 0x1090 > 0x10a0 > 0x10b0  10 (10.00 %)\n"
                             "    0x1000  10 (10.00 %)\n");
    free(out);
    /* no table, no block */
    describe(&d, paths, 0);
    d.path_depth_max = 0;
    len = build(0, &d);
    out = printed_paths(len);
    assert_string_equal(out, "");
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_parse, setup),
        cmocka_unit_test_setup(test_bad_entry_size, setup),
        cmocka_unit_test_setup(test_depth_above_max, setup),
        cmocka_unit_test_setup(test_unknown_flags, setup),
        cmocka_unit_test_setup(test_gap, setup),
        cmocka_unit_test_setup(test_counts_above_samples_taken, setup),
        cmocka_unit_test_setup(test_model, setup),
        cmocka_unit_test_setup(test_warnings, setup),
        cmocka_unit_test_setup_teardown(test_folded, setup, teardown),
        cmocka_unit_test_setup_teardown(test_folded_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_two_callers, setup, teardown),
        cmocka_unit_test_setup_teardown(test_recursion_once, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gap_incl, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gap_printed, setup, teardown),
        cmocka_unit_test_setup(test_drain_and_sum, setup),
        cmocka_unit_test_setup(test_info_block, setup),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * Summing drained snapshots on the host (profile_sum.c): 64-bit sums per
 * arc, bin and counter; the synthetic image they become; and the gmon.out
 * written from it, where nothing wraps: arc counts above a record's reach
 * are split into repeated arc records, bins above 65535 into repeated
 * histogram records of the same range.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "big_snapshot.h"
#include "diag.h"
#include "gmon_capture.h"
#include "gmon_read.h"
#include "gmon_write.h"
#include "image_builder.h"
#include "image_read.h"
#include "model.h"
#include "profile.h"
#include "profile_sum.h"

static uint8_t bufs[4][8192];

static int setup(void **state)
{
    (void)state;
    mp_diag_quiet(1);
    mp_diag_reset();
    return 0;
}

/* An image of the test firmware: one 4-bin range at 0x1000, two arcs. */
static void build(int idx, struct mp_image *img, int big, unsigned ptr_size,
                  const struct tb_arc *arcs, unsigned narcs, const uint32_t *bins, uint32_t lost0)
{
    static const uint8_t id[4] = {0xde, 0xad, 0xbe, 0xef};
    struct tb_image d;
    size_t len;

    tb_arm(&d);
    d.big = big;
    d.ptr_size = ptr_size;
    d.image_addr = 0x20000000;
    d.bin_shift = 4;
    d.nranges = 1;
    d.ranges[0].low = 0x1000;
    d.ranges[0].nbins = 4;
    d.ranges[0].bins = bins;
    d.narcs = narcs;
    d.arcs = arcs;
    d.build_id_len = 4;
    d.build_id = id;
    d.generation = (uint32_t)idx;
    d.lost[0] = lost0;
    d.lost[2] = 3;
    d.samples_taken = 10;
    len = tb_build(&d, bufs[idx], sizeof(bufs[idx]));
    assert_true(len > 0);
    assert_int_equal(mp_image_parse(img, "snap", bufs[idx], len), 0);
}

/* The image S sums, parsed into OUT. Returns its bytes, which OUT points
 * into: the caller frees them. */
static uint8_t *summed_image(const struct mp_sum *s, struct mp_image *out)
{
    uint8_t *data;
    size_t len;

    assert_int_equal(mp_sum_image(s, &data, &len), 0);
    assert_int_equal(mp_image_parse(out, "sum", data, len), 0);
    return data;
}

/* One arc of 0xfffffffe calls: two snapshots of it add up past 32 bits. */
static const struct tb_arc wide_arc[] = {{0x1011, 0x1021, 0xFFFFFFFEu}};

static void test_sums_arcs_bins_counters(void **state)
{
    const struct tb_arc a1[] = {{0x1011, 0x1021, 5}, {0x1031, 0x1041, 7}};
    const struct tb_arc a2[] = {{0x1031, 0x1041, 100}, {0x1051, 0x1021, 1}};
    const uint32_t b1[4] = {1, 2, 3, 4}, b2[4] = {10, 0, 30, 65535};
    struct mp_image i1, i2, out;
    struct mp_sum s;
    struct mp_arc arc;
    uint8_t *data;
    uint64_t total = 0;
    uint32_t k;

    (void)state;
    build(0, &i1, 0, 4, a1, 2, b1, 1);
    build(1, &i2, 0, 4, a2, 2, b2, 2);
    mp_sum_init(&s);
    assert_int_equal(mp_sum_add(&s, &i1), 0);
    assert_int_equal(mp_sum_add(&s, &i2), 0);
    assert_int_equal(s.narcs, 3);
    assert_int_equal(mp_sum_arc_count(&s, 0x1011, 0x1021), 5);
    assert_int_equal(mp_sum_arc_count(&s, 0x1031, 0x1041), 107);
    assert_int_equal(mp_sum_arc_count(&s, 0x1051, 0x1021), 1);
    assert_int_equal(mp_sum_arc_count(&s, 0x1051, 0x9999), 0);

    data = summed_image(&s, &out);
    assert_int_equal(out.arcs_used, 3);
    for (k = 1; k <= out.arcs_used; k++) {
        mp_image_arc(&out, k, &arc);
        total += arc.count;
    }
    assert_int_equal(total, 113);
    assert_int_equal(out.counter_bytes, 4);
    assert_int_equal(mp_image_bin(&out, 0, 0), 11);
    assert_int_equal(mp_image_bin(&out, 0, 1), 2);
    assert_int_equal(mp_image_bin(&out, 0, 3), 65539); /* wider than the target's 16 bits */
    assert_int_equal(out.lost[MP_LOST_ARCS_TABLE_FULL], 3);
    assert_int_equal(out.lost[MP_LOST_CALLS_FROZEN], 6);
    /* 10 + 65575: each snapshot's samples_taken is at least its bins' sum */
    assert_int_equal(out.samples_taken, 10 + 65575);
    assert_int_equal(out.generation, 1);
    assert_int_equal(out.build_id_len, 4);
    assert_int_equal(out.ranges[0].low, 0x1000);
    assert_int_equal(out.sample_rate_hz, 1000);
    free(data);
    mp_sum_free(&s);
}

/* Three snapshots of 0xfffffffe calls each: 3 * (2^32 - 2), more than a
 * 32-bit count holds. The sum is exact and the image splits it. */
static void test_arc_above_32_bits(void **state)
{
    const uint32_t b[4] = {0, 0, 0, 0};
    struct mp_image img, out;
    struct mp_sum s;
    struct mp_arc arc;
    uint8_t *data;
    uint64_t total = 0;
    uint32_t k;
    int i;

    (void)state;
    build(0, &img, 1, 8, wide_arc, 1, b, 0); /* big-endian, 8-byte addresses */
    mp_sum_init(&s);
    for (i = 0; i < 3; i++)
        assert_int_equal(mp_sum_add(&s, &img), 0);
    assert_int_equal(mp_sum_arc_count(&s, 0x1011, 0x1021), 3ull * 0xFFFFFFFEu);
    data = summed_image(&s, &out);
    assert_true(out.big);
    assert_int_equal(out.ptr_size, 8);
    assert_int_equal(out.arcs_used, 3);
    for (k = 1; k <= out.arcs_used; k++) {
        mp_image_arc(&out, k, &arc);
        assert_int_equal(arc.frompc, 0x1011);
        assert_int_equal(arc.selfpc, 0x1021);
        assert_true(arc.count != UINT32_MAX); /* never mistaken for saturated */
        total += arc.count;
    }
    assert_int_equal(total, 3ull * 0xFFFFFFFEu);
    free(data);
    mp_sum_free(&s);
}

/* Write the summed image as GNU gmon.out and read it back: the repeated
 * records carry the whole sums, as gprof adds them up. */
static void test_gmon_carries_wide_counts(void **state)
{
    const uint32_t b[4] = {40000, 1, 0, 0};
    struct mp_image img, out;
    struct mp_model m;
    struct mp_profile p;
    struct mp_gmon_info g;
    struct mp_sum s;
    uint8_t *data, gm[4096];
    size_t glen;

    (void)state;
    build(0, &img, 0, 4, wide_arc, 1, b, 0);
    mp_sum_init(&s);
    assert_int_equal(mp_sum_add(&s, &img), 0);
    assert_int_equal(mp_sum_add(&s, &img), 0);
    data = summed_image(&s, &out);
    assert_int_equal(mp_model_from_image(&m, &out), 0);
    assert_int_equal(mp_profile_prepare(&p, &m), 0);
    assert_true((glen = (size_t)gmon_capture(&p, MP_GMON_GNU, gm, sizeof(gm))) < sizeof(gm));
    assert_int_equal(mp_gmon_parse(&g, "gmon", gm, glen), 0);
    /* bin 0 holds 80000: two records of the same range, 65535 + 14465 */
    assert_int_equal(g.nhist, 2);
    assert_int_equal(g.hist[0].low, g.hist[1].low);
    assert_int_equal(g.hist[0].samples + g.hist[1].samples, 80002);
    /* 2 * 0xfffffffe calls in two arc records of the same arc */
    assert_int_equal(g.narcs, 2);
    assert_int_equal(g.total_calls, 2ull * 0xFFFFFFFEu);
    assert_int_equal(mp_warning_count(), 0);
    mp_profile_free(&p);
    mp_model_free(&m);
    free(data);
    mp_sum_free(&s);
}

static void test_saturated_arcs_counted(void **state)
{
    const struct tb_arc a[] = {{0x1011, 0x1021, 0xFFFFFFFFu}};
    const uint32_t b[4] = {0, 0, 0, 0};
    struct mp_image img;
    struct mp_sum s;

    (void)state;
    build(0, &img, 0, 4, a, 1, b, 0);
    mp_sum_init(&s);
    assert_int_equal(mp_sum_add(&s, &img), 0);
    assert_int_equal(s.saturated_arcs, 1);
    mp_sum_free(&s);
}

/* A snapshot of other firmware (another build-id, another layout) cannot
 * be added to the sum. */
static void test_other_firmware_refused(void **state)
{
    const struct tb_arc a[] = {{0x1011, 0x1021, 1}};
    const uint32_t b[4] = {0, 0, 0, 0};
    struct mp_image i1, i2;
    struct mp_sum s;

    (void)state;
    build(0, &i1, 0, 4, a, 1, b, 0);
    build(1, &i2, 0, 4, a, 1, b, 0);
    bufs[1][TB_OFF_BUILD_ID] ^= 1;
    assert_int_equal(mp_image_parse(&i2, "snap", bufs[1], i2.image_size), 0);
    mp_sum_init(&s);
    assert_int_equal(mp_sum_add(&s, &i1), 0);
    assert_int_equal(mp_sum_add(&s, &i2), -1);
    assert_non_null(strstr(mp_last_error(), "build-id differs"));
    tb_put64(bufs[1], TB_RANGE_OFF(0, TB_R_LOW), 0x2000, 0);
    tb_put64(bufs[1], TB_RANGE_OFF(0, TB_R_HIGH), 0x2040, 0);
    bufs[1][TB_OFF_BUILD_ID] ^= 1;
    assert_int_equal(mp_image_parse(&i2, "snap", bufs[1], i2.image_size), 0);
    assert_int_equal(mp_sum_add(&s, &i2), -1);
    assert_non_null(strstr(mp_last_error(), "ranges[0] differs"));
    mp_sum_free(&s);
}

static void test_empty_sum(void **state)
{
    struct mp_sum s;
    uint8_t *data;
    size_t len;

    (void)state;
    mp_sum_init(&s);
    assert_int_equal(mp_sum_image(&s, &data, &len), -1);
    assert_int_equal(mp_sum_arc_count(&s, 1, 2), 0);
    mp_sum_free(&s);
}

/* Two snapshots of an image whose keyed tables hold 200,000 entries each
 * (contexts, tasks, late-sample PCs, call paths; 4000 arcs, 200,000 bins):
 * every entry of the summed image holds the exact sum, in the order the
 * entries were first seen. Summing like this is linear: with a table
 * searched entry by entry it took minutes (bench/RESULTS.md). */
#define BIG 200000u
#define ROUNDS 2u

static uint64_t rounds_sum(uint32_t (*f)(uint32_t, unsigned), uint32_t i)
{
    uint64_t sum = 0;
    unsigned r;

    for (r = 0; r < ROUNDS; r++)
        sum += f(i, r);
    return sum;
}

static void test_sums_large_tables(void **state)
{
    struct mp_image img, out;
    struct mp_sum s;
    struct mp_arc arc;
    uint8_t *data;
    uint64_t samples_taken = 0;
    unsigned r;
    uint32_t i;

    (void)state;
    mp_sum_init(&s);
    for (r = 0; r < ROUNDS; r++) {
        uint8_t *buf = bs_build(BIG, BS_ALL, r, &img);

        assert_non_null(buf);
        samples_taken += img.samples_taken;
        assert_int_equal(mp_sum_add(&s, &img), 0);
        free(buf);
    }
    assert_int_equal(s.ncontexts, BIG);
    assert_int_equal(s.ntasks, BIG);
    assert_int_equal(s.npaths, BIG);
    assert_int_equal(s.timing.nlate, BIG);
    assert_int_equal(s.narcs, BS_MAX_ARCS);
    data = summed_image(&s, &out);
    assert_int_equal(out.samples_taken, samples_taken);
    assert_int_equal(out.ext[out.contexts].used, BIG);
    assert_int_equal(out.ext[out.tasks].used, BIG);
    assert_int_equal(out.ext[out.paths].used, BIG);
    assert_int_equal(out.ext[out.late].used, BIG);
    for (i = 0; i < BIG; i++) {
        uint32_t key, samples, flags, missed, task, context;
        unsigned depth, pflags;
        char name[MCUPROF_TASK_NAME_MAX + 1];
        uint64_t handle, pc;

        mp_image_context(&out, i, &key, &samples);
        assert_int_equal(key, bs_context_key(i));
        assert_int_equal(samples, rounds_sum(bs_context_samples, i));
        mp_image_task(&out, i, &handle, &samples, &flags, name);
        assert_int_equal(handle, 0x20001000u + 0x100u * i);
        assert_string_equal(name, "task");
        assert_int_equal(samples, rounds_sum(bs_task_samples, i));
        mp_image_late(&out, i, &pc, &samples, &missed);
        assert_int_equal(pc, bs_late_pc(i));
        assert_int_equal(samples, rounds_sum(bs_late_samples, i));
        assert_int_equal(missed, rounds_sum(bs_late_missed, i));
        mp_image_path(&out, i, &samples, &depth, &pflags);
        mp_image_path_key(&out, i, &task, &context);
        assert_int_equal(samples, rounds_sum(bs_path_samples, i));
        assert_int_equal(depth, 2);
        assert_int_equal(task, bs_path_task(i, BIG)); /* the summed table numbers tasks as first seen */
        assert_int_equal(context, bs_context_key(i % 16));
        assert_int_equal(mp_image_path_frame(&out, i, 0), bs_path_frame(i, 0));
        assert_int_equal(mp_image_path_frame(&out, i, 1), bs_path_frame(i, 1));
        assert_int_equal(mp_image_bin(&out, 0, i), rounds_sum(bs_bin, i));
    }
    for (i = 0; i < BS_MAX_ARCS; i++) {
        mp_image_arc(&out, i + 1, &arc);
        assert_int_equal(arc.frompc, bs_arc_from(i));
        assert_int_equal(arc.selfpc, bs_arc_self(i));
        assert_int_equal(arc.count, rounds_sum(bs_arc_count, i));
    }
    free(data);
    mp_sum_free(&s);
}

/* The index's hash is seeded anew for every sum; what the sum writes
 * does not depend on the seed. */
static void test_seed_changes_nothing_written(void **state)
{
    struct mp_sum s[2];
    struct mp_image img;
    uint8_t *data[2];
    size_t len[2];
    unsigned k, r;

    (void)state;
    for (k = 0; k < 2; k++) {
        mp_sum_init(&s[k]);
        s[k].seed = k ? 0x0123456789abcdefu : 0;
        for (r = 0; r < 3; r++) {
            uint8_t *buf = bs_build(3000, BS_ALL, r, &img);

            assert_non_null(buf);
            assert_int_equal(mp_sum_add(&s[k], &img), 0);
            free(buf);
        }
        assert_int_equal(mp_sum_image(&s[k], &data[k], &len[k]), 0);
    }
    assert_int_equal(len[0], len[1]);
    assert_memory_equal(data[0], data[1], len[0]);
    for (k = 0; k < 2; k++) {
        free(data[k]);
        mp_sum_free(&s[k]);
    }
}

/* Asked to stop (Ctrl-C in pull): the snapshot being added fails with
 * one error that says it was not drained, within 65536 entries. */
static unsigned stop_calls;

static int stop_now(void)
{
    stop_calls++;
    return 1;
}

static void test_stop_while_summing(void **state)
{
    struct mp_image img;
    struct mp_sum s;
    uint8_t *buf;

    (void)state;
    buf = bs_build(100000, BS_CONTEXTS, 0, &img);
    assert_non_null(buf);
    mp_sum_init(&s);
    s.stop = stop_now;
    stop_calls = 0;
    assert_int_equal(mp_sum_add(&s, &img), -1);
    assert_string_equal(mp_last_error(), "big: interrupted while summing: this snapshot was not drained");
    assert_int_equal(stop_calls, 1);
    assert_true(s.ncontexts < 65536);
    assert_int_equal(s.snapshots, 0);
    free(buf);
    mp_sum_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_sums_arcs_bins_counters, setup),
        cmocka_unit_test_setup(test_arc_above_32_bits, setup),
        cmocka_unit_test_setup(test_gmon_carries_wide_counts, setup),
        cmocka_unit_test_setup(test_saturated_arcs_counted, setup),
        cmocka_unit_test_setup(test_other_firmware_refused, setup),
        cmocka_unit_test_setup(test_empty_sum, setup),
        cmocka_unit_test_setup(test_sums_large_tables, setup),
        cmocka_unit_test_setup(test_seed_changes_nothing_written, setup),
        cmocka_unit_test_setup(test_stop_while_summing, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * The spill table (MCUPROF_EXT_SPILL): bins that passed 65535 on the
 * target. The reader adds each entry's carries to its bin, refuses a table
 * the runtime cannot have written (one line naming the field), warns where
 * the counts are still usable; the model every output reads carries the
 * full counts (the gmon.out writers: test_gmon_write.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "diag.h"
#include "drain_ext.h"
#include "image_builder.h"
#include "image_read.h"
#include "mem_link.h"
#include "model.h"
#include "profile_sum.h"

static uint8_t img_buf[8192];

/* Little-endian ARM: one range 0x100..0x108 of two 4-byte bins, 1000 Hz,
 * no arcs. Bin 0 holds 3 after 2 carries: 131075 samples; bin 1 0x1234. */
static const uint32_t bins[2] = {3, 0x1234};
static const struct tb_spill carried[1] = {{0, 0, 2}};

static struct tb_image image(void)
{
    struct tb_image d;

    tb_arm(&d);
    d.nranges = 1;
    d.ranges[0] = (struct tb_range){0x100, 2, bins};
    d.spill_capacity = 4;
    d.nspill = 1;
    d.spill = carried;
    return d;
}

static int setup(void **state)
{
    (void)state;
    mp_diag_quiet(1);
    mp_diag_reset();
    return 0;
}

static size_t build(const struct tb_image *d)
{
    size_t n = tb_build(d, img_buf, sizeof(img_buf));

    assert_true(n > 0);
    return n;
}

static void expect_error(size_t n, const char *piece1, const char *piece2)
{
    struct mp_image img;

    mp_diag_reset();
    assert_int_equal(mp_image_parse(&img, "fw.img", img_buf, n), -1);
    assert_int_equal(mp_error_count(), 1);
    assert_null(strchr(mp_last_error(), '\n'));
    if (!strstr(mp_last_error(), piece1) || (piece2 && !strstr(mp_last_error(), piece2)))
        fail_msg("error '%s' lacks '%s' / '%s'", mp_last_error(), piece1, piece2 ? piece2 : "");
}

/* Entry I's field at OFF (0 bin_offset, 4 carries) of the built table. */
static void put_entry(const struct tb_image *d, unsigned i, unsigned off, uint32_t v)
{
    tb_put32(img_buf, tb_spill_offset(d) + TB_EXT_HEADER + 8 * i + off, v, d->big);
}

/* ---- reading ------------------------------------------------------------ */

/* Bin BIN of range 0 with its carries, as the model holds it. */
static uint64_t true_bin(const struct mp_image *img, uint32_t bin)
{
    struct mp_model m;
    uint64_t v;

    assert_int_equal(mp_model_from_image(&m, img), 0);
    v = m.ranges[0].bins[bin];
    mp_model_free(&m);
    return v;
}

static void carries_counted(void **s)
{
    struct tb_image d = image();
    struct mp_image img;
    struct mp_model m;
    size_t n = build(&d);

    (void)s;
    assert_int_equal(mp_image_parse(&img, "fw.img", img_buf, n), 0);
    assert_true(img.spill >= 0);
    assert_true(img.spill_samples == 131072);
    assert_true(img.ranges[0].bin_sum == 131075 + 0x1234);
    assert_true(img.ranges[0].bin_max == 131075);
    /* samples_taken was raised to the true total by the builder */
    assert_int_equal(img.samples_taken, 131075 + 0x1234);
    /* the model every output reads (pprof, callgrind, JSON): 64-bit bins */
    assert_int_equal(mp_model_from_image(&m, &img), 0);
    assert_true(m.ranges[0].bins[0] == 131075);
    assert_true(m.ranges[0].bins[1] == 0x1234);
    assert_true(m.ranges[0].samples == 131075 + 0x1234);
    assert_true(m.ranges[0].max_bin == 131075);
    assert_true(m.c.binned == 131075 + 0x1234);
    assert_true(m.c.saturated_bins == 0);
    mp_model_free(&m);
    assert_int_equal(mp_warning_count(), 0);
}

/* A wrapped bin back at 65535 is not saturated; one without an entry is. */
static void wrapped_bin_at_max_not_saturated(void **s)
{
    static const uint32_t full[2] = {0xFFFF, 0xFFFF};
    struct tb_image d = image();
    struct mp_image img;
    size_t n;

    (void)s;
    d.ranges[0].bins = full;
    n = build(&d);
    assert_int_equal(mp_image_parse(&img, "fw.img", img_buf, n), 0);
    assert_int_equal(img.ranges[0].bins_saturated, 1);
    assert_true(img.ranges[0].bin_max == 2 * 65536 + 0xFFFF);
}

static void four_byte_counters_carry_2_32(void **s)
{
    struct tb_image d = image();
    struct mp_image img;
    size_t n;

    (void)s;
    d.counter_bytes = 4;
    n = build(&d);
    assert_int_equal(mp_image_parse(&img, "fw.img", img_buf, n), 0);
    assert_true(true_bin(&img, 0) == 2 * ((uint64_t)1 << 32) + 3);
    /* samples_taken (32 bits) saturated: it bounds nothing */
    assert_int_equal(img.samples_taken, UINT32_MAX);
}

static void entry_outside_bins(void **s)
{
    struct tb_image d = image();
    size_t n = build(&d);

    (void)s;
    put_entry(&d, 0, 0, 0x10); /* inside the header */
    expect_error(n, "spill table entry 0: bin_offset 0x10", "not in the bins of any range");
}

static void entry_past_last_bin(void **s)
{
    struct tb_image d = image();
    size_t n = build(&d);
    struct mp_image img;

    (void)s;
    assert_int_equal(mp_image_parse(&img, "fw.img", img_buf, n), 0);
    put_entry(&d, 0, 0, img.ranges[0].hist_offset + 4); /* one past bin 1 */
    expect_error(n, "spill table entry 0", "not in the bins of any range");
}

static void entry_misaligned(void **s)
{
    struct tb_image d = image();
    size_t n = build(&d);
    struct mp_image img;

    (void)s;
    assert_int_equal(mp_image_parse(&img, "fw.img", img_buf, n), 0);
    put_entry(&d, 0, 0, img.ranges[0].hist_offset + 1);
    expect_error(n, "spill table entry 0", "is not on a bin of ranges[0]");
}

static void duplicate_entries(void **s)
{
    static const struct tb_spill twice[3] = {{0, 1, 1}, {0, 0, 1}, {0, 1, 1}};
    struct tb_image d = image();
    size_t n;

    (void)s;
    d.nspill = 3;
    d.spill = twice;
    n = build(&d);
    expect_error(n, "spill table: entries 0 and 2", "same bin_offset");
}

static void used_above_capacity(void **s)
{
    struct tb_image d = image();
    size_t n = build(&d);

    (void)s;
    tb_put32(img_buf, tb_spill_offset(&d) + TB_EXT_USED, 5, 0);
    expect_error(n, "used 5", "above capacity 4");
}

static void wrong_entry_size(void **s)
{
    struct tb_image d = image();
    size_t n = build(&d);

    (void)s;
    tb_put16(img_buf, tb_spill_offset(&d) + TB_EXT_ENTRY_SIZE, 4, 0);
    expect_error(n, "spill table", "entry_size 4, expected 8");
}

/* The carries make the bins hold more than samples_taken. */
static void carries_above_samples_taken(void **s)
{
    struct tb_image d = image();
    size_t n = build(&d);

    (void)s;
    put_entry(&d, 0, 4, 3);
    expect_error(n, "bins hold 201271 samples", "samples_taken is 135735");
}

/* Lost samples are counted in lost_samples_saturated too. */
static void lost_above_saturated(void **s)
{
    struct tb_image d = image();
    size_t n;

    (void)s;
    d.spill_lost = 10;
    d.lost[4] = 9;
    n = build(&d);
    expect_error(n, "spill table: lost 10", "above lost_samples_saturated 9");
}

/* Lost with free entries: not what the runtime does, but the counts are
 * usable: a warning. */
static void lost_with_room_warns(void **s)
{
    struct tb_image d = image();
    struct mp_image img;
    size_t n;

    (void)s;
    d.spill_lost = 10;
    d.lost[4] = 10;
    n = build(&d);
    assert_int_equal(mp_image_parse(&img, "fw.img", img_buf, n), 0);
    assert_int_equal(mp_warning_count(), 1);
    assert_non_null(strstr(mp_last_warning(), "spill table: lost 10 samples with only 1 of its 4 entries used"));
}

static void two_spill_tables(void **s)
{
    struct tb_image d = image();
    size_t n = build(&d), off = tb_spill_offset(&d);

    (void)s;
    /* the table as a path table's successor: make the end marker a second
     * copy by shrinking this one's capacity (header only, no entries) */
    tb_put32(img_buf, off + TB_EXT_SIZE, 24, 0);
    tb_put32(img_buf, off + TB_EXT_CAPACITY, 0, 0);
    tb_put32(img_buf, off + TB_EXT_USED, 0, 0);
    tb_put16(img_buf, off + 24 + TB_EXT_KIND, TB_EXT_SPILL, 0);
    tb_put16(img_buf, off + 24 + TB_EXT_ENTRY_SIZE, 8, 0);
    tb_put32(img_buf, off + 24 + TB_EXT_SIZE, 16, 0);
    expect_error(n, "extension table", NULL);
    tb_put32(img_buf, off + 24 + TB_EXT_SIZE, 24, 0);
    tb_put32(img_buf, off + 24 + TB_EXT_CAPACITY, 0, 0);
    expect_error(n, "two spill tables", NULL);
}

/* ---- drain and sum -------------------------------------------------------- */

/* The drained copy of the image. */
static uint8_t target_mem[sizeof(img_buf)];

/* A drain empties the table as the runtime's reset does (its entries
 * carry for bins the drain zeroes); a sum of snapshots adds the carries
 * into its 4-byte bins. */
static void drain_empties_and_sum_adds(void **s)
{
    struct mp_link link;
    struct tb_image d = image();
    struct mp_image img, drained, sum_img;
    struct mp_sum sum;
    uint8_t *data;
    size_t n = build(&d), sum_len, off = tb_spill_offset(&d);
    uint32_t k;

    (void)s;
    assert_int_equal(mp_image_parse(&img, "snap", img_buf, n), 0);
    memcpy(target_mem, img_buf, n);
    mem_link_open(&link, target_mem, n);
    assert_int_equal(mp_drain_ext(&link, MEM_LINK_BASE, &img), 0);
    assert_int_equal(mp_image_parse(&drained, "drained", target_mem, n), 0);
    assert_int_equal(drained.ext[drained.spill].used, 0);
    assert_int_equal(drained.ext[drained.spill].lost, 0);
    assert_int_equal(drained.ext[drained.spill].capacity, 4);
    for (k = 0; k < 4 * 8; k++)
        assert_int_equal(target_mem[off + TB_EXT_HEADER + k], 0);

    mp_sum_init(&sum);
    assert_int_equal(mp_sum_add(&sum, &img), 0);
    assert_int_equal(mp_sum_add(&sum, &img), 0);
    assert_int_equal(mp_sum_image(&sum, &data, &sum_len), 0);
    assert_int_equal(mp_image_parse(&sum_img, "sum", data, sum_len), 0);
    assert_true(true_bin(&sum_img, 0) == 2 * 131075);
    assert_true(true_bin(&sum_img, 1) == 2 * 0x1234);
    free(data);
    mp_sum_free(&sum);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(carries_counted, setup),
        cmocka_unit_test_setup(wrapped_bin_at_max_not_saturated, setup),
        cmocka_unit_test_setup(four_byte_counters_carry_2_32, setup),
        cmocka_unit_test_setup(entry_outside_bins, setup),
        cmocka_unit_test_setup(entry_past_last_bin, setup),
        cmocka_unit_test_setup(entry_misaligned, setup),
        cmocka_unit_test_setup(duplicate_entries, setup),
        cmocka_unit_test_setup(used_above_capacity, setup),
        cmocka_unit_test_setup(wrong_entry_size, setup),
        cmocka_unit_test_setup(carries_above_samples_taken, setup),
        cmocka_unit_test_setup(lost_above_saturated, setup),
        cmocka_unit_test_setup(lost_with_room_warns, setup),
        cmocka_unit_test_setup(two_spill_tables, setup),
        cmocka_unit_test_setup(drain_empties_and_sum_adds, setup),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * The image reader: every field is read at its offset in either byte order
 * and with either pointer size, and every validation rule reports an error
 * that names the field at fault.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "diag.h"
#include "image_builder.h"
#include "image_read.h"

static uint8_t buf[8192];
static size_t len;

static const uint32_t bins0[8] = {1, 2, 3, 4, 5, 6, 7, 0xFFFF};
static const uint32_t bins1[4] = {10, 20, 30, 40};
static const struct tb_arc arcs[3] = {
    {0x1009, 0x1011, 5},
    {0x1019, 0x20000001, 0xFFFFFFFF},
    {0xFFFFFFF9, 0x1001, 3},
};
static const uint8_t build_id[20] = {0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4, 5, 6,
                                     7, 8, 9, 10, 11, 12, 13, 14, 15, 16};

static void build(int big, unsigned ptr_size)
{
    struct tb_image d;

    tb_arm(&d);
    d.big = big;
    d.ptr_size = ptr_size;
    d.image_addr = 0x20001000;
    d.nranges = 2;
    d.ranges[0] = (struct tb_range){0x1000, 8, bins0};
    d.ranges[1] = (struct tb_range){0x20000000, 4, bins1};
    d.narcs = 3;
    d.arcs = arcs;
    d.build_id_len = sizeof(build_id);
    d.build_id = build_id;
    d.state = 3;
    d.freeze_request = 7;
    d.freeze_ack = 6;
    d.generation = 2;
    for (unsigned i = 0; i < 6; i++)
        d.lost[i] = 100 + i;
    d.samples_taken = 123456; /* at least the bins' 65663 */
    len = tb_build(&d, buf, sizeof(buf));
    assert_true(len > 0);
}

static int setup(void **state)
{
    (void)state;
    mp_diag_quiet(1);
    mp_diag_reset();
    build(0, 4);
    return 0;
}

/* Parse buf and expect an error whose text contains each given piece. */
static void expect_error(size_t n, const char *piece1, const char *piece2)
{
    struct mp_image img;

    mp_diag_reset();
    assert_int_equal(mp_image_parse(&img, "fw.img", buf, n), -1);
    assert_int_equal(mp_error_count(), 1);
    assert_non_null(strstr(mp_last_error(), "fw.img: "));
    if (!strstr(mp_last_error(), piece1) || (piece2 && !strstr(mp_last_error(), piece2)))
        fail_msg("error '%s' lacks '%s' / '%s'", mp_last_error(), piece1, piece2 ? piece2 : "");
}

static void check_fields(int big, unsigned ptr_size)
{
    struct mp_image img;
    struct mp_arc arc;

    build(big, ptr_size);
    assert_int_equal(mp_image_parse(&img, "fw.img", buf, len), 0);
    assert_int_equal(img.big, big);
    assert_int_equal(img.ptr_size, ptr_size);
    assert_int_equal(img.machine, 40);
    assert_int_equal(img.image_size, len);
    assert_true(img.image_addr == 0x20001000);
    assert_int_equal(img.arcs_used, 3);
    assert_int_equal(img.arcs_capacity, 5);
    assert_int_equal(img.nbuckets, 8);
    assert_int_equal(img.sample_rate_hz, 1000);
    assert_int_equal(img.bin_shift, 2);
    assert_int_equal(img.counter_bytes, 2);
    assert_int_equal(img.nranges, 2);
    assert_int_equal(img.build_id_len, 20);
    assert_memory_equal(img.build_id, build_id, 20);
    assert_true(img.ranges[1].low == 0x20000000);
    assert_true(img.ranges[1].high == 0x20000010);
    assert_int_equal(img.ranges[1].nbins, 4);
    assert_int_equal(mp_image_bin(&img, 0, 7), 0xFFFF);
    assert_int_equal(mp_image_bin(&img, 1, 2), 30);
    mp_image_arc(&img, 2, &arc);
    assert_true(arc.frompc == 0x1019);
    assert_true(arc.selfpc == 0x20000001);
    assert_true(arc.count == 0xFFFFFFFF);
    mp_image_arc(&img, 3, &arc);
    assert_true(arc.frompc == 0xFFFFFFF9);
    assert_int_equal(img.state, 3);
    assert_int_equal(img.freeze_request, 7);
    assert_int_equal(img.freeze_ack, 6);
    assert_int_equal(img.generation, 2);
    for (unsigned i = 0; i < MP_LOST_COUNT; i++)
        assert_int_equal(img.lost[i], 100 + i);
    assert_int_equal(img.samples_taken, 123456);
}

static void fields_le32(void **s) { (void)s; check_fields(0, 4); }
static void fields_be32(void **s) { (void)s; check_fields(1, 4); }
static void fields_le64(void **s) { (void)s; check_fields(0, 8); }
static void fields_be64(void **s) { (void)s; check_fields(1, 8); }

static void longer_file_ok(void **s)
{
    struct mp_image img;

    (void)s;
    memset(buf + len, 0xAA, 100);
    assert_int_equal(mp_image_parse(&img, "fw.img", buf, len + 100), 0);
    assert_int_equal(img.image_size, len);
}

static void empty_file(void **s) { (void)s; expect_error(0, "empty", NULL); }
static void too_short_for_magic(void **s) { (void)s; expect_error(3, "3 bytes", "magic"); }
static void short_header(void **s) { (void)s; expect_error(100, "100 bytes", "256-byte header"); }

static void bad_magic(void **s)
{
    (void)s;
    memcpy(buf, "MCPX", 4);
    expect_error(len, "magic bytes 4d 43 50 58", NULL);
}

static void byte_order_mismatch(void **s)
{
    (void)s;
    buf[TB_OFF_BYTE_ORDER] = 2;
    expect_error(len, "byte_order 2", "little-endian");
}

static void bad_version(void **s)
{
    (void)s;
    tb_put16(buf, TB_OFF_VERSION, 2, 0);
    expect_error(len, "version 2", NULL);
}

static void bad_header_size(void **s)
{
    (void)s;
    tb_put16(buf, TB_OFF_HEADER_SIZE, 255, 0);
    expect_error(len, "header_size 255", NULL);
}

static void bad_ptr_size(void **s)
{
    (void)s;
    buf[TB_OFF_PTR_SIZE] = 6;
    expect_error(len, "ptr_size 6", NULL);
}

static void image_size_below_header(void **s)
{
    (void)s;
    tb_put32(buf, TB_OFF_IMAGE_SIZE, 0x80, 0);
    expect_error(len, "image_size 0x80", "header");
}

static void image_size_past_file(void **s)
{
    (void)s;
    expect_error(len - 1, "image_size 0x", "past the end of the file");
}

static void record_size_mismatch(void **s)
{
    (void)s;
    tb_put16(buf, TB_OFF_ARC_RECORD_SIZE, 24, 0);
    expect_error(len, "arc_record_size 24", "ptr_size 4");
}

static void capacity_too_large(void **s)
{
    (void)s;
    tb_put32(buf, TB_OFF_ARCS_CAPACITY, 65536, 0);
    expect_error(len, "arcs_capacity 65536", NULL);
}

static void used_above_capacity(void **s)
{
    (void)s;
    tb_put32(buf, TB_OFF_ARCS_USED, 6, 0);
    expect_error(len, "arcs_used 6", "arcs_capacity 5");
}

static void arcs_in_header(void **s)
{
    (void)s;
    tb_put32(buf, TB_OFF_ARCS_OFFSET, 0x10, 0);
    expect_error(len, "arcs_offset 0x10", "header");
}

static void arcs_past_image(void **s)
{
    (void)s;
    tb_put32(buf, TB_OFF_ARCS_CAPACITY, 1000, 0);
    expect_error(len, "arcs_offset 0x100 + 12012 bytes", "image_size");
}

static void arcs_offset_wraps(void **s)
{
    (void)s;
    /* 0xfffffff0 + 6 * 16 wraps in 32 bits; must still be caught */
    tb_put32(buf, TB_OFF_ARCS_OFFSET, 0xFFFFFFF0, 0);
    expect_error(len, "arcs_offset 0xfffffff0", "image_size");
}

static void buckets_not_power_of_two(void **s)
{
    (void)s;
    tb_put32(buf, TB_OFF_NBUCKETS, 6, 0);
    expect_error(len, "nbuckets 6", "power of two");
    tb_put32(buf, TB_OFF_NBUCKETS, 0, 0);
    expect_error(len, "nbuckets 0", "power of two");
}

static void buckets_past_image(void **s)
{
    (void)s;
    tb_put32(buf, TB_OFF_NBUCKETS, 1u << 20, 0);
    expect_error(len, "buckets_offset 0x", "image_size");
}

static void hash_shift_too_wide(void **s)
{
    (void)s;
    tb_put16(buf, TB_OFF_HASH_SHIFT, 32, 0);
    expect_error(len, "hash_shift 32", NULL);
}

static void build_id_too_long(void **s)
{
    (void)s;
    buf[TB_OFF_BUILD_ID_LEN] = 33;
    expect_error(len, "build_id_len 33", NULL);
}

static void too_many_ranges(void **s)
{
    (void)s;
    buf[TB_OFF_NRANGES] = 5;
    expect_error(len, "nranges 5", NULL);
}

static void bin_shift_out_of_bounds(void **s)
{
    (void)s;
    buf[TB_OFF_BIN_SHIFT] = 0;
    expect_error(len, "bin_shift 0", NULL);
    buf[TB_OFF_BIN_SHIFT] = 25;
    expect_error(len, "bin_shift 25", NULL);
}

static void bad_counter_bytes(void **s)
{
    (void)s;
    buf[TB_OFF_COUNTER_BYTES] = 3;
    expect_error(len, "counter_bytes 3", NULL);
}

static void range_low_not_below_high(void **s)
{
    (void)s;
    tb_put64(buf, TB_RANGE_OFF(1, TB_R_HIGH), 0x20000000, 0);
    expect_error(len, "ranges[1].low 0x20000000", "high 0x20000000");
}

static void range_low_misaligned(void **s)
{
    (void)s;
    tb_put64(buf, TB_RANGE_OFF(0, TB_R_LOW), 0x1002, 0);
    tb_put64(buf, TB_RANGE_OFF(0, TB_R_HIGH), 0x1022, 0);
    expect_error(len, "ranges[0].low 0x1002", "multiple of the bin size 4");
}

static void range_high_beyond_32_bits(void **s)
{
    (void)s;
    tb_put64(buf, TB_RANGE_OFF(1, TB_R_LOW), 0xFFFFFFF0, 0);
    tb_put64(buf, TB_RANGE_OFF(1, TB_R_HIGH), 0x100000000, 0);
    expect_error(len, "ranges[1].high 0x100000000", "4-byte address");
}

static void range_geometry(void **s)
{
    (void)s;
    tb_put64(buf, TB_RANGE_OFF(0, TB_R_HIGH), 0x1024, 0);
    expect_error(len, "ranges[0]: high - low = 0x24", "nbins 8 << bin_shift 2 = 0x20");
}

static void hist_past_image(void **s)
{
    (void)s;
    tb_put32(buf, TB_RANGE_OFF(1, TB_R_HIST_OFFSET), (uint32_t)len - 4, 0);
    expect_error(len, "ranges[1].hist_offset 0x", "+ 8 bytes (nbins counters) runs past image_size");
}

static void hist_offset_wraps(void **s)
{
    (void)s;
    tb_put32(buf, TB_RANGE_OFF(0, TB_R_HIST_OFFSET), 0xFFFFFFFE, 0);
    expect_error(len, "ranges[0].hist_offset 0xfffffffe", "image_size");
}

static void hist_in_header(void **s)
{
    (void)s;
    tb_put32(buf, TB_RANGE_OFF(0, TB_R_HIST_OFFSET), 0x20, 0);
    expect_error(len, "ranges[0].hist_offset 0x20", "header");
}

/* The bins can never hold more samples than samples_taken counted. */
static void bins_above_samples_taken(void **s)
{
    struct mp_image img;
    uint64_t binned = 0;

    (void)s;
    assert_int_equal(mp_image_parse(&img, "fw.img", buf, len), 0);
    for (unsigned r = 0; r < img.nranges; r++)
        for (uint32_t b = 0; b < img.ranges[r].nbins; b++)
            binned += mp_image_bin(&img, r, b);
    tb_put32(buf, TB_OFF_SAMPLES_TAKEN, (uint32_t)binned, 0);
    assert_int_equal(mp_image_parse(&img, "fw.img", buf, len), 0); /* exactly: fine */
    tb_put32(buf, TB_OFF_SAMPLES_TAKEN, (uint32_t)binned - 1u, 0);
    expect_error(len, "samples but samples_taken is", "inconsistent");
    tb_put32(buf, TB_OFF_SAMPLES_TAKEN, UINT32_MAX, 0); /* saturated: bounds nothing */
    assert_int_equal(mp_image_parse(&img, "fw.img", buf, len), 0);
}

/* Offsets into the image must be aligned to the width of their field. */
static void offsets_misaligned(void **s)
{
    (void)s;
    uint32_t hist = 0, buckets = 0;
    memcpy(&hist, buf + TB_RANGE_OFF(0, TB_R_HIST_OFFSET), 4);
    tb_put32(buf, TB_RANGE_OFF(0, TB_R_HIST_OFFSET), hist + 1u, 0);
    expect_error(len, "misaligned", NULL);
    tb_put32(buf, TB_RANGE_OFF(0, TB_R_HIST_OFFSET), hist, 0);
    memcpy(&buckets, buf + TB_OFF_BUCKETS_OFFSET, 4);
    tb_put32(buf, TB_OFF_BUCKETS_OFFSET, buckets + 1u, 0);
    expect_error(len, "misaligned", NULL);
}

static void ranges_overlap(void **s)
{
    (void)s;
    tb_put64(buf, TB_RANGE_OFF(1, TB_R_LOW), 0x1010, 0);
    tb_put64(buf, TB_RANGE_OFF(1, TB_R_HIGH), 0x1020, 0);
    expect_error(len, "ranges[0] 0x1000..0x1020 overlaps ranges[1] 0x1010..0x1020", NULL);
}

static void arcs_overlap_buckets(void **s)
{
    (void)s;
    /* buckets start inside the 6 records of 12 bytes at 0x100 */
    tb_put32(buf, TB_OFF_BUCKETS_OFFSET, 0x140, 0);
    expect_error(len, "arcs at 0x100..0x148 overlap buckets at 0x140..0x150", NULL);
}

static void links_past_image(void **s)
{
    (void)s;
    tb_put32(buf, TB_OFF_LINKS_OFFSET, 0x1000, 0);
    expect_error(len, "links_offset 0x1000 + 12 bytes", "image_size");
}

static void links_overlap_arcs(void **s)
{
    (void)s;
    /* the 6 links (12 bytes) start inside the last record */
    tb_put32(buf, TB_OFF_LINKS_OFFSET, 0x140, 0);
    expect_error(len, "arcs at 0x100..0x148 overlap links at 0x140..0x14c", NULL);
}

static void bins_overlap_arcs(void **s)
{
    (void)s;
    tb_put32(buf, TB_RANGE_OFF(1, TB_R_HIST_OFFSET), 0x108, 0);
    expect_error(len, "overlap ranges[1] bins at 0x108..0x110", NULL);
}

static void big_endian_field_named(void **s)
{
    (void)s;
    build(1, 8);
    tb_put32(buf, TB_OFF_ARCS_USED, 9, 1);
    expect_error(len, "arcs_used 9", NULL);
}

static void no_ranges_skips_bin_checks(void **s)
{
    struct mp_image img;

    (void)s;
    buf[TB_OFF_NRANGES] = 0;
    buf[TB_OFF_BIN_SHIFT] = 0;
    buf[TB_OFF_COUNTER_BYTES] = 0;
    assert_int_equal(mp_image_parse(&img, "fw.img", buf, len), 0);
    assert_int_equal(img.nranges, 0);
}

/* The extension list ends at a kind 0 record or at the end of the image
 * (mcuprof/image.h): a task table, the last one, read both ways; an
 * image_size that cuts into the table is still refused. */
static void ext_list_ends_at_image_end(void **s)
{
    static const char *const names[1] = {"worker"};
    struct mp_image img;
    struct tb_image d;
    size_t n;

    (void)s;
    tb_arm(&d);
    d.nranges = 1;
    d.ranges[0] = (struct tb_range){0x1000, 4, bins1};
    d.ntasks = 1;
    d.task_names = names;
    n = tb_build(&d, buf, sizeof(buf));
    assert_true(n > 8);
    /* the runtime's way: the END record (kind 0) in the last 8 bytes */
    assert_int_equal(buf[n - 8] | buf[n - 7], 0);
    assert_int_equal(mp_image_parse(&img, "fw.img", buf, n), 0);
    assert_int_equal(img.next, 1);
    assert_int_equal(img.ext[img.tasks].offset + img.ext[img.tasks].size, n - 8);
    /* the table ends exactly at image_size, no END record */
    tb_put32(buf, TB_OFF_IMAGE_SIZE, (uint32_t)(n - 8), 0);
    mp_diag_reset();
    assert_int_equal(mp_image_parse(&img, "fw.img", buf, n - 8), 0);
    assert_int_equal(mp_error_count(), 0);
    assert_int_equal(img.next, 1);
    assert_true(img.tasks >= 0);
    assert_int_equal(img.ext[img.tasks].used, 1);
    /* one byte short of the table's end */
    tb_put32(buf, TB_OFF_IMAGE_SIZE, (uint32_t)(n - 9), 0);
    expect_error(n - 9, "extension table at 0x", "fits in image_size");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(fields_le32, setup),
        cmocka_unit_test_setup(fields_be32, setup),
        cmocka_unit_test_setup(fields_le64, setup),
        cmocka_unit_test_setup(fields_be64, setup),
        cmocka_unit_test_setup(longer_file_ok, setup),
        cmocka_unit_test_setup(empty_file, setup),
        cmocka_unit_test_setup(too_short_for_magic, setup),
        cmocka_unit_test_setup(short_header, setup),
        cmocka_unit_test_setup(bad_magic, setup),
        cmocka_unit_test_setup(byte_order_mismatch, setup),
        cmocka_unit_test_setup(bad_version, setup),
        cmocka_unit_test_setup(bad_header_size, setup),
        cmocka_unit_test_setup(bad_ptr_size, setup),
        cmocka_unit_test_setup(image_size_below_header, setup),
        cmocka_unit_test_setup(image_size_past_file, setup),
        cmocka_unit_test_setup(record_size_mismatch, setup),
        cmocka_unit_test_setup(capacity_too_large, setup),
        cmocka_unit_test_setup(used_above_capacity, setup),
        cmocka_unit_test_setup(arcs_in_header, setup),
        cmocka_unit_test_setup(arcs_past_image, setup),
        cmocka_unit_test_setup(arcs_offset_wraps, setup),
        cmocka_unit_test_setup(buckets_not_power_of_two, setup),
        cmocka_unit_test_setup(buckets_past_image, setup),
        cmocka_unit_test_setup(hash_shift_too_wide, setup),
        cmocka_unit_test_setup(build_id_too_long, setup),
        cmocka_unit_test_setup(too_many_ranges, setup),
        cmocka_unit_test_setup(bin_shift_out_of_bounds, setup),
        cmocka_unit_test_setup(bad_counter_bytes, setup),
        cmocka_unit_test_setup(range_low_not_below_high, setup),
        cmocka_unit_test_setup(range_low_misaligned, setup),
        cmocka_unit_test_setup(range_high_beyond_32_bits, setup),
        cmocka_unit_test_setup(range_geometry, setup),
        cmocka_unit_test_setup(hist_past_image, setup),
        cmocka_unit_test_setup(hist_offset_wraps, setup),
        cmocka_unit_test_setup(hist_in_header, setup),
        cmocka_unit_test_setup(bins_above_samples_taken, setup),
        cmocka_unit_test_setup(offsets_misaligned, setup),
        cmocka_unit_test_setup(ranges_overlap, setup),
        cmocka_unit_test_setup(arcs_overlap_buckets, setup),
        cmocka_unit_test_setup(links_past_image, setup),
        cmocka_unit_test_setup(links_overlap_arcs, setup),
        cmocka_unit_test_setup(bins_overlap_arcs, setup),
        cmocka_unit_test_setup(big_endian_field_named, setup),
        cmocka_unit_test_setup(no_ranges_skips_bin_checks, setup),
        cmocka_unit_test_setup(ext_list_ends_at_image_end, setup),
    };

    return cmocka_run_group_tests_name("image_read", tests, NULL, NULL);
}

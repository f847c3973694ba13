/*
 * gmon.out writers, byte for byte. Every expected array below is written
 * out by hand from the format descriptions (binutils gprof/gmon_out.h,
 * gmon_io.c, hist.c), field by field, with the derivation in comments.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "diag.h"
#include "gmon_capture.h"
#include "gmon_write.h"
#include "image_builder.h"
#include "image_read.h"
#include "model.h"
#include "profile.h"

#define ARM 40
#define RISCV 243

static uint8_t img_buf[8192];
static uint8_t out[1 << 16];
static size_t out_len;

/* The 15-byte dimension "seconds" NUL padded, then the abbreviation 's'. */
#define SECONDS 's', 'e', 'c', 'o', 'n', 'd', 's', 0, 0, 0, 0, 0, 0, 0, 0, 's'
#define ZERO12 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0

static int setup(void **state)
{
    (void)state;
    mp_diag_quiet(1);
    mp_diag_reset();
    return 0;
}

/* Build D, convert it in FORMAT into `out`; returns the writer's status. */
static int convert(const struct tb_image *d, enum mp_gmon_format format)
{
    struct mp_image img;
    struct mp_model m;
    struct mp_profile p;
    long len;
    size_t n = tb_build(d, img_buf, sizeof(img_buf));

    assert_true(n > 0);
    assert_int_equal(mp_image_parse(&img, "fw.img", img_buf, n), 0);
    assert_int_equal(mp_model_from_image(&m, &img), 0);
    if (mp_profile_prepare(&p, &m) < 0) {
        mp_model_free(&m);
        return -1;
    }
    len = gmon_capture(&p, format, out, sizeof(out));
    out_len = len < 0 ? 0 : (size_t)len;
    mp_profile_free(&p);
    mp_model_free(&m);
    return len < 0 ? -1 : 0;
}

static void expect_output(const uint8_t *want, size_t want_len)
{
    size_t i;

    for (i = 0; i < want_len && i < out_len; i++) {
        if (out[i] != want[i])
            fail_msg("byte %zu: got 0x%02x, want 0x%02x", i, out[i], want[i]);
    }
    assert_int_equal(out_len, want_len);
}

/* Little-endian ARM, 4-byte addresses: one range 0x100..0x108 of two
 * 4-byte bins (3 and 0x1234 samples), 1000 Hz; an arc from a Thumb return
 * address 0x10b to 0x101 (7 calls), and one from an interrupt (EXC_RETURN
 * 0xfffffff9) to 0x201 (2 calls). */
static const uint32_t arm_bins[2] = {3, 0x1234};
static const struct tb_arc arm_arcs[2] = {{0x10B, 0x101, 7}, {0xFFFFFFF9, 0x201, 2}};

static struct tb_image arm_le(void)
{
    struct tb_image d;

    tb_arm(&d);
    d.nranges = 1;
    d.ranges[0] = (struct tb_range){0x100, 2, arm_bins};
    d.narcs = 2;
    d.arcs = arm_arcs;
    return d;
}

static void gnu_arm_le32(void **s)
{
    static const uint8_t want[] = {
        'g', 'm', 'o', 'n', 1, 0, 0, 0, ZERO12, /* header, version 1 */
        0,                                      /* tag: histogram */
        0x00, 0x01, 0, 0,                       /* lowpc 0x100 */
        0x08, 0x01, 0, 0,                       /* highpc 0x108 */
        2, 0, 0, 0,                             /* 2 bins */
        0xe8, 0x03, 0, 0,                       /* 1000 Hz */
        SECONDS,
        3, 0, 0x34, 0x12,                       /* bins 3, 0x1234 */
        1,                                      /* tag: arc */
        0x08, 0x01, 0, 0,                       /* (0x10b & ~1) - 2 = 0x108 */
        0x00, 0x01, 0, 0,                       /* 0x101 & ~1 */
        7, 0, 0, 0,
        1,                                      /* tag: arc */
        0, 0, 0, 0,                             /* EXC_RETURN: no caller */
        0x00, 0x02, 0, 0,                       /* 0x201 & ~1 */
        2, 0, 0, 0,
    };
    struct tb_image d = arm_le();

    (void)s;
    assert_int_equal(convert(&d, MP_GMON_GNU), 0);
    expect_output(want, sizeof(want));
    assert_int_equal(mp_warning_count(), 0);
}

static void bsd_arm_le32(void **s)
{
    static const uint8_t want[] = {
        0x00, 0x01, 0, 0,       /* lowpc 0x100 */
        0x08, 0x01, 0, 0,       /* highpc 0x108 */
        36, 0, 0, 0,            /* ncnt: 32-byte header + 2 bins * 2 */
        0x79, 0x18, 0x05, 0x00, /* version 0x00051879 */
        0xe8, 0x03, 0, 0,       /* profrate 1000 */
        ZERO12,                 /* spare */
        3, 0, 0x34, 0x12,       /* bins */
        0x08, 0x01, 0, 0, 0x00, 0x01, 0, 0, 7, 0, 0, 0, /* arc, 4-byte count */
        0, 0, 0, 0, 0x00, 0x02, 0, 0, 2, 0, 0, 0,
    };
    struct tb_image d = arm_le();

    (void)s;
    assert_int_equal(convert(&d, MP_GMON_BSD), 0);
    expect_output(want, sizeof(want));
}

/* Big-endian RISC-V, 8-byte addresses, 4-byte counters, two ranges with
 * 2-byte bins: range 0 0x80000000..0x80000004 holds 70000 and 5 samples,
 * range 1 0x80001000..0x80001002 holds 65535. 10000 Hz. Arcs: return
 * address 0x80000012 to 0x80001001 with a saturated count, and from 1
 * (cannot be code) to 0x80000000 (4 calls). */
static const uint32_t rv_bins0[2] = {70000, 5};
static const uint32_t rv_bins1[1] = {65535};
static const struct tb_arc rv_arcs[2] = {{0x80000012, 0x80001001, 0xFFFFFFFF}, {1, 0x80000000, 4}};

static struct tb_image rv_be(unsigned nranges)
{
    struct tb_image d;

    memset(&d, 0, sizeof(d));
    d.big = 1;
    d.ptr_size = 8;
    d.machine = RISCV;
    d.rate = 10000;
    d.bin_shift = 1;
    d.counter_bytes = 4;
    d.nranges = nranges;
    d.ranges[0] = (struct tb_range){0x80000000, 2, rv_bins0};
    d.ranges[1] = (struct tb_range){0x80001000, 1, rv_bins1};
    d.narcs = 2;
    d.arcs = rv_arcs;
    return d;
}



static void gnu_rv_be64(void **s)
{
    static const uint8_t want[] = {
        'g', 'm', 'o', 'n', 0, 0, 0, 1, ZERO12,
        /* range 0, first record: each bin up to 65535 */
        0, 0, 0, 0, 0, 0x80, 0, 0x00, 0x00, 0, 0, 0, 0, 0x80, 0, 0x00, 0x04,
        0, 0, 0, 2, 0, 0, 0x27, 0x10, SECONDS,
        0xff, 0xff, 0x00, 0x05,
        /* range 0 again: what is above 65535, 70000 - 65535 = 4465 */
        0, 0, 0, 0, 0, 0x80, 0, 0x00, 0x00, 0, 0, 0, 0, 0x80, 0, 0x00, 0x04,
        0, 0, 0, 2, 0, 0, 0x27, 0x10, SECONDS,
        0x11, 0x71, 0x00, 0x00,
        /* range 1: 65535 fits one record */
        0, 0, 0, 0, 0, 0x80, 0, 0x10, 0x00, 0, 0, 0, 0, 0x80, 0, 0x10, 0x02,
        0, 0, 0, 1, 0, 0, 0x27, 0x10, SECONDS,
        0xff, 0xff,
        /* arcs: 0x80000012 - 2; selfpc unchanged on RISC-V */
        1, 0, 0, 0, 0, 0x80, 0, 0, 0x10, 0, 0, 0, 0, 0x80, 0, 0x10, 0x01,
        0xff, 0xff, 0xff, 0xff,
        /* frompc 1 is not code: 0 */
        1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0, 0, 0,
        0, 0, 0, 4,
    };
    struct tb_image d = rv_be(2);

    (void)s;
    assert_int_equal(convert(&d, MP_GMON_GNU), 0);
    expect_output(want, sizeof(want));
    /* the saturated arc is written as is, with one warning */
    assert_int_equal(mp_warning_count(), 1);
    assert_non_null(strstr(mp_last_warning(), "1 arc is saturated"));
}

static void bsd_rv_be64(void **s)
{
    static const uint8_t want[] = {
        0, 0, 0, 0, 0x80, 0, 0, 0,    /* lowpc */
        0, 0, 0, 0, 0x80, 0, 0, 0x04, /* highpc */
        0, 0, 0, 44,                  /* ncnt: 40-byte header + 2 bins * 2 */
        0x00, 0x05, 0x18, 0x79,       /* version */
        0, 0, 0x13, 0x88,             /* profrate 10000 / 2 */
        ZERO12,
        0x88, 0xb8, 0x00, 0x03,       /* 70000 and 5 divided by 2 (to the nearest): 35000, 3 */
        /* arcs with 8-byte counts, as gmon_io.c reads them on 64-bit */
        0, 0, 0, 0, 0x80, 0, 0, 0x10, 0, 0, 0, 0, 0x80, 0, 0x10, 0x01,
        0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 4,
    };
    struct tb_image d = rv_be(1);

    (void)s;
    assert_int_equal(convert(&d, MP_GMON_BSD), 0);
    expect_output(want, sizeof(want));
    assert_int_equal(mp_warning_count(), 2);
    assert_non_null(strstr(mp_last_warning(), "holds 70000 samples, above 65535"));
    assert_non_null(strstr(mp_last_warning(), "divided by 2"));
}

static void bsd_refuses_two_ranges(void **s)
{
    struct tb_image d = rv_be(2);

    (void)s;
    assert_int_equal(convert(&d, MP_GMON_BSD), -1);
    assert_non_null(strstr(mp_last_error(),
                           "nranges 2 (0x80000000..0x80000004, 0x80001000..0x80001002)"));
    assert_non_null(strstr(mp_last_error(), "--format gnu"));
}

/* Little-endian 8-byte addresses, big-endian 4-byte ones: the two other
 * combinations of order and width. */
static void gnu_arm_be32(void **s)
{
    static const uint8_t want[] = {
        'g', 'm', 'o', 'n', 0, 0, 0, 1, ZERO12,
        0, 0, 0, 0x01, 0x00, 0, 0, 0x01, 0x08, 0, 0, 0, 2, 0, 0, 0x03, 0xe8, SECONDS,
        0, 3, 0x12, 0x34,
        1, 0, 0, 0x01, 0x08, 0, 0, 0x01, 0x00, 0, 0, 0, 7,
        1, 0, 0, 0, 0, 0, 0, 0x02, 0x00, 0, 0, 0, 2,
    };
    struct tb_image d = arm_le();

    (void)s;
    d.big = 1;
    assert_int_equal(convert(&d, MP_GMON_GNU), 0);
    expect_output(want, sizeof(want));
}

static void bsd_rv_le64(void **s)
{
    static const uint8_t want[] = {
        0, 0, 0, 0x80, 0, 0, 0, 0,
        0x04, 0, 0, 0x80, 0, 0, 0, 0,
        44, 0, 0, 0,
        0x79, 0x18, 0x05, 0x00,
        0x88, 0x13, 0, 0,             /* 10000 Hz / 2 */
        ZERO12,
        0xb8, 0x88, 0x03, 0x00,       /* 70000 and 5 divided by 2: 35000, 3 */
        0x10, 0, 0, 0x80, 0, 0, 0, 0, 0x01, 0x10, 0, 0x80, 0, 0, 0, 0,
        0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0, 0, 0, 0,
        4, 0, 0, 0, 0, 0, 0, 0,
    };
    struct tb_image d = rv_be(1);

    (void)s;
    d.big = 0;
    assert_int_equal(convert(&d, MP_GMON_BSD), 0);
    expect_output(want, sizeof(want));
}

/* No ranges: one empty 1-bin histogram spanning the arcs' addresses
 * (0x100 to 0x200, plus 2 so the last one is inside), rate 0 written as 1. */
static void no_ranges_gets_empty_histogram(void **s)
{
    static const uint8_t want[] = {
        'g', 'm', 'o', 'n', 1, 0, 0, 0, ZERO12,
        0, 0x00, 0x01, 0, 0, 0x02, 0x02, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, SECONDS,
        0, 0,
        1, 0x08, 0x01, 0, 0, 0x00, 0x01, 0, 0, 7, 0, 0, 0,
        1, 0, 0, 0, 0, 0x00, 0x02, 0, 0, 2, 0, 0, 0,
    };
    struct tb_image d = arm_le();

    (void)s;
    d.nranges = 0;
    d.rate = 0;
    assert_int_equal(convert(&d, MP_GMON_GNU), 0);
    expect_output(want, sizeof(want));
    assert_int_equal(mp_warning_count(), 1);
    assert_non_null(strstr(mp_last_warning(), "nranges 0"));
}

static void nothing_to_convert(void **s)
{
    struct tb_image d = arm_le();

    (void)s;
    d.nranges = 0;
    d.narcs = 0;
    assert_int_equal(convert(&d, MP_GMON_GNU), -1);
    assert_non_null(strstr(mp_last_error(), "nranges 0 and arcs_used 0"));
}

static void rate_zero_with_samples(void **s)
{
    struct tb_image d = arm_le();

    (void)s;
    d.rate = 0;
    assert_int_equal(convert(&d, MP_GMON_GNU), 0);
    /* rate field of the histogram record: offset 20 + 1 + 4 + 4 + 4 */
    assert_int_equal(out[33], 1);
    assert_int_equal(out[34] | out[35] | out[36], 0);
    assert_non_null(strstr(mp_last_warning(), "sample_rate_hz is 0 but the bins hold 4663 samples"));
}

static void saturated_bin_warns(void **s)
{
    static const uint32_t bins[2] = {0xFFFF, 1};
    struct tb_image d = arm_le();

    (void)s;
    d.ranges[0].bins = bins;
    assert_int_equal(convert(&d, MP_GMON_GNU), 0);
    /* one record: 0xffff fits */
    assert_int_equal(out_len, 20 + 1 + 4 + 4 + 4 + 4 + 16 + 4 + 2 * 13);
    assert_int_equal(out[53], 0xff);
    assert_int_equal(out[54], 0xff);
    assert_int_equal(mp_warning_count(), 1);
    assert_non_null(strstr(mp_last_warning(), "1 histogram bin is saturated at 0xffff"));
}

static void huge_bins_clamped_for_gprof(void **s)
{
    static const uint32_t bins[2] = {0xFFFFFFFF, 0x80000000};
    struct tb_image d = arm_le();

    (void)s;
    d.counter_bytes = 4;
    d.ranges[0].bins = bins;
    d.narcs = 0;
    /* 0x7fffffff would need ceil(0x7fffffff / 65535) = 32769 records;
     * at most 256 are written: every bin divided by k = ceil(0x7fffffff /
     * (256 * 65535)) = 129, the largest 16647160, in 255 records of
     * 1 + 4 + 4 + 4 + 4 + 16 + 2 * 2 = 37 bytes */
    out_len = 0;
    {
        struct mp_image img;
        struct mp_model m;
        struct mp_profile p;
        uint64_t size;
        size_t n = tb_build(&d, img_buf, sizeof(img_buf));

        assert_int_equal(mp_image_parse(&img, "fw.img", img_buf, n), 0);
        assert_int_equal(mp_model_from_image(&m, &img), 0);
        assert_int_equal(mp_profile_prepare(&p, &m), 0);
        assert_non_null(strstr(mp_last_warning(), "2 histogram bins are above 2147483647"));
        assert_int_equal(mp_gmon_size(&p, MP_GMON_GNU, &size), 0);
        assert_non_null(strstr(mp_last_warning(), "divided by 129"));
        assert_true(size == 20 + 255ull * 37);
        assert_int_equal(mp_profile_bin(&p, 0, 0), 0x7FFFFFFF);
        mp_profile_free(&p);
        mp_model_free(&m);
    }
}

/* A counter does not size the output: an image of 16000 bins of 4-byte
 * counters (64.8 KB) whose samples_taken is saturated, so no bound holds
 * its bins, each at 0x7fffffff. gmon.out would need 32769 records of the
 * range, 1.05 GB; at most 256 are written (every bin and the rate
 * divided by 129: 255 records of 33 + 2 * 16000 bytes), with a warning,
 * and the bins read back times 129 are the image's within half of 129. */
static void counter_does_not_size_the_output(void **s)
{
    enum { NBINS = 16000 };
    static uint32_t bins[NBINS];
    static uint8_t image[NBINS * 4 + 1024];
    static uint8_t gmon[255 * (33 + 2 * NBINS) + 20];
    struct tb_image d;
    struct mp_image img;
    struct mp_model m, back;
    struct mp_profile p;
    uint64_t size;
    size_t n, i;
    long len;

    (void)s;
    for (i = 0; i < NBINS; i++)
        bins[i] = 0x7FFFFFFF;
    tb_arm(&d);
    d.counter_bytes = 4;
    d.nranges = 1;
    d.ranges[0] = (struct tb_range){0x100000, NBINS, bins};
    d.samples_taken = UINT32_MAX;
    d.samples_exact = 1;
    n = tb_build(&d, image, sizeof(image));
    assert_true(n > 64000 && n < 66000);
    assert_int_equal(mp_image_parse(&img, "fw.img", image, n), 0);
    assert_int_equal(mp_model_from_image(&m, &img), 0);
    assert_int_equal(mp_profile_prepare(&p, &m), 0);
    mp_diag_reset();
    assert_int_equal(mp_gmon_size(&p, MP_GMON_GNU, &size), 0);
    assert_true(size == 20 + 255ull * (33 + 2 * NBINS));
    assert_int_equal(mp_warning_count(), 1);
    assert_string_equal(mp_last_warning(),
                        "fw.img: a histogram bin holds 2147483647 samples, more than the 256 records of its range a"
                        " gmon.out carries (65535 each): every bin and the rate (1000 Hz) divided by 129, so seconds"
                        " and shares stay right within rounding");
    len = gmon_capture(&p, MP_GMON_GNU, gmon, sizeof(gmon));
    assert_true(len >= 0 && (uint64_t)len == size);
    assert_int_equal(mp_model_from_gmon(&back, "gmon.out", gmon, (size_t)len), 0);
    assert_int_equal(back.nranges, 1);
    assert_int_equal(back.sample_rate_hz, 8); /* 1000 / 129 to the nearest */
    for (i = 0; i < NBINS; i++)
        assert_true(back.ranges[0].bins[i] == 16647160); /* 0x7fffffff / 129 to the nearest */
    mp_model_free(&back);
    mp_profile_free(&p);
    mp_model_free(&m);
}

/* The spill table (counts above 65535 on the target): arm_le() whose
 * bin 0 holds 3 after 2 carries, 131075 samples. */
static const struct tb_spill arm_carried[1] = {{0, 0, 2}};

static struct tb_image arm_spill(void)
{
    struct tb_image d = arm_le();

    d.narcs = 0;
    d.spill_capacity = 4;
    d.nspill = 1;
    d.spill = arm_carried;
    return d;
}

/* GNU: 131075 = 65535 + 65535 + 5: three records of the same range,
 * which gprof adds bin by bin (tests/unit/test_gprof.c reads them back). */
static void gnu_repeats_the_range(void **s)
{
#define REC(b0lo, b0hi, b1lo, b1hi)                                                                    \
    0, 0x00, 0x01, 0, 0, 0x08, 0x01, 0, 0, 2, 0, 0, 0, 0xe8, 0x03, 0, 0, SECONDS, b0lo, b0hi, b1lo, b1hi
    static const uint8_t want[] = {
        'g', 'm', 'o', 'n', 1, 0, 0, 0, ZERO12,
        REC(0xff, 0xff, 0x34, 0x12), /* up to 65535 each */
        REC(0xff, 0xff, 0, 0),       /* 131075 - 65535 = 65540: 65535 more */
        REC(5, 0, 0, 0),             /* the last 5 */
    };
#undef REC
    struct tb_image d = arm_spill();

    (void)s;
    assert_int_equal(convert(&d, MP_GMON_GNU), 0);
    expect_output(want, sizeof(want));
    assert_int_equal(mp_warning_count(), 0);
}

/* Counts within 65535 with a spill table present (an entry whose carry is
 * not yet counted): one record, byte for byte what an image without the
 * table gives. */
static void gnu_unchanged_without_carries(void **s)
{
    static const struct tb_spill none[1] = {{0, 0, 0}};
    static const uint8_t want[] = {
        'g', 'm', 'o', 'n', 1, 0, 0, 0, ZERO12,
        0, 0x00, 0x01, 0, 0, 0x08, 0x01, 0, 0, 2, 0, 0, 0, 0xe8, 0x03, 0, 0, SECONDS, 3, 0, 0x34, 0x12,
    };
    struct tb_image d = arm_spill();

    (void)s;
    d.spill = none;
    assert_int_equal(convert(&d, MP_GMON_GNU), 0);
    expect_output(want, sizeof(want));
    d.spill_capacity = 0;
    d.nspill = 0;
    assert_int_equal(convert(&d, MP_GMON_GNU), 0);
    expect_output(want, sizeof(want));
}

/* BSD: one record. k = ceil(131075 / 65535) = 3: bins (131075 + 1) / 3 =
 * 43692 and (4660 + 1) / 3 = 1553, rate (1000 + 1) / 3 = 333. */
static void bsd_scales_bins_and_rate(void **s)
{
    static const uint8_t want[] = {
        0x00, 0x01, 0, 0,       /* lowpc */
        0x08, 0x01, 0, 0,       /* highpc */
        36, 0, 0, 0,            /* ncnt: 32 + 2 * 2 */
        0x79, 0x18, 0x05, 0x00, /* version */
        0x4d, 0x01, 0, 0,       /* profrate 333 */
        ZERO12,
        0xac, 0xaa, 0x11, 0x06, /* 43692, 1553 */
    };
    struct tb_image d = arm_spill();

    (void)s;
    assert_int_equal(convert(&d, MP_GMON_BSD), 0);
    expect_output(want, sizeof(want));
    assert_int_equal(mp_warning_count(), 1);
    assert_non_null(strstr(mp_last_warning(), "holds 131075 samples, above 65535"));
    assert_non_null(strstr(mp_last_warning(), "divided by 3"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(gnu_arm_le32, setup),
        cmocka_unit_test_setup(bsd_arm_le32, setup),
        cmocka_unit_test_setup(gnu_rv_be64, setup),
        cmocka_unit_test_setup(bsd_rv_be64, setup),
        cmocka_unit_test_setup(bsd_refuses_two_ranges, setup),
        cmocka_unit_test_setup(gnu_arm_be32, setup),
        cmocka_unit_test_setup(bsd_rv_le64, setup),
        cmocka_unit_test_setup(no_ranges_gets_empty_histogram, setup),
        cmocka_unit_test_setup(nothing_to_convert, setup),
        cmocka_unit_test_setup(rate_zero_with_samples, setup),
        cmocka_unit_test_setup(saturated_bin_warns, setup),
        cmocka_unit_test_setup(huge_bins_clamped_for_gprof, setup),
        cmocka_unit_test_setup(counter_does_not_size_the_output, setup),
        cmocka_unit_test_setup(gnu_repeats_the_range, setup),
        cmocka_unit_test_setup(gnu_unchanged_without_carries, setup),
        cmocka_unit_test_setup(bsd_scales_bins_and_rate, setup),
    };

    return cmocka_run_group_tests_name("gmon_write", tests, NULL, NULL);
}

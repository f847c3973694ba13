/*
 * How far the time profile can be trusted: the sampler timing fields, the
 * Wilson interval, every warning at and above its threshold, gprof's
 * attribution of shared bins on a hand-made function table, and the
 * function table read from ELF files (good and bad).
 *
 * usage: test_trust [ARM_SYMS_ELF]  (the ELF tests are skipped without it)
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
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
#include "build_check.h"
#include "elf_funcs.h"
#include "image_builder.h"
#include "image_read.h"
#include "model.h"
#include "profile_sum.h"
#include "trust.h"
#include "wilson.h"

static const char *arm_syms_elf;
static uint8_t buf[4096];
static struct mp_image img;
static uint32_t bins[6];

/* An ARM image of one range 0xff0..0x1050 in six 16-byte bins. */
static void make_image(struct tb_image *d)
{
    tb_arm(d);
    d->bin_shift = 4;
    d->nranges = 1;
    d->ranges[0] = (struct tb_range){0xff0, 6, bins};
}

static void parse(const struct tb_image *d)
{
    size_t n = tb_build(d, buf, sizeof(buf));

    assert_true(n > 0);
    mp_diag_reset();
    assert_int_equal(mp_image_parse(&img, "t.img", buf, n), 0);
}

/* The model of D, which the checks read. */
static void model_of(const struct tb_image *d, struct mp_model *m)
{
    parse(d);
    assert_int_equal(mp_model_from_image(m, &img), 0);
}

static int quiet(void **s)
{
    (void)s;
    mp_diag_quiet(1);
    return 0;
}

/* ---- header fields ---------------------------------------------------- */

static void timing_fields(void **s)
{
    struct tb_image d;
    size_t n;

    (void)s;
    make_image(&d);
    d.missed_periods = 77;
    d.timer_period = 2500;
    d.missed_source = 1;
    d.jitter_percent = 25;
    n = tb_build(&d, buf, sizeof(buf));
    /* reserved words are ignored: a later format may use them */
    buf[242] = 0xAA;
    tb_put32(buf, 244, 0xDEADBEEF, 0);
    assert_int_equal(mp_image_parse(&img, "t.img", buf, n), 0);
    assert_int_equal(img.missed_periods, 77);
    assert_int_equal(img.timer_period, 2500);
    assert_int_equal(img.missed_source, 1);
    assert_int_equal(img.jitter_percent, 25);
    assert_string_equal(mp_missed_source_name(img.missed_source), "mtime");
    assert_string_equal(mp_missed_source_name(3), "clock");
    assert_null(mp_missed_source_name(4));
}

static void missed_source_out_of_range(void **s)
{
    struct tb_image d;
    size_t n;

    (void)s;
    make_image(&d);
    d.missed_source = 4;
    n = tb_build(&d, buf, sizeof(buf));
    mp_diag_reset();
    assert_int_equal(mp_image_parse(&img, "t.img", buf, n), -1);
    assert_non_null(strstr(mp_last_error(), "missed_source 4"));
}

/* pull --interval adds drained images up: missed_periods like a loss */
static void sum_adds_missed_periods(void **s)
{
    static uint8_t second[4096];
    struct mp_image a, b, summed;
    struct tb_image d;
    struct mp_sum sum;
    uint8_t *data;
    size_t n, len;

    (void)s;
    make_image(&d);
    d.missed_periods = 3;
    d.missed_source = 2;
    d.timer_period = 25000;
    d.jitter_percent = 10;
    n = tb_build(&d, buf, sizeof(buf));
    assert_int_equal(mp_image_parse(&a, "a.img", buf, n), 0);
    d.missed_periods = 4;
    n = tb_build(&d, second, sizeof(second));
    assert_int_equal(mp_image_parse(&b, "b.img", second, n), 0);
    mp_sum_init(&sum);
    assert_int_equal(mp_sum_add(&sum, &a), 0);
    assert_int_equal(mp_sum_add(&sum, &b), 0);
    assert_int_equal(mp_sum_image(&sum, &data, &len), 0);
    assert_int_equal(mp_image_parse(&summed, "sum", data, len), 0);
    assert_int_equal(summed.missed_periods, 7);
    assert_int_equal(summed.missed_source, 2);
    assert_int_equal(summed.timer_period, 25000);
    assert_int_equal(summed.jitter_percent, 10);
    free(data);
    mp_sum_free(&sum);
}

/* ---- Wilson ----------------------------------------------------------- */

static void wilson_values(void **s)
{
    double lo, hi;

    (void)s;
    /* hand-computed with z = 1.959964:
     * 5/10:     centre 0.5, half 1.96 sqrt(0.025 + 0.009604) / 1.384146 */
    mp_wilson(5, 10, &lo, &hi);
    assert_float_equal(lo, 0.236593, 1e-5);
    assert_float_equal(hi, 0.763407, 1e-5);
    /* 0/10: the normal approximation gives 0..0; Wilson 0..0.277533 */
    mp_wilson(0, 10, &lo, &hi);
    assert_float_equal(lo, 0.0, 1e-12);
    assert_float_equal(hi, 0.277533, 1e-5);
    /* 100/1000 */
    mp_wilson(100, 1000, &lo, &hi);
    assert_float_equal(lo, 0.082909, 1e-5);
    assert_float_equal(hi, 0.120152, 1e-5);
    /* 1/1 stays inside [0, 1] */
    mp_wilson(1, 1, &lo, &hi);
    assert_float_equal(hi, 1.0, 1e-12);
    assert_float_equal(lo, 0.206549, 1e-5);
    mp_wilson(3, 0, &lo, &hi);
    assert_float_equal(lo, 0.0, 0.0);
    assert_float_equal(hi, 1.0, 0.0);
}

/* ---- warnings --------------------------------------------------------- */

static const struct mp_trust_opts defaults = MP_TRUST_DEFAULTS;

/* Warnings for D with options O: their number, the last one's text. */
static unsigned warnings(const struct tb_image *d, const struct mp_trust_opts *o)
{
    struct mp_model m;

    model_of(d, &m);
    mp_diag_reset();
    mp_trust_warn(&m, o);
    mp_model_free(&m);
    return mp_warning_count();
}

/* 10000 samples in bins; LOST of one counter added to samples_taken. */
static void lossy(struct tb_image *d, unsigned which, uint32_t lost)
{
    make_image(d);
    memset(bins, 0, sizeof(bins));
    bins[2] = 10000;
    d->counter_bytes = 4;
    d->lost[which] = lost;
    d->samples_taken = 10000 + lost;
}

static void loss_warnings(void **s)
{
    static const unsigned which[] = {MP_LOST_SAMPLES_OUT_OF_RANGE, MP_LOST_SAMPLES_SATURATED,
                                     MP_LOST_SAMPLES_FROZEN};
    struct tb_image d;
    unsigned i;

    (void)s;
    for (i = 0; i < 3; i++) {
        /* 101 of 10101 is 0.9999 %: at the threshold, no warning */
        lossy(&d, which[i], 101);
        assert_int_equal(warnings(&d, &defaults), 0);
        /* 102 of 10102 is 1.0097 % */
        lossy(&d, which[i], 102);
        assert_int_equal(warnings(&d, &defaults), 1);
        assert_non_null(strstr(mp_last_warning(), mp_lost_names[which[i]]));
        assert_non_null(strstr(mp_last_warning(), "102 is 1.01 % of 10102 samples taken"));
        /* the option moves the threshold */
        {
            struct mp_trust_opts o = defaults;

            o.warn_pct = 2.0;
            assert_int_equal(warnings(&d, &o), 0);
        }
    }
}

static void few_samples_warning(void **s)
{
    struct tb_image d;
    struct mp_trust_opts o = defaults;

    (void)s;
    make_image(&d);
    memset(bins, 0, sizeof(bins));
    bins[1] = 999;
    d.samples_taken = 999;
    assert_int_equal(warnings(&d, &defaults), 1);
    /* Wilson at 99.9/999: 0.08204..0.12061, half-width 1.93 points */
    assert_non_null(strstr(mp_last_warning(), "only 999 samples (fewer than 1000)"));
    assert_non_null(strstr(mp_last_warning(), "+- 1.9 points"));
    bins[1] = 1000;
    d.samples_taken = 1000;
    assert_int_equal(warnings(&d, &defaults), 0);
    o.min_samples = 1001;
    assert_int_equal(warnings(&d, &o), 1);
    /* no samples at all */
    bins[1] = 0;
    d.samples_taken = 0;
    assert_int_equal(warnings(&d, &defaults), 1);
    assert_non_null(strstr(mp_last_warning(), "no samples"));
    /* no ranges: no time profile to judge */
    d.nranges = 0;
    assert_int_equal(warnings(&d, &defaults), 0);
}

static void taken_short_is_recomputed(void **s)
{
    struct tb_image d;
    struct mp_model m;
    struct mp_time_seen t;

    (void)s;
    lossy(&d, MP_LOST_SAMPLES_OUT_OF_RANGE, 50);
    d.samples_taken = 0;
    model_of(&d, &m);
    mp_model_time_seen(&m, &t);
    assert_int_equal(m.c.binned, 10000);
    assert_int_equal(t.taken, 10050);
    assert_true(t.taken_derived);
    mp_model_free(&m);
}

/* ---- gprof's attribution on a hand-made table -------------------------- */

static struct mp_func funcs[4];
static struct mp_functab tab = {"t.elf", 40, 4, funcs, 4, NULL};

static void shared_bins(void **s)
{
    struct mp_model m;
    struct tb_image d;
    struct mp_trust_opts o = defaults;

    (void)s;
    /* A 0x1000..0x100c, B ..0x1020, C ..0x1040, _mcount ..0x1050 */
    funcs[0] = (struct mp_func){0x1000, 0x100c, 12, "A", 0, 1, 0, 0, NULL};
    funcs[1] = (struct mp_func){0x100c, 0x1020, 20, "B", 0, 1, 0, 0, NULL};
    funcs[2] = (struct mp_func){0x1020, 0x1040, 30, "C", 0, 1, 0, 0, NULL};
    funcs[3] = (struct mp_func){0x1040, 0x1050, 16, "_mcount", 0, 1, 1, 0, NULL};
    make_image(&d);
    /* below every function, A+B shared, B, C, C, _mcount */
    bins[0] = 5, bins[1] = 40, bins[2] = 20, bins[3] = 10, bins[4] = 0, bins[5] = 25;
    d.samples_taken = 100;
    model_of(&d, &m);
    assert_int_equal(mp_model_attach_functab(&m, &tab), 0);
    assert_float_equal(m.funcs[0].self, 30.0, 1e-9); /* 12 of 16 bytes of 40 */
    assert_float_equal(m.funcs[1].self, 30.0, 1e-9); /* 4 of 16 bytes of 40, + 20 */
    assert_float_equal(m.funcs[2].self, 10.0, 1e-9);
    assert_float_equal(m.funcs[3].self, 25.0, 1e-9);
    assert_float_equal(m.outside, 5.0, 1e-9);
    assert_float_equal(m.hidden, 25.0, 1e-9);
    assert_float_equal(m.gprof_total, 70.0, 1e-9);
    assert_int_equal(m.shared_bins, 1);
    assert_int_equal(m.shared_samples, 40);
    assert_int_equal(m.npairs, 1);
    assert_int_equal(m.pairs[0].a, 0);
    assert_int_equal(m.pairs[0].b, 1);
    assert_true(m.funcs[0].shared && m.funcs[1].shared && !m.funcs[2].shared && !m.funcs[3].shared);
    /* B starts at 0x100c: 4-byte bins separate it; 0x60 bytes / 4 * 2 */
    assert_int_equal(m.finer_shift, 2);
    assert_int_equal(m.finer_ram, 48);

    mp_diag_reset();
    mp_trust_warn(&m, &o);
    /* too few samples, shared bins, hidden samples */
    assert_int_equal(mp_warning_count(), 3);
    o.min_samples = 0;
    o.shared_pct = 40.0; /* 40 of 100 binned: at the threshold */
    mp_diag_reset();
    mp_trust_warn(&m, &o);
    assert_int_equal(mp_warning_count(), 1);
    assert_non_null(strstr(mp_last_warning(), "gprof hides"));
    o.shared_pct = 39.0;
    mp_diag_reset();
    mp_trust_warn(&m, &o);
    assert_int_equal(mp_warning_count(), 2);

    assert_int_equal(mp_model_find_func(&m, 0xfff), -1);
    assert_int_equal(mp_model_find_func(&m, 0x100b), 0);
    assert_int_equal(mp_model_find_func(&m, 0x100c), 1);
    assert_int_equal(mp_model_find_func(&m, 0x104f), 3);
    assert_int_equal(mp_model_find_func(&m, 0x1050), -1);
    mp_model_free(&m);

    /* the same table without the hidden function: the shared warning only */
    funcs[3].hidden = 0;
    model_of(&d, &m);
    assert_int_equal(mp_model_attach_functab(&m, &tab), 0);
    assert_float_equal(m.gprof_total, 95.0, 1e-9);
    mp_diag_reset();
    mp_trust_warn(&m, &o);
    assert_int_equal(mp_warning_count(), 1);
    assert_non_null(strstr(mp_last_warning(), "40 samples (40.00 % of 100 binned) lie in 1 bins"));
    assert_non_null(strstr(mp_last_warning(), "start each function on a 16-byte bin (-ffunction-sections and "
                                              "cmake/mcuprof_align.cmake on each object"));
    assert_non_null(strstr(mp_last_warning(), "BIN_SHIFT 2: RAM = code size / bin size * 2 bytes = 48 bytes"));
    assert_non_null(strstr(mp_last_warning(), "worst: A + B (40)"));
    funcs[3].hidden = 1;
    mp_model_free(&m);
}

/* The call hook's own entry points share bins among themselves (labels in
 * one piece of assembly): no shared-bin warning, no advice, their time
 * theirs; a user's function in a bin with them is still a shared bin. */
static void hook_bins(void **s)
{
    struct mp_model m;
    struct tb_image d;
    struct mp_trust_opts o = defaults;

    (void)s;
    o.min_samples = 0;
    /* bins from 0xff0: __gnu_mcount_nc 0xff0..0x1004, mcuprof_hook_off
     * ..0x1008, mcuprof_hook_record ..0x1024, mcuprof_hook_slow ..0x1030,
     * work ..0x1050 */
    funcs[0] = (struct mp_func){0xff0, 0x1004, 20, "__gnu_mcount_nc", 0, 1, 0, 0, NULL};
    funcs[1] = (struct mp_func){0x1004, 0x1008, 4, "mcuprof_hook_off", 0, 1, 0, 0, NULL};
    funcs[2] = (struct mp_func){0x1008, 0x1024, 28, "mcuprof_hook_record", 0, 1, 0, 0, NULL};
    funcs[3] = (struct mp_func){0x1024, 0x1050, 44, "mcuprof_hook_slow", 0, 1, 0, 0, NULL};
    make_image(&d);
    bins[0] = 10, bins[1] = 30, bins[2] = 20, bins[3] = 8, bins[4] = 2, bins[5] = 30;
    d.samples_taken = 100;
    model_of(&d, &m);
    assert_int_equal(mp_model_attach_functab(&m, &tab), 0);
    assert_int_equal(m.shared_bins, 0);
    assert_int_equal(m.shared_samples, 0);
    assert_int_equal(m.npairs, 0);
    assert_true(!m.funcs[0].shared && !m.funcs[1].shared && !m.funcs[2].shared && !m.funcs[3].shared);
    /* every sample is the hook's, split among its entries as gprof splits */
    assert_float_equal(m.funcs[0].self + m.funcs[1].self + m.funcs[2].self + m.funcs[3].self, 100.0, 1e-9);
    assert_float_equal(m.funcs[1].self, 30.0 * 4 / 16, 1e-9);
    mp_diag_reset();
    mp_trust_warn(&m, &o);
    assert_int_equal(mp_warning_count(), 0);
    mp_model_free(&m);

    /* a user's function starting inside mcuprof_hook_slow's last bin */
    funcs[3].end = 0x1038;
    funcs[3].size = 20;
    tab.n = 5;
    {
        static struct mp_func more[5];

        memcpy(more, funcs, sizeof(funcs));
        more[4] = (struct mp_func){0x1038, 0x1050, 24, "work", 0, 1, 0, 0, NULL};
        tab.f = more;
        model_of(&d, &m);
        assert_int_equal(mp_model_attach_functab(&m, &tab), 0);
        tab.f = funcs;
        tab.n = 4;
    }
    assert_int_equal(m.shared_bins, 1);
    assert_int_equal(m.shared_samples, 2);
    assert_int_equal(m.npairs, 1);
    assert_string_equal(m.funcs[m.pairs[0].a].name, "mcuprof_hook_slow");
    assert_string_equal(m.funcs[m.pairs[0].b].name, "work");
    mp_model_free(&m);
}

/* ---- the ELF ----------------------------------------------------------- */

static char tmpdir[64];

static const char *tmpfile_with(const char *name, const void *data, size_t len)
{
    static char path[128];

    snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
    assert_int_equal(tb_write_file(path, data, len), 0);
    return path;
}

static void bad_elves(void **s)
{
    static const char text[] = "not an ELF at all\n";
    /* a valid ELF32 header with no sections at all */
    uint8_t eh[52] = {0x7f, 'E', 'L', 'F', 1, 1, 1};
    struct mp_functab t;
    struct tb_image d;
    const char *p;

    (void)s;
    eh[16] = 2;  /* ET_EXEC */
    eh[18] = 40; /* EM_ARM */
    eh[20] = 1;  /* EV_CURRENT */
    eh[40] = 52; /* e_ehsize */
    mp_diag_reset();
    p = tmpfile_with("text.elf", text, sizeof(text) - 1);
    assert_int_equal(mp_functab_read(&t, p), -1);
    assert_non_null(strstr(mp_last_error(), "not an ELF"));
    p = tmpfile_with("bare.elf", eh, sizeof(eh));
    assert_int_equal(mp_functab_read(&t, p), -1);
    assert_non_null(strstr(mp_last_error(), "no symbols"));
    assert_int_equal(mp_functab_read(&t, "/nonexistent/fw.elf"), -1);
    assert_non_null(strstr(mp_last_error(), "cannot open"));

    /* this test program is an ELF for the host: not an ARM image's */
    if (mp_functab_read(&t, "/proc/self/exe") == 0) {
        struct mp_model m;

        make_image(&d);
        model_of(&d, &m);
        assert_int_equal(mp_model_attach_functab(&m, &t), -1);
        assert_non_null(strstr(mp_last_error(), "differs from the image's machine 40 (ARM)"));
        mp_model_free(&m);
        mp_functab_free(&t);
    }
}

static const struct mp_func *by_name(const struct mp_functab *t, const char *name)
{
    size_t i;

    for (i = 0; i < t->n; i++) {
        if (strcmp(t->f[i].name, name) == 0)
            return &t->f[i];
    }
    return NULL;
}

/* gprof/arm_syms.S: aliases, a label, mapping symbols, _mcount */
static void elf_symbol_rules(void **s)
{
    struct mp_functab t;
    const struct mp_func *f;
    size_t i;

    (void)s;
    if (!arm_syms_elf || access(arm_syms_elf, R_OK) != 0)
        skip();
    assert_int_equal(mp_functab_read(&t, arm_syms_elf), 0);
    assert_int_equal(t.machine, 40);
    for (i = 0; i < t.n; i++) {
        assert_null(strchr(t.f[i].name, '$'));
        if (i + 1 < t.n)
            assert_true(t.f[i].addr < t.f[i + 1].addr);
    }
    /* Thumb bit cleared; extent to the next symbol, padding included */
    f = by_name(&t, "sym_first");
    assert_non_null(f);
    assert_int_equal(f->addr & 1, 0);
    assert_int_equal(f->size, 6);
    assert_int_equal(f->end - f->addr, 16);
    /* of the aliases the global function without underscore survives */
    assert_non_null(by_name(&t, "sym_alias"));
    assert_null(by_name(&t, "_sym_alias_u"));
    assert_null(by_name(&t, "sym_alias_local"));
    /* an untyped local label is a gprof symbol of its own */
    f = by_name(&t, "sym_label");
    assert_non_null(f);
    assert_int_equal(f->is_static, 1);
    assert_int_equal(f->is_func, 0);
    /* hidden by gprof */
    f = by_name(&t, "_mcount");
    assert_non_null(f);
    assert_int_equal(f->hidden, 1);
    /* the last symbol reaches the end of its section */
    f = by_name(&t, "sym_last");
    assert_non_null(f);
    assert_int_equal(f->end - f->addr, 4);
    mp_functab_free(&t);
}

/* A small ARM image fw.img at 0x20000010 for the place checks; its size. */
static size_t placed_image(struct mp_image *img)
{
    static uint8_t buf[4096];
    struct tb_image d;
    size_t n;

    tb_small(&d, 0x20000010, 8);
    d.machine = 40;
    n = tb_build(&d, buf, sizeof(buf));
    assert_true(n > 0);
    assert_int_equal(mp_image_parse(img, "fw.img", buf, n), 0);
    return n;
}

/* The ELF's __mcuprof_start/_end must be where the image says it lives. */
static void image_place_against_elf(void **s)
{
    struct mp_image img;
    size_t n = placed_image(&img);

    (void)s;
    struct mp_elf_info elf = {.path = "fw.elf", .has_region = 1, .start = 0x20000010,
                              .end = 0x20000010 + n, .machine = 40, .ptr_size = 4};
    mp_diag_reset();
    assert_int_equal(mp_build_check(&img, &elf, 0), 0); /* right place; no build-ids: a warning */
    assert_int_equal(mp_error_count(), 0);
    elf.start += 0x100;
    elf.end += 0x100;
    assert_int_equal(mp_build_check(&img, &elf, 0), -1);
    assert_non_null(strstr(mp_last_error(), "lies at 0x20000010"));
    assert_non_null(strstr(mp_last_error(), "not this firmware's image"));
    mp_diag_reset();
    assert_int_equal(mp_build_check(&img, &elf, 1), 0); /* --force: a warning */
    assert_int_equal(mp_error_count(), 0);
    assert_int_equal(mp_warning_count(), 2); /* the place, and no build-ids */
    elf.start -= 0x100;
    elf.end -= 0x100 + 8; /* same address, another size (another ARCS) */
    assert_int_equal(mp_build_check(&img, &elf, 0), -1);
    elf.has_region = 0; /* an ELF without the symbols cannot tell */
    assert_int_equal(mp_build_check(&img, &elf, 0), 0);
}

/* An ELF whose __mcuprof_end lies below __mcuprof_start: said as the two
 * symbols are, not as a size that wrapped; --force goes on with a warning. */
static void image_place_inverted(void **s)
{
    struct mp_image img;

    (void)s;
    placed_image(&img);
    struct mp_elf_info elf = {.path = "fw.elf", .has_region = 1, .start = 0x20000010,
                              .end = 0x10000000, .machine = 40, .ptr_size = 4};
    mp_diag_reset();
    assert_int_equal(mp_build_check(&img, &elf, 0), -1);
    assert_string_equal(mp_last_error(), "fw.elf: __mcuprof_end 0x10000000 lies below __mcuprof_start "
                                         "0x20000010: no place to check fw.img against");
    mp_diag_reset();
    assert_int_equal(mp_build_check(&img, &elf, 1), 0);
    assert_int_equal(mp_error_count(), 0);
    assert_int_equal(mp_warning_count(), 2); /* the symbols, and no build-ids */
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(timing_fields),
        cmocka_unit_test(image_place_inverted),
        cmocka_unit_test(missed_source_out_of_range),
        cmocka_unit_test(sum_adds_missed_periods),
        cmocka_unit_test(wilson_values),
        cmocka_unit_test(loss_warnings),
        cmocka_unit_test(few_samples_warning),
        cmocka_unit_test(taken_short_is_recomputed),
        cmocka_unit_test(shared_bins),
        cmocka_unit_test(hook_bins),
        cmocka_unit_test(bad_elves),
        cmocka_unit_test(elf_symbol_rules),
        cmocka_unit_test(image_place_against_elf),
    };
    int ret;

    arm_syms_elf = argc > 1 ? argv[1] : NULL;
    snprintf(tmpdir, sizeof(tmpdir), "/tmp/mcuprof-trust-XXXXXX");
    if (!mkdtemp(tmpdir))
        return 1;
    ret = cmocka_run_group_tests(tests, quiet, NULL);
    {
        /* the test's files, then its folder: no shell, so Windows too */
        DIR *d = opendir(tmpdir);
        struct dirent *e;
        char path[sizeof(tmpdir) + sizeof(e->d_name) + 2];

        while (d && (e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
                snprintf(path, sizeof(path), "%s/%s", tmpdir, e->d_name);
                if (remove(path) != 0)
                    ret = 1;
            }
        }
        if (!d || closedir(d) != 0 || rmdir(tmpdir) != 0)
            ret = 1;
    }
    return ret;
}

/*
 * The built `mcuprof` binary, run as a user would: every failure gives
 * exactly one line on stderr starting with "mcuprof: error:", a non-zero
 * exit status, no output file and no temporary file left behind; an
 * existing output survives a failed conversion untouched.
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
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include <mcuprof/image.h>

#include "formats.h"
#include "image_builder.h"
#include "stderr_line.h"

#ifndef MCUPROF_BIN
#error "MCUPROF_BIN: path of the mcuprof binary under test"
#endif
#ifndef MCUPROF_TEST_ARM_ELF
#error "MCUPROF_TEST_ARM_ELF: path of gprof/arm_prog.S linked (absent without arm-none-eabi-gcc)"
#endif

static char dir[64];
static char path_img[128], path_out[128], path_err[128], path_stdout[128];
static uint8_t img[4096];
static size_t img_len;

static const uint32_t bins[4] = {1, 2, 3, 4};
/* Every test runs twice: on a 32-bit ARM image and on a 64-bit RISC-V one.
 * The second arc's caller is not code in both (an EXC_RETURN value on ARM,
 * below 2 on RISC-V). */
static const struct tb_arc arcs_arm[2] = {{0x1009, 0x1011, 5}, {0xFFFFFFF9, 0x1001, 2}};
static const struct tb_arc arcs_rv64[2] = {{0x1009, 0x1011, 5}, {0x1, 0x1001, 2}};
static int image_64bit;

static int use_32bit_arm(void **state)
{
    (void)state;
    image_64bit = 0;
    return 0;
}

static int use_64bit_riscv(void **state)
{
    (void)state;
    image_64bit = 1;
    return 0;
}

static void describe_valid(struct tb_image *d)
{
    memset(d, 0, sizeof(*d));
    d->ptr_size = image_64bit ? 8 : 4;
    d->machine = image_64bit ? 243 : 40;
    d->rate = 1000;
    d->bin_shift = 2;
    d->counter_bytes = 2;
    d->nranges = 1;
    d->ranges[0] = (struct tb_range){0x1000, 4, bins};
    d->narcs = 2;
    d->arcs = image_64bit ? arcs_rv64 : arcs_arm;
}

static void build_valid(void)
{
    struct tb_image d;

    describe_valid(&d);
    img_len = tb_build(&d, img, sizeof(img));
    assert_true(img_len > 0);
}

static int setup(void **state)
{
    (void)state;
    strcpy(dir, "/tmp/mcuprof-cli-XXXXXX");
    assert_non_null(mkdtemp(dir));
    snprintf(path_img, sizeof(path_img), "%s/fw.img", dir);
    snprintf(path_out, sizeof(path_out), "%s/gmon.out", dir);
    snprintf(path_err, sizeof(path_err), "%s/stderr.txt", dir);
    snprintf(path_stdout, sizeof(path_stdout), "%s/stdout.txt", dir);
    build_valid();
    return 0;
}

static int teardown(void **state)
{
    char cmd[160];

    (void)state;
    snprintf(cmd, sizeof(cmd), "chmod -R u+w %s; rm -rf %s", dir, dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* Run mcuprof with ARGS; stdout and stderr go to files. Returns the exit
 * status. */
static int run(const char *fmt, ...)
{
    char args[512], cmd[1024];
    va_list ap;
    int st;

    va_start(ap, fmt);
    vsnprintf(args, sizeof(args), fmt, ap);
    va_end(ap);
    snprintf(cmd, sizeof(cmd), "%s %s >%s 2>%s", MCUPROF_BIN, args, path_stdout, path_err);
    st = system(cmd);
    assert_true(WIFEXITED(st));
    return WEXITSTATUS(st);
}

static size_t slurp(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    size_t n;

    assert_non_null(f);
    n = fread(buf, 1, cap - 1, f);
    buf[n] = '\0';
    fclose(f);
    return n;
}

/* stderr holds exactly one line, an error; returns that line. */
static const char *one_error_line(void)
{
    static char err[4096];
    size_t n = slurp(path_err, err, sizeof(err));

    if (n == 0 || err[n - 1] != '\n' || strchr(err, '\n') != err + n - 1)
        fail_msg("stderr is not exactly one line: '%s'", err);
    if (strncmp(err, "mcuprof: error: ", 16) != 0)
        fail_msg("stderr does not start with 'mcuprof: error: ': '%s'", err);
    return err;
}

/* Nothing in the directory but the input and the captured streams (no
 * output, no temporary file). */
static void no_output_left(void)
{
    struct dirent *e;
    DIR *d = opendir(dir);

    assert_non_null(d);
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
            strcmp(e->d_name, "fw.img") == 0 || strcmp(e->d_name, "stderr.txt") == 0 ||
            strcmp(e->d_name, "stdout.txt") == 0 || strcmp(e->d_name, "ro") == 0)
            continue;
        closedir(d);
        fail_msg("left behind: %s/%s", dir, e->d_name);
    }
    closedir(d);
}

static void write_input(const uint8_t *data, size_t n)
{
    assert_int_equal(tb_write_file(path_img, data, n), 0);
}

/* Convert the current input and expect a clean failure naming WHAT. */
static void expect_convert_fails(const char *what)
{
    const char *line;

    assert_int_equal(run("convert %s -o %s", path_img, path_out), 1);
    line = one_error_line();
    if (!strstr(line, what))
        fail_msg("'%s' does not mention '%s'", line, what);
    no_output_left();
}

static void converts_valid_image(void **s)
{
    char buf[256];
    struct stat st;

    (void)s;
    write_input(img, img_len);
    /* 10 samples: only the too-few-samples warning, which is switched
     * off; the line that says the file was written: the bins 1 + 2 + 3 +
     * 4, the two arcs */
    assert_int_equal(run("convert %s -o %s --min-samples 0", path_img, path_out), 0);
    snprintf(buf, sizeof(buf), "mcuprof: wrote %s: 10 samples, 2 arcs, nothing lost", path_out);
    expect_stderr_line(path_err, buf);
    assert_int_equal(stat(path_out, &st), 0);
    {
        /* with the warning: same exit status, same bytes */
        char cmp[512];

        assert_int_equal(run("convert %s -o %s.warned", path_img, path_out), 0);
        slurp(path_err, buf, sizeof(buf));
        assert_non_null(strstr(buf, "warning"));
        assert_non_null(strstr(buf, "only 10 samples"));
        assert_non_null(strstr(buf, ".warned (gnu): 10 samples, 2 arcs, nothing lost\n"));
        snprintf(cmp, sizeof(cmp), "cmp -s %s %s.warned", path_out, path_out);
        assert_int_equal(system(cmp), 0);
        snprintf(cmp, sizeof(cmp), "%s.warned", path_out);
        unlink(cmp);
    }
    /* 20 header + (tag + 2 addresses + 25 + 4 bins * 2) histogram + 2 arcs
     * of (tag + 2 addresses + count) */
    size_t addr = image_64bit ? 8 : 4;
    assert_int_equal(st.st_size, 20 + (1 + 2 * addr + 24 + 8) + 2 * (1 + 2 * addr + 4));
    assert_int_equal(run("--format bsd %s", "") , 2); /* not a command */
    assert_int_equal(run("convert --format bsd -o %s.bsd %s", path_out, path_img), 0);
    assert_int_equal(run("info %s.bsd", path_out), 0);
    slurp(path_stdout, buf, sizeof(buf));
    assert_non_null(strstr(buf, "BSD 4.4"));
    assert_int_equal(run("info %s", path_out), 0);
    slurp(path_stdout, buf, sizeof(buf));
    assert_non_null(strstr(buf, "GNU tagged"));
}

static void info_lists_every_counter(void **s)
{
    static const char *const names[] = {
        "lost_arcs_table_full", "lost_calls_reentrant", "lost_calls_frozen",
        "lost_samples_out_of_range", "lost_samples_saturated", "lost_samples_frozen",
        "samples_taken", "saturated arcs", "saturated bins", "generation", "build-id",
    };
    char buf[8192];
    size_t i;

    (void)s;
    write_input(img, img_len);
    assert_int_equal(run("info %s", path_img), 0);
    slurp(path_stdout, buf, sizeof(buf));
    for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        if (!strstr(buf, names[i]))
            fail_msg("info output lacks %s", names[i]);
    }
    assert_non_null(strstr(buf, "0x1000..0x1010, 4 bins"));
    assert_non_null(strstr(buf, "callers outside code         1 arcs, 2 calls"));
    assert_null(strstr(buf, "call paths")); /* no path table */
}

/* The path table: how full, what it lost, the ten heaviest paths (of
 * 2000 samples: 1900 in paths, 100 lost), named with the ELF of
 * gprof/arm_prog.S (main_fn 0x1000, work_a 0x1020, work_b 0x1040, ender
 * 0x1060; frames as recorded, Thumb bit set). */
static void info_lists_call_paths(void **s)
{
    struct tb_path paths[15] = {
        {900, 3, 0, {0x1009, 0x1049, 0x1069}},
        {0, 2, 0, {0x1009, 0x1049}}, /* drained: not listed */
        {500, 2, 0, {0x1009, 0x1029}},
        {300, 2, 1, {0x1049, 0x1029}}, /* truncated */
    };
    struct tb_image d;
    char buf[8192];
    unsigned i;

    (void)s;
    for (i = 4; i < 15; i++) /* 20 samples each, outside every function; the last unused */
        paths[i] = (struct tb_path){i < 14 ? 20 : 0, 1, i == 4 ? 2 : 0, {0x40000001 + 0x10 * (i - 4)}};
    describe_valid(&d);
    d.path_depth_max = 4;
    d.paths = paths;
    d.npaths = 15;
    d.paths_lost = 100;
    d.paths_invalid = 300;
    write_input(img, tb_build(&d, img, sizeof(img)));
    assert_int_equal(run("info %s", path_img), 0);
    slurp(path_stdout, buf, sizeof(buf));
    assert_non_null(strstr(buf, "\ncall paths\n"
                                "  paths in use                 15 of 15 (13 with samples), up to 4 frames each\n"
                                "  lost                         100 samples (the table was full)\n"
                                "  past depth                   300 samples (deeper than the shadow stack: frames"
                                " missing at [...])\n"
                                "  top 10 paths by samples (share of the 2000 the table counted, lost included):\n"));
    if (!image_64bit) {
        assert_non_null(strstr(buf, "    0x1008 > 0x1048 > 0x1068  900 (45.00 %)\n"
                                    "    0x1008 > 0x1028  500 (25.00 %)\n"
                                    "    [truncated] > 0x1048 > 0x1028  300 (15.00 %)\n"
                                    "    [cut at task switch] > 0x40000000  20 (1.00 %)\n"
                                    "    0x40000010  20 (1.00 %)\n"));
        assert_non_null(strstr(buf, "    0x40000060  20 (1.00 %)\n"));
        assert_null(strstr(buf, "0x40000070"));
    }
    /* the block comes after the state and before the trust summary */
    assert_true(strstr(buf, "not recorded\n") < strstr(buf, "call paths\n"));
    if (image_64bit || access(MCUPROF_TEST_ARM_ELF, R_OK) != 0)
        return; /* the names need the ARM ELF, built with arm-none-eabi-gcc */
    assert_int_equal(run("info %s --elf %s", path_img, MCUPROF_TEST_ARM_ELF), 0);
    slurp(path_stdout, buf, sizeof(buf));
    assert_non_null(strstr(buf, "    main_fn > work_b > ender  900 (45.00 %)\n"
                                "    main_fn > work_a  500 (25.00 %)\n"
                                "    [truncated] > work_b > work_a  300 (15.00 %)\n"
                                "    [cut at task switch] > 0x40000000  20 (1.00 %)\n"));
}

/* An ARM image of ten 16-byte bins from 0x1000 (work_a, work_b of the ARM
 * ELF): 3420 samples taken, MISSED periods missed (cyccnt), DEFERRED
 * samples deferred, periods charged where two late samples landed
 * (0x1024: 464, 0x1044: 16), IRQ 5 at SysTick's priority. */
static void describe_timing(struct tb_image *d, const uint32_t *tbins, uint32_t missed, uint32_t deferred)
{
    static const struct tb_late late[] = {{0x1024, 300, 464}, {0x1044, 20, 16}};
    static const struct tb_blocker irq5[] = {{0x10000015u, 0x00, 0x00, 1}};

    describe_valid(d);
    d->bin_shift = 4;
    d->ranges[0] = (struct tb_range){0x1000, 10, tbins};
    d->samples_taken = 3420;
    d->samples_exact = 1;
    d->missed_periods = missed;
    d->missed_source = 2;
    d->timing_flags = 7;
    d->deferred_samples = deferred;
    d->has_late = d->has_blockers = 1;
    d->nlate = 2;
    d->late = late;
    d->nblockers = 1;
    d->blockers = irq5;
}

/* The sampler's timing: the periods it missed charged where interrupts
 * came back on (work_a, work_b of the ARM ELF), its deferred samples and
 * an interrupt at its priority, in info, report, convert and JSON. */
static void says_sampler_timing(void **s)
{
    static const uint32_t tbins[10] = {0, 0, 2000 + 464, 0, 1420 + 16};
    static const char masked[] = "interrupts masked: 12.3 % of the time (480 periods of 3900), charged where they"
                                 " came back on: ";
    static const char blocker[] = "IRQ 5 (exception 21) is enabled at priority 0x00, as urgent as the sampler's"
                                  " (SysTick 0x00): SysTick cannot preempt its handler, whose time is charged to the"
                                  " code it interrupted. Give it a less urgent priority, e.g. NVIC_SetPriority(5, 1)";
    struct tb_image d;
    char out[16384], err[8192];

    (void)s;
    if (image_64bit)
        return;
    describe_timing(&d, tbins, 480, 1230);
    write_input(img, tb_build(&d, img, sizeof(img)));
    assert_int_equal(run("info %s", path_img), 0);
    slurp(path_stdout, out, sizeof(out));
    slurp(path_err, err, sizeof(err));
    assert_non_null(strstr(out, "\nsampler timing\n"
                                "  timing_flags                 0x0007 (deferred, charged, blockers)\n"
                                "  deferred_samples             1230 (35.96 % of samples)\n"
                                "  late samples                 2 places, 0 late samples lost (table full)\n"
                                "  blockers                     1, 0 lost (table full)\n"
                                "  - interrupts masked: 12.3 % of the time (480 periods of 3900), charged where they"
                                " came back on: 0x1024 11.9 %, 0x1044 0.4 %\n"
                                "  - the sampler was held off at 36.0 % of its samples (1230 of 3420 deferred by less"
                                " than a period)"));
    assert_non_null(strstr(out, blocker));
    assert_non_null(strstr(out, "  all_samples                  3900 (sampler periods: samples_taken + the missed"
                                " periods charged to the bins)\n"));
    assert_non_null(strstr(out, "+- 1.01 points at a 10 % share (95 %, 3420 samples)"));
    /* warnings: all three on stderr */
    assert_non_null(strstr(err, masked));
    assert_non_null(strstr(err, "the sampler was held off at 36.0 %"));
    assert_non_null(strstr(err, blocker));
    /* JSON: the header counters where the others are */
    assert_int_equal(run("info %s --json", path_img), 0);
    slurp(path_stdout, out, sizeof(out));
    assert_non_null(strstr(out, "\"timing_flags\": 7,\n    \"deferred_samples\": 1230,"));
    /* convert warns the same */
    assert_int_equal(run("convert %s -o %s", path_img, path_out), 0);
    slurp(path_err, err, sizeof(err));
    assert_non_null(strstr(err, blocker));
    if (access(MCUPROF_TEST_ARM_ELF, R_OK) != 0)
        return; /* the names need the ARM ELF, built with arm-none-eabi-gcc */
    assert_int_equal(run("info %s --elf %s", path_img, MCUPROF_TEST_ARM_ELF), 0);
    slurp(path_stdout, out, sizeof(out));
    assert_non_null(strstr(out, "  - interrupts masked: 12.3 % of the time (480 periods of 3900), charged where they"
                                " came back on: work_a 11.9 %, work_b 0.4 %\n"));
    assert_non_null(strstr(out, "self time by function (as gprof attributes it; % of sampler periods 3900, 95 %"
                                " Wilson interval over the samples taken, not the periods charged)\n"));
    assert_int_equal(run("report %s --elf %s", path_img, MCUPROF_TEST_ARM_ELF), 0);
    slurp(path_stdout, out, sizeof(out));
    assert_non_null(strstr(out, "  sampler periods              3900 (samples_taken + the missed periods charged to the"
                                " bins)\n"));
    assert_non_null(strstr(out, "  missed_periods               480 (12.31 % of sampler periods, counted by cyccnt)\n"));
    assert_non_null(strstr(out, "work_a 11.9 %, work_b 0.4 %\n"));
}

/* Late samples held off by a handler the sampler cannot preempt: binned
 * nowhere, the shares of the time the sampler could see, said in info,
 * report and JSON. */
static void says_held_off(void **s)
{
    static const uint32_t tbins[10] = {0, 0, 2000 + 464, 0, 1240 + 16};
    static const char held[] = "held off by a handler the sampler cannot preempt: 6.1 % of the time (180 samples, 60"
                               " periods, late by at least 320 timer ticks) is in no function; the shares are of the"
                               " time the sampler could see. Interrupts it cannot preempt: IRQ 5 (exception 21) (9"
                               " looks)";
    struct tb_image d;
    char out[16384], err[8192];

    (void)s;
    if (image_64bit)
        return;
    describe_timing(&d, tbins, 540, 400);
    d.has_held = 1;
    d.held = (struct tb_held){180, 60, 320, 9};
    write_input(img, tb_build(&d, img, sizeof(img)));
    assert_int_equal(run("info %s", path_img), 0);
    slurp(path_stdout, out, sizeof(out));
    slurp(path_err, err, sizeof(err));
    assert_non_null(strstr(out, "  held off                     180 samples, 60 periods (late by at least 320 timer"
                                " ticks), 9 looks for blockers\n"));
    assert_non_null(strstr(out, "  - interrupts masked: 12.1 % of the time (480 periods of 3960), charged where they"
                                " came back on: 0x1024 11.7 %, 0x1044 0.4 %\n"));
    assert_non_null(strstr(out, held));
    assert_non_null(strstr(out, "whose time is in no function (the sample after it is held off, binned nowhere)"));
    assert_non_null(strstr(out, "  all_samples                  3720 (sampler periods: samples_taken less the"
                                " samples held off, plus the missed periods charged to the bins)\n"));
    assert_non_null(strstr(out, "(95 %, 3240 samples)"));
    assert_non_null(strstr(err, held));
    assert_int_equal(run("info %s --json", path_img), 0);
    slurp(path_stdout, out, sizeof(out));
    assert_non_null(strstr(out, "\"samples_total\": 3720,"));
    assert_non_null(strstr(out, "\"held\": {\"samples\": 180, \"periods\": 60, \"threshold\": 320, \"scans\": 9}"));
    if (access(MCUPROF_TEST_ARM_ELF, R_OK) != 0)
        return;
    assert_int_equal(run("report %s --elf %s", path_img, MCUPROF_TEST_ARM_ELF), 0);
    slurp(path_stdout, out, sizeof(out));
    assert_non_null(strstr(out, "  sampler periods              3720 (samples_taken less the samples held off, plus"
                                " the missed periods charged to the bins)\n"));
    assert_non_null(strstr(out, "  missed_periods               540 (13.64 % of sampler periods, counted by"
                                " cyccnt)\n"));
    assert_non_null(strstr(out, "work_a 11.7 %, work_b 0.4 %\n"));
}

static void truncated_image(void **s)
{
    (void)s;
    write_input(img, img_len - 10);
    expect_convert_fails("runs past the end of the file");
    write_input(img, 200);
    expect_convert_fails("shorter than the 256-byte header");
}

static void wrong_magic(void **s)
{
    (void)s;
    memcpy(img, "ELF!", 4);
    write_input(img, img_len);
    expect_convert_fails("magic bytes");
}

static void unknown_version(void **s)
{
    (void)s;
    tb_put16(img, TB_OFF_VERSION, 7, 0);
    write_input(img, img_len);
    expect_convert_fails("version 7");
}

static void geometry_outside(void **s)
{
    (void)s;
    tb_put32(img, TB_OFF_BUCKETS_OFFSET, 0x7FFFFFFF, 0);
    write_input(img, img_len);
    expect_convert_fails("buckets_offset 0x7fffffff");
}

static void random_bytes(void **s)
{
    uint8_t junk[3000];
    uint32_t x = 12345;
    size_t i;

    (void)s;
    for (i = 0; i < sizeof(junk); i++) {
        x = x * 1103515245u + 12345u;
        junk[i] = (uint8_t)(x >> 16);
    }
    write_input(junk, sizeof(junk));
    expect_convert_fails("magic bytes");
    /* the same junk behind a valid magic and byte order */
    memcpy(junk, MCUPROF_IMAGE_MAGIC_LE, 4);
    junk[TB_OFF_BYTE_ORDER] = 1;
    write_input(junk, sizeof(junk));
    expect_convert_fails("fw.img:");
}

static void empty_file(void **s)
{
    (void)s;
    write_input(img, 0);
    expect_convert_fails("empty");
    assert_int_equal(run("info %s", path_img), 1);
    one_error_line();
}

static void missing_file(void **s)
{
    (void)s;
    expect_convert_fails("fw.img: cannot open");
    assert_int_equal(run("info %s/none", dir), 1);
    one_error_line();
}

static void output_dir_not_writable(void **s)
{
    char ro[128];

    (void)s;
    write_input(img, img_len);
    /* a missing directory */
    assert_int_equal(run("convert %s -o %s/no/such/dir/gmon.out", path_img, dir), 1);
    assert_non_null(strstr(one_error_line(), "cannot create temporary output"));
    /* a read-only directory; root writes anywhere, so it also gets a
     * directory nobody can create files in */
    snprintf(ro, sizeof(ro), "%s/ro", dir);
    assert_int_equal(mkdir(ro, 0555), 0);
    if (geteuid() != 0) {
        assert_int_equal(run("convert %s -o %s/gmon.out", path_img, ro), 1);
        assert_non_null(strstr(one_error_line(), "Permission denied"));
    }
    assert_int_equal(run("convert %s -o /proc/mcuprof-gmon.out", path_img), 1);
    one_error_line();
    no_output_left();
    assert_int_equal(rmdir(ro), 0);
}

/* Warnings raised before a failure are not printed: the failure is one
 * line. Here a saturated arc (a warning) meets --format bsd with two
 * ranges (an error). */
static void failure_prints_only_the_error(void **s)
{
    static const struct tb_arc sat[1] = {{0x1009, 0x1011, 0xFFFFFFFF}};
    struct tb_image d;

    (void)s;
    tb_arm(&d);
    d.nranges = 2;
    d.ranges[0] = (struct tb_range){0x1000, 4, bins};
    d.ranges[1] = (struct tb_range){0x2000, 4, bins};
    d.narcs = 1;
    d.arcs = sat;
    img_len = tb_build(&d, img, sizeof(img));
    write_input(img, img_len);
    assert_int_equal(run("convert %s -o %s --format bsd", path_img, path_out), 1);
    assert_non_null(strstr(one_error_line(), "--format gnu"));
    no_output_left();
    /* in the GNU format it converts, with the warning */
    assert_int_equal(run("convert %s -o %s", path_img, path_out), 0);
    {
        char err[512];

        slurp(path_err, err, sizeof(err));
        assert_non_null(strstr(err, "mcuprof: warning: "));
        assert_non_null(strstr(err, "saturated"));
    }
}

/* Every output written is said, one line each, once all are in place:
 * the format named where the file's name does not tell it (gmon.out is
 * gnu's default, mcuprof.pb.gz pprof's); -q and --quiet say nothing. */
static void says_each_file_written(void **s)
{
    char want[1024];

    (void)s;
    write_input(img, img_len);
    assert_int_equal(chdir(dir), 0);
    assert_int_equal(run("convert fw.img --min-samples 0 --format gnu,pprof,bsd:b.gmon,pprof:prof.pb.gz"), 0);
    snprintf(want, sizeof(want), "%s",
             "mcuprof: wrote gmon.out: 10 samples, 2 arcs, nothing lost\n"
             "mcuprof: wrote mcuprof.pb.gz: 10 samples, 2 arcs, nothing lost\n"
             "mcuprof: wrote b.gmon (bsd): 10 samples, 2 arcs, nothing lost\n"
             "mcuprof: wrote prof.pb.gz (pprof): 10 samples, 2 arcs, nothing lost\n"
             /* once, for both pprof outputs */
             "mcuprof: note: fw.img: no call paths: the runtime was built without PATHS: each time sample is one "
             "frame, so the flame graph is one level and the graph has no edges in time; -sample_index=calls has "
             "the call graph, in calls");
    expect_stderr_line(path_err, want);
    assert_int_equal(run("convert fw.img --min-samples 0 -q --format json,pprof:q.pb.gz"), 0);
    expect_stderr_line(path_err, ""); /* no note either */
    assert_int_equal(run("convert fw.img --min-samples 0 --quiet --format bsd:b.gmon"), 0);
    expect_stderr_line(path_err, "");
    /* quiet keeps the warnings */
    assert_int_equal(run("convert fw.img -q -o q.gmon"), 0);
    expect_stderr_line(path_err, "mcuprof: warning: fw.img: only 10 samples (fewer than 1000): a 10 % share is "
                                 "known to +- 19.3 points (95 %); run longer or raise the sample rate");
    assert_int_equal(chdir("/"), 0);
}

/* Convert the image D describes in the test's directory with ARGS
 * (after "convert fw.img --min-samples 0") and expect stderr to be WANT. */
static void convert_says(const struct tb_image *d, const char *args, const char *want)
{
    img_len = tb_build(d, img, sizeof(img));
    write_input(img, img_len);
    assert_int_equal(chdir(dir), 0);
    assert_int_equal(run("convert fw.img --min-samples 0 %s", args), 0);
    expect_stderr_line(path_err, want);
    assert_int_equal(chdir("/"), 0);
}

/* The losses named with the words of the warnings, counts grouped by
 * thousands: 3 calls (arc table full), 1 reentrant, 12,000 samples frozen
 * of 12,010 taken (a warning too, said once, also with two outputs each
 * of which the warning concerns). */
static void names_the_losses(void **s)
{
    struct tb_image d;

    (void)s;
    describe_valid(&d);
    d.lost[0] = 3;
    d.lost[1] = 1;
    d.lost[5] = 12000;
    convert_says(&d, "--format gnu:a.gmon,json",
                 "mcuprof: wrote a.gmon (gnu): 10 samples, 2 arcs, 3 calls lost (arc table full), 1 call lost "
                 "(reentrant), 12,000 samples lost (frozen)\n"
                 "mcuprof: wrote mcuprof.json: 10 samples, 2 arcs, 3 calls lost (arc table full), 1 call lost "
                 "(reentrant), 12,000 samples lost (frozen)\n"
                 "mcuprof: warning: fw.img: lost_samples_frozen 12000 is 99.92 % of 12010 samples taken: taken "
                 "while a host snapshot was in progress; pull less often");
}

/* A warning the writer of each gmon.out gives (a saturated arc) is one
 * fact: said once for two outputs (it was said by each). */
static void says_a_warning_once(void **s)
{
    static const struct tb_arc sat[1] = {{0x1009, 0x1011, 0xFFFFFFFF}};
    struct tb_image d;

    (void)s;
    describe_valid(&d);
    d.narcs = 1;
    d.arcs = sat;
    convert_says(&d, "--format gnu:a.gmon,bsd:b.gmon",
                 "mcuprof: wrote a.gmon (gnu): 10 samples, 1 arc, nothing lost\n"
                 "mcuprof: wrote b.gmon (bsd): 10 samples, 1 arc, nothing lost\n"
                 "mcuprof: warning: fw.img: 1 arc is saturated at count 0xffffffff: written as is, a lower bound");
}

static void failure_keeps_old_output(void **s)
{
    char buf[64];

    (void)s;
    assert_int_equal(tb_write_file(path_out, (const uint8_t *)"old", 3), 0);
    tb_put16(img, TB_OFF_VERSION, 9, 0);
    write_input(img, img_len);
    assert_int_equal(run("convert %s -o %s", path_img, path_out), 1);
    one_error_line();
    assert_int_equal(slurp(path_out, buf, sizeof(buf)), 3);
    assert_string_equal(buf, "old");
    assert_int_equal(unlink(path_out), 0);
    no_output_left();
}

static void usage_errors(void **s)
{
    char buf[256], help[2048], *summary, *end;
    size_t i;

    (void)s;
    write_input(img, img_len);
    assert_int_equal(run("convert"), 2);
    one_error_line();
    assert_int_equal(run("convert %s --format xml", path_img), 2);
    assert_non_null(strstr(one_error_line(), "unknown format 'xml'"));
    assert_int_equal(run("convert %s --bogus", path_img), 2);
    one_error_line();
    assert_int_equal(run("frobnicate"), 2);
    one_error_line();
    no_output_left();
    assert_int_equal(run("--version"), 0);
    slurp(path_stdout, buf, sizeof(buf));
    assert_string_equal(buf, "mcuprof " MCUPROF_VERSION "\n");
    /* the version command prints the very same line */
    assert_int_equal(run("version"), 0);
    slurp(path_stdout, buf, sizeof(buf));
    assert_string_equal(buf, "mcuprof " MCUPROF_VERSION "\n");
    assert_int_equal(run("version extra"), 2);
    one_error_line();
    assert_int_equal(run("help convert"), 0);
    slurp(path_stdout, buf, sizeof(buf));
    assert_non_null(strstr(buf, "Usage: mcuprof convert"));
    assert_int_equal(run("--help"), 0);
    slurp(path_stdout, help, sizeof(help));
    /* the commands' table, and convert's summary naming every format */
    assert_non_null(strstr(help, "\n  check      say what in a firmware ELF"));
    summary = strstr(help, "\n  convert    convert a profile image into ");
    assert_non_null(summary);
    end = strstr(summary, "\n  ctl ");
    assert_non_null(end);
    for (i = 0; i < mp_formats_count(); i++) {
        const char *name = strstr(summary, mp_format_at(i)->name);

        assert_true(name && name < end);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(converts_valid_image, setup, teardown),
        cmocka_unit_test_setup_teardown(info_lists_every_counter, setup, teardown),
        cmocka_unit_test_setup_teardown(info_lists_call_paths, setup, teardown),
        cmocka_unit_test_setup_teardown(truncated_image, setup, teardown),
        cmocka_unit_test_setup_teardown(wrong_magic, setup, teardown),
        cmocka_unit_test_setup_teardown(unknown_version, setup, teardown),
        cmocka_unit_test_setup_teardown(geometry_outside, setup, teardown),
        cmocka_unit_test_setup_teardown(random_bytes, setup, teardown),
        cmocka_unit_test_setup_teardown(empty_file, setup, teardown),
        cmocka_unit_test_setup_teardown(missing_file, setup, teardown),
        cmocka_unit_test_setup_teardown(output_dir_not_writable, setup, teardown),
        cmocka_unit_test_setup_teardown(failure_prints_only_the_error, setup, teardown),
        cmocka_unit_test_setup_teardown(failure_keeps_old_output, setup, teardown),
        cmocka_unit_test_setup_teardown(says_each_file_written, setup, teardown),
        cmocka_unit_test_setup_teardown(names_the_losses, setup, teardown),
        cmocka_unit_test_setup_teardown(says_a_warning_once, setup, teardown),
        cmocka_unit_test_setup_teardown(usage_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(says_sampler_timing, setup, teardown),
        cmocka_unit_test_setup_teardown(says_held_off, setup, teardown),
    };

    int failed = cmocka_run_group_tests_name("cli, 32-bit ARM image", tests, use_32bit_arm, NULL);
    failed += cmocka_run_group_tests_name("cli, 64-bit RISC-V image", tests, use_64bit_riscv, NULL);
    return failed;
}

/*
 * Inputs read from a pipe or a FIFO, under a memory limit: the tool reads
 * no further than a valid input of the kind its first bytes name could
 * go, so 1.5 GB of zeros after a gmon.out or JSON start are refused at
 * once with one line, an image is read up to its image_size, and valid
 * inputs still read whole (base/input_kind.h, mp_input_bound).
 */
#define _POSIX_C_SOURCE 200809L

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

#include "stderr_line.h"

#include "image_builder.h"

#ifndef MCUPROF_BIN
#error "MCUPROF_BIN: path of the mcuprof binary under test"
#endif

/* The tool's address space, KiB: far below the 1.5 GB streamed at it. */
#define MEM_LIMIT_KB 65536
/* 1.5 GB of zeros, what a stream could go on with. */
#define ZEROS "head -c 1500000000 /dev/zero"
/* "gmon", version 1, 12 spare bytes. */
#define GNU_HEADER "printf 'gmon\\001\\000\\000\\000\\000\\000\\000\\000\\000\\000\\000\\000\\000\\000\\000\\000'"

/* "; printf '" and a histogram record 0x1000..0x1010 of 4 bins (1, 2, 3,
 * 4 samples) at 1000 Hz, little-endian with 4-byte addresses. */
#define GNU_HIST4 \
    "; printf '\\000\\000\\020\\000\\000\\020\\020\\000\\000\\004\\000\\000\\000" \
    "\\350\\003\\000\\000seconds\\000\\000\\000\\000\\000\\000\\000\\000s\\001\\000\\002\\000\\003\\000\\004\\000"

static char dir[64], path_err[128], path_out[128], path_in[128];

static int setup(void **state)
{
    (void)state;
    strcpy(dir, "/tmp/mcuprof-stream-XXXXXX");
    assert_non_null(mkdtemp(dir));
    snprintf(path_err, sizeof(path_err), "%s/stderr.txt", dir);
    snprintf(path_out, sizeof(path_out), "%s/stdout.txt", dir);
    snprintf(path_in, sizeof(path_in), "%s/input", dir);
    return 0;
}

static int teardown(void **state)
{
    char cmd[160];

    (void)state;
    snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* Feed the output of the shell command SOURCE to `mcuprof ARGS`, where
 * ARGS names the input /dev/stdin, under the memory limit and a 20 s
 * timeout. Returns the tool's exit status. */
static int feed(const char *source, const char *fmt, ...)
{
    char args[256], cmd[1024];
    va_list ap;
    int st;

    va_start(ap, fmt);
    vsnprintf(args, sizeof(args), fmt, ap);
    va_end(ap);
    snprintf(cmd, sizeof(cmd), "(%s) 2>/dev/null | (ulimit -v %d; exec timeout 20 %s %s) >%s 2>%s", source,
             MEM_LIMIT_KB, MCUPROF_BIN, args, path_out, path_err);
    st = system(cmd);
    assert_true(WIFEXITED(st));
    return WEXITSTATUS(st);
}

/* stderr is exactly LINE and a newline. */
static void stderr_is(const char *line)
{
    expect_stderr_line(path_err, line);
}

static void gnu_zeros_through_a_pipe(void **s)
{
    (void)s;
    assert_int_equal(feed(GNU_HEADER "; " ZEROS, "info /dev/stdin"), 1);
    stderr_is("mcuprof: error: /dev/stdin: GNU gmon.out records do not parse with 4- or 8-byte addresses in "
              "either byte order (the furthest reading fails at byte 20 of 4096: truncated or corrupt)");
}

static void gnu_zeros_through_a_fifo(void **s)
{
    char fifo[160], cmd[1024];
    int st;

    (void)s;
    snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    snprintf(cmd, sizeof(cmd), "(" GNU_HEADER "; " ZEROS ") >%s 2>/dev/null & (ulimit -v %d; exec timeout 20 %s info %s) >%s 2>%s; st=$?; wait; exit $st",
             fifo, MEM_LIMIT_KB, MCUPROF_BIN, fifo, path_out, path_err);
    st = system(cmd);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 1);
    {
        char want[512];

        snprintf(want, sizeof(want), "mcuprof: error: %s: GNU gmon.out records do not parse with 4- or 8-byte "
                 "addresses in either byte order (the furthest reading fails at byte 20 of 4096: truncated or corrupt)",
                 fifo);
        stderr_is(want);
    }
}

/* A histogram record of 2^31 bins ends 4 GiB on, past the 1 GiB a gmon.out
 * can be: refused at once though its bins could all be zero. */
static void gnu_record_past_the_bound(void **s)
{
    (void)s;
    /* tag 0, low 0x1000, high 0x2000, nbins 0x80000000 (little-endian) */
    assert_int_equal(feed(GNU_HEADER "; printf '\\000\\000\\020\\000\\000\\000\\040\\000\\000\\000\\000\\000\\200'; " ZEROS,
                          "info /dev/stdin"),
                     1);
    stderr_is("mcuprof: error: /dev/stdin: GNU gmon.out records do not parse with 4- or 8-byte addresses in "
              "either byte order (the furthest reading fails at byte 20 of 4096: truncated or corrupt)");
}

static void json_zeros_through_a_pipe(void **s)
{
    (void)s;
    assert_int_equal(feed("printf '{\"a\":'; " ZEROS, "info --json /dev/stdin"), 1);
    stderr_is("mcuprof: error: /dev/stdin: byte 5: a: expected a value, got byte 0x00");
}

/* A valid GNU gmon.out through a pipe: one histogram record of 4 bins
 * (1, 2, 3, 4 samples at 1000 Hz) and one arc of 5 calls, read whole. */
static void valid_gmon_through_a_pipe(void **s)
{
    char out[2048];
    FILE *f;
    size_t n;

    (void)s;
    assert_int_equal(feed(GNU_HEADER GNU_HIST4
                                     "\\001\\010\\020\\000\\000\\000\\020\\000\\000\\005\\000\\000\\000'",
                          "info /dev/stdin"),
                     0);
    f = fopen(path_out, "r");
    assert_non_null(f);
    n = fread(out, 1, sizeof(out) - 1, f);
    fclose(f);
    out[n] = '\0';
    if (!strstr(out, "0x1000..0x1010, 4 bins, 1000 Hz, 10 samples") || !strstr(out, "total calls") ||
        !strstr(out, "5\n"))
        fail_msg("info printed '%s'", out);
}

/* info --json reads a gmon.out once (its model and its records from the
 * same bytes): through a pipe it cannot read again. */
static void gmon_json_through_a_pipe(void **s)
{
    char out[8192];
    FILE *f;
    size_t n;

    (void)s;
    assert_int_equal(feed(GNU_HEADER GNU_HIST4 "'",
                          "info --json /dev/stdin"),
                     0);
    f = fopen(path_out, "r");
    assert_non_null(f);
    n = fread(out, 1, sizeof(out) - 1, f);
    fclose(f);
    out[n] = '\0';
    if (!strstr(out, "\"histogram_records\": 1,") || !strstr(out, "\"samples_total\": 10,"))
        fail_msg("info --json printed '%s'", out);
}

/* An image is read up to its image_size: what follows is never read. */
static void image_then_zeros_through_a_pipe(void **s)
{
    static const uint32_t bins[4] = {1, 2, 3, 4};
    static const struct tb_arc arcs[1] = {{0x1009, 0x1011, 5}};
    static uint8_t img[4096];
    struct tb_image d;
    size_t n;
    char source[256];

    (void)s;
    tb_arm(&d);
    d.nranges = 1;
    d.ranges[0] = (struct tb_range){0x1000, 4, bins};
    d.narcs = 1;
    d.arcs = arcs;
    n = tb_build(&d, img, sizeof(img));
    assert_true(n > 0);
    assert_int_equal(tb_write_file(path_in, img, n), 0);
    snprintf(source, sizeof(source), "cat %s; " ZEROS, path_in);
    assert_int_equal(feed(source, "convert /dev/stdin -o %s/gmon.out --min-samples 0", dir), 0);
}

/* A regular gmon.out file larger than a gmon.out can be is refused before
 * it is read (a sparse file: no disk taken). */
static void gmon_file_above_the_bound(void **s)
{
    char cmd[512];

    (void)s;
    snprintf(cmd, sizeof(cmd), GNU_HEADER " >%s && truncate -s 1073741825 %s", path_in, path_in);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof(cmd), "true %s", path_in);
    assert_int_equal(feed(cmd, "info %s", path_in), 1);
    snprintf(cmd, sizeof(cmd), "mcuprof: error: %s: is 1073741825 bytes, more than the 1073741824 a gmon.out can be",
             path_in);
    stderr_is(cmd);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(gnu_zeros_through_a_pipe, setup, teardown),
        cmocka_unit_test_setup_teardown(gnu_zeros_through_a_fifo, setup, teardown),
        cmocka_unit_test_setup_teardown(gnu_record_past_the_bound, setup, teardown),
        cmocka_unit_test_setup_teardown(json_zeros_through_a_pipe, setup, teardown),
        cmocka_unit_test_setup_teardown(valid_gmon_through_a_pipe, setup, teardown),
        cmocka_unit_test_setup_teardown(gmon_json_through_a_pipe, setup, teardown),
        cmocka_unit_test_setup_teardown(image_then_zeros_through_a_pipe, setup, teardown),
        cmocka_unit_test_setup_teardown(gmon_file_above_the_bound, setup, teardown),
    };

    return cmocka_run_group_tests_name("inputs through pipes and FIFOs", tests, NULL, NULL);
}

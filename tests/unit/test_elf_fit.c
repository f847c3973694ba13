/*
 * A gmon.out with the ELF of another program: every command that names
 * its functions (report, info, info --json, diff) refuses it with the
 * same one line; one that lands mostly outside the functions is read
 * with one warning (model_load.h, mp_model_check_fit).
 */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "stderr_line.h"

#ifndef MCUPROF_BIN
#error "MCUPROF_BIN: path of the mcuprof binary under test"
#endif

static const char *elf_dir;
static char elf[512], gmon_path[64], err_path[64], cmd[2048];

/* A little-endian GNU gmon.out with 4-byte addresses: one histogram
 * record of 16 bins of 4 bytes from LOW at 1000 Hz, BINS[I] at bin I,
 * and one arc FROM -> SELF of 3 calls. */
static void write_gmon(uint32_t low, const uint16_t bins[16], uint32_t from, uint32_t self)
{
    uint8_t d[256];
    size_t n = 0, i;
    FILE *f;

#define PUT32(v) (d[n] = (uint8_t)(v), d[n + 1] = (uint8_t)((v) >> 8), d[n + 2] = (uint8_t)((v) >> 16), \
                  d[n + 3] = (uint8_t)((v) >> 24), n += 4)
    memset(d, 0, sizeof(d));
    memcpy(d, "gmon", 4);
    d[4] = 1;
    n = 20;
    d[n++] = 0; /* histogram */
    PUT32(low);
    PUT32(low + 64);
    PUT32(16u);
    PUT32(1000u);
    memcpy(d + n, "seconds", 7);
    n += 15;
    d[n++] = 's';
    for (i = 0; i < 16; i++) {
        d[n++] = (uint8_t)bins[i];
        d[n++] = (uint8_t)(bins[i] >> 8);
    }
    d[n++] = 1; /* arc */
    PUT32(from);
    PUT32(self);
    PUT32(3u);
#undef PUT32
    f = fopen(gmon_path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(d, 1, n, f), n);
    fclose(f);
}

static int run(const char *args)
{
    int st;

    snprintf(cmd, sizeof(cmd), "%s %s >/dev/null 2>%s", MCUPROF_BIN, args, err_path);
    st = system(cmd);
    assert_true(WIFEXITED(st));
    return WEXITSTATUS(st);
}

static void stderr_is(const char *line)
{
    expect_stderr_line(err_path, line);
}

static int setup(void **state)
{
    (void)state;
    snprintf(elf, sizeof(elf), "%s/arm_le.elf", elf_dir ? elf_dir : ".");
    if (access(elf, R_OK) != 0)
        return 0; /* the tests skip */
    snprintf(gmon_path, sizeof(gmon_path), "/tmp/mcuprof-fit-%ld.gmon", (long)getpid());
    snprintf(err_path, sizeof(err_path), "/tmp/mcuprof-fit-%ld.err", (long)getpid());
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    remove(gmon_path);
    remove(err_path);
    return 0;
}

/* Samples and the arc at 0x90000000, where arm_le.elf has no function. */
static void another_programs_elf_refused_everywhere(void **s)
{
    static const uint16_t bins[16] = {1, 2, 3, 4};
    static const char *const commands[] = {"report %s --elf %s", "info %s --elf %s", "info --json %s --elf %s",
                                           "diff %s %s --elf %s"};
    char want[1024], args[1200];
    size_t i;

    (void)s;
    if (access(elf, R_OK) != 0)
        skip();
    write_gmon(0x90000000u, bins, 0x90000008u, 0x90000020u);
    snprintf(want, sizeof(want),
             "mcuprof: error: %s: none of %s's 1 arcs calls into its functions and 0.0 %% of its 10 samples lie in"
             " them (under 10 %%): not this firmware's ELF",
             elf, gmon_path);
    for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
        if (i == 3)
            snprintf(args, sizeof(args), commands[i], gmon_path, gmon_path, elf);
        else
            snprintf(args, sizeof(args), commands[i], gmon_path, elf);
        if (run(args) != 1)
            fail_msg("'%s' did not exit 1", args);
        stderr_is(want);
    }
}

/* 60 of 100 samples at 0xfe0, below main_fn (0x1000), the first
 * function; 40 in main_fn; the arc calls work_a: read, with a warning. */
static void mostly_outside_warns(void **s)
{
    static const uint16_t bins[16] = {60, 0, 0, 0, 0, 0, 0, 0, 40};
    char args[1200], want[1024];

    (void)s;
    if (access(elf, R_OK) != 0)
        skip();
    write_gmon(0xfe0u, bins, 0x1008u, 0x1020u);
    snprintf(args, sizeof(args), "report %s --elf %s", gmon_path, elf);
    assert_int_equal(run(args), 0);
    snprintf(want, sizeof(want),
             "mcuprof: warning: %s: 0 of 1 arcs call addresses in no function of %s, and 60.0 %% of the 100 samples"
             " lie in none: is it this firmware's ELF?",
             gmon_path, elf);
    stderr_is(want);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(another_programs_elf_refused_everywhere, setup, teardown),
        cmocka_unit_test_setup_teardown(mostly_outside_warns, setup, teardown),
    };

    elf_dir = argc > 1 ? argv[1] : NULL;
    return cmocka_run_group_tests_name("a gmon.out and the ELF of another program", tests, NULL, NULL);
}

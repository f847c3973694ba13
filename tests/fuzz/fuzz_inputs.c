/*
 * fuzz_inputs.c - the fuzz target: every reader of untrusted bytes in
 * mcuprof, fed one input. A libFuzzer-style entry point, so the same file
 * serves libFuzzer, AFL++ (through fuzz_driver.c) and the replay of the
 * corpus and of every crash ever found (tests/fuzz/regressions/).
 *
 * An input is tried as a profile image (parse, the statistics and the
 * sampler's timing `info` prints, both gmon.out writers), as a gmon.out (the reader of `info`),
 * and, when it starts like an ELF file, as the firmware's ELF (symbols,
 * build-id, function table) checked against a small valid image, as
 * `convert --elf` and `info --elf` do; and as a JSON document of
 * `convert --format json`, whose model every output format then writes,
 * and which written, read and written again must not change.
 */
/* mkstemp is POSIX, not C11. */
#define _POSIX_C_SOURCE 200809L

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "build_check.h"
#include "diag.h"
#include "elf_funcs.h"
#include "elf_info.h"
#include "formats.h"
#include "gmon_read.h"
#include "gmon_write.h"
#include "image_builder.h"
#include "image_read.h"
#include "model.h"
#include "path_print.h"
#include "profile.h"
#include "timing.h"
#include "trust.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Larger outputs are sized, not written: writing a gigabyte per input
 * would make every such input a hang. */
#define MAX_WRITTEN (1u << 20)

static FILE *sink;
static char elf_path[64];
static uint8_t image[8192];
static struct mp_image valid;

static void remove_elf(void) { remove(elf_path); }

static void setup(void)
{
    struct tb_image d;
    size_t len;
    int fd;

    mp_diag_quiet(1);
    sink = fopen("/dev/null", "wb");
    snprintf(elf_path, sizeof(elf_path), "/tmp/mcuprof-fuzz-XXXXXX");
    fd = mkstemp(elf_path);
    if (!sink || fd < 0) {
        perror("fuzz_inputs setup");
        abort();
    }
    close(fd);
    atexit(remove_elf);
    tb_small(&d, 0x20000010, 8);
    len = tb_build(&d, image, sizeof(image));
    if (len == 0 || mp_image_parse(&valid, "valid", image, len) < 0)
        abort();
}

/* M as both gmon.out formats, each sized first: a bin of 2^64 - 1 (a
 * document's, or a sum's) is 2^48 records. */
static void write_gmons(const struct mp_model *m)
{
    static const enum mp_gmon_format formats[2] = {MP_GMON_GNU, MP_GMON_BSD};
    struct mp_profile p;
    uint64_t out;
    unsigned i;

    if (mp_profile_prepare(&p, m) < 0)
        return;
    for (i = 0; i < 2; i++)
        if (mp_gmon_size(&p, formats[i], &out) == 0 && out <= MAX_WRITTEN)
            mp_gmon_write(&p, formats[i], sink);
    mp_profile_free(&p);
}

static void as_image(const uint8_t *data, size_t size)
{
    static const struct mp_trust_opts opts = MP_TRUST_DEFAULTS;
    struct mp_image img;
    struct mp_model m;

    if (mp_image_parse(&img, "fuzz", data, size) < 0)
        return;
    if (mp_model_from_image(&m, &img) < 0)
        return;
    mp_trust_print(sink, &m, &opts);
    mp_trust_warn(&m, &opts);
    mp_print_paths(sink, &m);
    mp_print_timing(sink, &m);
    mp_timing_warn(&m, opts.warn_pct);
    write_gmons(&m);
    mp_model_free(&m);
}

static void as_elf(const uint8_t *data, size_t size)
{
    static const struct mp_trust_opts opts = MP_TRUST_DEFAULTS;
    struct mp_elf_info elf;
    struct mp_functab tab;
    struct mp_model m;
    FILE *f = fopen(elf_path, "wb");

    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
        abort();
    if (mp_elf_read(&elf, elf_path) == 0)
        mp_build_check(&valid, &elf, 1);
    if (mp_functab_read(&tab, elf_path) < 0)
        return;
    if (mp_model_from_image(&m, &valid) == 0) {
        if (mp_model_attach_functab(&m, &tab) == 0) {
            mp_trust_print(sink, &m, &opts);
            mp_trust_warn(&m, &opts);
        }
        mp_model_free(&m);
    }
    mp_functab_free(&tab);
}

/* The document of M in memory (malloc'd), or NULL. */
static char *json_of(const struct mp_model *m, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);

    if (!f)
        abort();
    if (mp_format_json.write(m, f) < 0) {
        fclose(f);
        free(buf);
        return NULL;
    }
    if (fclose(f) != 0)
        abort();
    return buf;
}

/* A document the reader accepts is one its writer reproduces: written
 * and read back, it writes the same bytes again. */
static void json_round_trip(const struct mp_model *m)
{
    struct mp_model back;
    size_t len, len2;
    char *a = json_of(m, &len), *b;

    if (!a)
        return;
    if (mp_model_from_json(&back, "fuzz-again", (const uint8_t *)a, len) < 0) {
        fprintf(stderr, "fuzz_inputs: the JSON reader refused its own writer's document: %s\n", mp_last_error());
        abort();
    }
    b = json_of(&back, &len2);
    if (!b || len != len2 || memcmp(a, b, len) != 0) {
        fprintf(stderr, "fuzz_inputs: a JSON document read back and written again changed\n");
        abort();
    }
    free(a);
    free(b);
    mp_model_free(&back);
}

static void as_json(const uint8_t *data, size_t size)
{
    struct mp_model m;
    size_t i;

    if (mp_model_from_json(&m, "fuzz", data, size) < 0)
        return;
    write_gmons(&m);
    /* the other formats write in proportion to the model */
    for (i = 0; i < mp_formats_count(); i++) {
        const struct mp_format *fmt = mp_format_at(i);

        if (fmt != &mp_format_gnu && fmt != &mp_format_bsd && mp_format_check(fmt, &m) == 0)
            fmt->write(&m, sink);
    }
    if (mp_format_check(&mp_format_json, &m) == 0)
        json_round_trip(&m);
    mp_model_free(&m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct mp_gmon_info g;

    if (!sink)
        setup();
    mp_diag_reset();
    mp_diag_hold();
    as_image(data, size);
    mp_gmon_parse(&g, "fuzz", data, size);
    as_json(data, size);
    if (size >= 4 && memcmp(data, "\177ELF", 4) == 0)
        as_elf(data, size);
    mp_diag_release(0);
    return 0;
}

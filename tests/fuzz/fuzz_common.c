/* fuzz_common.c - what the fuzz targets share (fuzz_common.h). */
/* mkstemp and open_memstream are POSIX, not C11. */
#define _POSIX_C_SOURCE 200809L

#include "fuzz_common.h"

#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "elf_funcs.h"
#include "formats.h"
#include "gmon_write.h"
#include "image_builder.h"
#include "profile.h"

/* The tool's main() (cmd/main.c, compiled with main renamed). */
int mp_tool_main(int argc, char **argv);

static FILE *sink;
static char path[2][64], out[80];
static uint8_t image[8192];
static struct mp_image valid;

static void remove_files(void)
{
    remove(path[0]);
    remove(path[1]);
    remove(out);
}

static void setup(void)
{
    struct tb_image d;
    size_t len;
    unsigned i;

    mp_diag_quiet(1);
    sink = fopen("/dev/null", "wb");
    if (!sink)
        abort();
    for (i = 0; i < 2; i++) {
        int fd;

        snprintf(path[i], sizeof(path[i]), "/tmp/mcuprof-fuzz-XXXXXX");
        fd = mkstemp(path[i]);
        if (fd < 0) {
            perror("fuzz setup");
            abort();
        }
        close(fd);
    }
    snprintf(out, sizeof(out), "%s.out", path[0]);
    atexit(remove_files);
    tb_small(&d, 0x20000010, 8);
    len = tb_build(&d, image, sizeof(image));
    if (len == 0 || mp_image_parse(&valid, "valid", image, len) < 0)
        abort();
}

void fuzz_begin(void)
{
    if (!sink)
        setup();
    mp_diag_reset();
    mp_diag_hold();
}

void fuzz_end(void) { mp_diag_release(0); }

FILE *fuzz_sink(void) { return sink; }

const char *fuzz_out_path(void) { return out; }

const struct mp_image *fuzz_valid_image(void) { return &valid; }

const char *fuzz_file(unsigned slot, const uint8_t *data, size_t size)
{
    FILE *f = fopen(path[slot], "wb");

    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
        abort();
    return path[slot];
}

int fuzz_tool(const char *const *argv)
{
    int argc = 0, saved, null, rc, i;

    while (argv[argc])
        argc++;
    fflush(stdout);
    saved = dup(1);
    null = open("/dev/null", O_WRONLY);
    if (saved < 0 || null < 0 || dup2(null, 1) < 0)
        abort();
    close(null);
    optind = 1;
    rc = mp_tool_main(argc, (char **)argv);
    fflush(stdout);
    if (dup2(saved, 1) < 0)
        abort();
    close(saved);
    /* Quiet again, exactly once, whatever depth the command left: one
     * that stops midway may leave its own quiet calls undone. */
    for (i = 0; i < 64; i++)
        mp_diag_quiet(0);
    mp_diag_quiet(1);
    /* FUZZ_VERBOSE=1: what a seed makes the tool do */
    if (getenv("FUZZ_VERBOSE")) {
        for (i = 0; i < argc; i++)
            fprintf(stderr, "%s ", argv[i]);
        fprintf(stderr, "-> %d (%s)\n", rc, rc ? mp_last_error() : "ok");
    }
    return rc;
}

/* A bin of 2^64 - 1 (a document's, or a sum's) is 2^48 records: sized
 * before it is written. */
void fuzz_write_gmons(const struct mp_model *m)
{
    static const enum mp_gmon_format formats[2] = {MP_GMON_GNU, MP_GMON_BSD};
    struct mp_profile p;
    uint64_t out;
    unsigned i;

    if (mp_profile_prepare(&p, m) < 0)
        return;
    for (i = 0; i < 2; i++)
        if (mp_gmon_size(&p, formats[i], &out) == 0 && out <= FUZZ_MAX_WRITTEN)
            mp_gmon_write(&p, formats[i], sink);
    mp_profile_free(&p);
}

char *fuzz_json_of(const struct mp_model *m, size_t *len)
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
    char *a = fuzz_json_of(m, &len), *b;

    if (!a)
        return;
    if (mp_model_from_json(&back, "fuzz-again", (const uint8_t *)a, len) < 0) {
        fprintf(stderr, "fuzz: the JSON reader refused its own writer's document: %s\n",
                mp_last_error());
        abort();
    }
    b = fuzz_json_of(&back, &len2);
    if (!b || len != len2 || memcmp(a, b, len) != 0) {
        fprintf(stderr, "fuzz: a JSON document read back and written again changed\n");
        abort();
    }
    free(a);
    free(b);
    mp_model_free(&back);
}

void fuzz_write_all(const struct mp_model *m)
{
    size_t i;

    fuzz_write_gmons(m);
    /* the other formats write in proportion to the model */
    for (i = 0; i < mp_formats_count(); i++) {
        const struct mp_format *fmt = mp_format_at(i);

        if (fmt != &mp_format_gnu && fmt != &mp_format_bsd && mp_format_check(fmt, m) == 0)
            fmt->write(m, sink);
    }
    if (mp_format_check(&mp_format_json, m) == 0)
        json_round_trip(m);
}

/* Bins of the range: 4 bytes each. */
#define ELF_NBINS 4096u

size_t fuzz_image_for_elf(const struct mp_functab *tab, uint8_t *buf, size_t cap)
{
    static uint32_t bins[ELF_NBINS];
    struct tb_image d;
    uint64_t low, high;
    uint32_t n;

    if (tab->n == 0)
        return 0;
    low = tab->f[0].addr & ~(uint64_t)3;
    high = tab->f[tab->n - 1].end;
    if (high <= low)
        return 0;
    n = high - low >= (uint64_t)ELF_NBINS * 4u ? ELF_NBINS : (uint32_t)((high - low + 3) / 4);
    if (!bins[0])
        memset(bins, 1, sizeof(bins)); /* 0x0101 in every 2-byte counter */
    tb_arm(&d);
    d.machine = tab->machine;
    d.ptr_size = tab->ptr_size;
    d.image_addr = 0x20000000;
    d.nranges = 1;
    d.ranges[0].low = low;
    d.ranges[0].nbins = n;
    d.ranges[0].bins = bins;
    return tb_build(&d, buf, cap);
}

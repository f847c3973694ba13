/*
 * Source lines of a profile model: bins split among line-table rows by
 * bytes (a hand-made model), mp_model_line_at, and the DWARF reader on
 * this test's own executable: a function's declaration line, an ELF
 * whose line table is gone (a warning, no lines), and damaged DWARF
 * (never a crash, never an error).
 */
#define _POSIX_C_SOURCE 200809L

#include <fcntl.h>
#include <gelf.h>
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
#include "line_samples.h"
#include "model.h"

static const unsigned marker_line = __LINE__ + 1;
__attribute__((noinline)) int lines_marker(int x) { return x * 3 + 1; }

static int quiet(void **s)
{
    (void)s;
    mp_diag_quiet(1);
    return 0;
}

/* ---- bins split among lines -------------------------------------------- */

static const char *file_a = "a.c";
static uint64_t bins[4] = {10, 20, 4, 8};

/* One range 0x1000..0x1040 in four 16-byte bins; f0 0x1000..0x1018, f1
 * 0x1018..0x1040; lines 1 and 2 in f0, 10 and 11 in f1 with no row for
 * 0x1020..0x1030. */
static void hand_model(struct mp_model *m)
{
    static struct mp_model_range range = {0x1000, 0x1040, 4, bins, 42, 20};
    static struct mp_model_func funcs[2] = {
        {"f0", 0x1000, 0x1018, 0x18, 20.0, 0, 0, 0, 1, NULL, 0, NULL, 0, 0},
        {"f1", 0x1018, 0x1040, 0x28, 22.0, 0, 0, 0, 1, NULL, 0, NULL, 1, 0},
    };
    static struct mp_model_linerow rows[4] = {
        {0x1000, 0x1008, NULL, 1}, {0x1008, 0x1018, NULL, 2}, {0x1018, 0x1020, NULL, 10}, {0x1030, 0x1040, NULL, 11},
    };
    unsigned i;

    for (i = 0; i < 4; i++)
        rows[i].file = file_a;
    mp_model_init(m, "hand", MP_MODEL_IMAGE);
    m->ranges = &range;
    m->nranges = 1;
    m->funcs = funcs;
    m->nfuncs = 2;
    m->linerows = rows;
    m->nlinerows = 4;
}

static void check_line(const struct mp_model_line *l, long func, const char *file, unsigned line, uint64_t addr,
                       double samples)
{
    assert_int_equal(l->func, func);
    assert_string_equal(l->file, file);
    assert_int_equal(l->line, line);
    assert_int_equal(l->addr, addr);
    assert_true(l->samples > samples - 1e-9 && l->samples < samples + 1e-9);
}

static void split_by_bytes(void **s)
{
    struct mp_model m;

    (void)s;
    hand_model(&m);
    assert_int_equal(mp_line_samples(&m), 0);
    assert_int_equal(m.nlines, 5);
    /* bin 0: 8 bytes each of lines 1 and 2; bin 1: 8 bytes of line 2 (f0)
     * and 8 of line 10 (f1); bin 2: no row; bin 3: line 11 */
    check_line(&m.lines[0], 0, "a.c", 2, 0x1008, 15.0);
    check_line(&m.lines[1], 0, "a.c", 1, 0x1000, 5.0);
    check_line(&m.lines[2], 1, "a.c", 10, 0x1018, 10.0);
    check_line(&m.lines[3], 1, "a.c", 11, 0x1030, 8.0);
    check_line(&m.lines[4], 1, MP_LINE_UNKNOWN_FILE, 0, 0x1020, 4.0);
    m.ranges = NULL;
    m.funcs = NULL;
    m.linerows = NULL;
    mp_model_free(&m);
}

static void line_at(void **s)
{
    struct mp_model m;
    const char *file = NULL;
    unsigned line = 0;

    (void)s;
    hand_model(&m);
    assert_int_equal(mp_model_line_at(&m, 0x1009, &file, &line), 0);
    assert_string_equal(file, "a.c");
    assert_int_equal(line, 2);
    assert_int_equal(mp_model_line_at(&m, 0x103f, &file, &line), 0);
    assert_int_equal(line, 11);
    assert_int_equal(mp_model_line_at(&m, 0x1000, &file, &line), 0);
    assert_int_equal(line, 1);
    assert_int_equal(mp_model_line_at(&m, 0xfff, &file, &line), -1);
    assert_int_equal(mp_model_line_at(&m, 0x1020, &file, &line), -1);
    assert_int_equal(mp_model_line_at(&m, 0x1040, &file, &line), -1);
    m.nlinerows = 0;
    assert_int_equal(mp_model_line_at(&m, 0x1009, &file, &line), -1);
}

static void needs_elf(void **s)
{
    struct mp_model m;

    (void)s;
    mp_model_init(&m, "noelf", MP_MODEL_IMAGE);
    assert_int_equal(mp_model_attach_lines(&m), -1);
    assert_non_null(strstr(mp_last_error(), "--elf"));
    mp_model_free(&m);
}

/* ---- DWARF of this executable ------------------------------------------ */

static const char *self_exe = "/proc/self/exe";

/* The model of an ELF without samples, its lines attached. */
static int attach(struct mp_model *m, const char *elf)
{
    mp_model_init(m, "t.img", MP_MODEL_IMAGE);
    if (mp_model_attach_elf(m, elf) < 0)
        return -1;
    return mp_model_attach_lines(m);
}

static long find(const struct mp_model *m, const char *name)
{
    size_t i;

    for (i = 0; i < m->nfuncs; i++)
        if (strcmp(m->funcs[i].name, name) == 0)
            return (long)i;
    return -1;
}

static void own_declaration(void **s)
{
    struct mp_model m;
    const char *file = NULL, *base;
    unsigned line = 0;
    long k;
    size_t i;

    (void)s;
    assert_int_equal(lines_marker(1), 4);
    assert_int_equal(attach(&m, self_exe), 0);
    if (m.lines_missing) {
        mp_model_free(&m);
        skip(); /* built without -g */
    }
    k = find(&m, "lines_marker");
    assert_true(k >= 0);
    assert_non_null(m.funcs[k].file);
    base = strrchr(m.funcs[k].file, '/');
    assert_string_equal(base ? base + 1 : m.funcs[k].file, "test_lines.c");
    assert_int_equal(m.funcs[k].line, marker_line);
    assert_int_equal(mp_model_line_at(&m, m.funcs[k].addr, &file, &line), 0);
    assert_ptr_equal(file, m.funcs[k].file);
    assert_int_equal(line, marker_line);
    /* sorted and disjoint */
    for (i = 1; i < m.nlinerows; i++) {
        assert_true(m.linerows[i - 1].addr < m.linerows[i - 1].end);
        assert_true(m.linerows[i - 1].end <= m.linerows[i].addr);
    }
    assert_int_equal(m.nlines, 0); /* no samples */
    mp_model_free(&m);
}

/* A copy of this executable with BYTES written at OFFSET into section
 * SECTION's contents (or its name, with NAME set), as PATH. */
static int damaged_copy(const char *path, const char *section, int name, size_t offset, const uint8_t *bytes,
                        size_t n)
{
    int in = open(self_exe, O_RDONLY), out;
    Elf *elf;
    Elf_Scn *scn = NULL;
    size_t shstrndx;
    off_t at = -1;
    char buf[65536];
    ssize_t got;

    assert_true(in >= 0);
    elf_version(EV_CURRENT);
    elf = elf_begin(in, ELF_C_READ, NULL);
    assert_non_null(elf);
    assert_int_equal(elf_getshdrstrndx(elf, &shstrndx), 0);
    while ((scn = elf_nextscn(elf, scn)) != NULL) {
        GElf_Shdr sh;
        const char *nm;

        assert_non_null(gelf_getshdr(scn, &sh));
        nm = elf_strptr(elf, shstrndx, sh.sh_name);
        if (nm && strcmp(nm, section) == 0) {
            if (name) {
                GElf_Shdr strsh;

                assert_non_null(gelf_getshdr(elf_getscn(elf, shstrndx), &strsh));
                at = (off_t)(strsh.sh_offset + sh.sh_name + offset);
            } else if (offset + n <= sh.sh_size) {
                at = (off_t)(sh.sh_offset + offset);
            }
        }
    }
    elf_end(elf);
    if (at < 0) {
        close(in);
        return -1;
    }
    out = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(out >= 0);
    assert_int_equal(lseek(in, 0, SEEK_SET), 0);
    while ((got = read(in, buf, sizeof(buf))) > 0)
        assert_int_equal(write(out, buf, (size_t)got), got);
    assert_int_equal(pwrite(out, bytes, n, at), (ssize_t)n);
    close(in);
    close(out);
    return 0;
}

static char tmp_path[64];

static int make_tmp(void **s)
{
    int fd;

    (void)s;
    snprintf(tmp_path, sizeof(tmp_path), "/tmp/test_lines.XXXXXX");
    fd = mkstemp(tmp_path);
    if (fd < 0)
        return -1;
    close(fd);
    return 0;
}

static int remove_tmp(void **s)
{
    (void)s;
    unlink(tmp_path);
    return 0;
}

/* As --strip-debug leaves it: no .debug_line (here renamed). */
static void no_line_table(void **s)
{
    struct mp_model m;
    unsigned warnings;

    (void)s;
    if (damaged_copy(tmp_path, ".debug_line", 1, 1, (const uint8_t *)"x", 1) < 0)
        skip();
    mp_diag_reset();
    assert_int_equal(attach(&m, tmp_path), 0);
    warnings = mp_warning_count();
    assert_int_equal(m.lines_missing, 1);
    assert_int_equal(m.nlinerows, 0);
    assert_int_equal(m.nlines, 0);
    assert_int_equal(warnings, 1);
    assert_non_null(strstr(mp_last_warning(), "no DWARF line table: build with -g"));
    assert_non_null(strstr(mp_last_warning(), tmp_path));
    mp_model_free(&m);
}

/* A unit header with an impossible version: a warning, no lines. */
static void broken_unit(void **s)
{
    static const uint8_t version[2] = {0x7f, 0x7f};
    struct mp_model m;
    size_t i;

    (void)s;
    if (damaged_copy(tmp_path, ".debug_info", 0, 4, version, 2) < 0)
        skip();
    mp_diag_reset();
    assert_int_equal(attach(&m, tmp_path), 0);
    assert_int_equal(m.lines_missing, 1);
    assert_int_equal(mp_warning_count(), 1);
    assert_non_null(strstr(mp_last_warning(), "DWARF"));
    for (i = 0; i < m.nfuncs; i++)
        assert_null(m.funcs[i].file);
    mp_model_free(&m);
}

/* Random bytes over the line table and the units: whatever libdw makes
 * of them, lines or a warning, never an error or a crash. */
static void garbage(void **s)
{
    static const char *const sections[] = {".debug_line", ".debug_info", ".debug_abbrev", ".debug_str"};
    uint8_t junk[64];
    unsigned seed, i;

    (void)s;
    for (seed = 1; seed <= 24; seed++) {
        struct mp_model m;
        uint32_t x = seed * 2654435761u;
        size_t k;

        for (i = 0; i < sizeof(junk); i++) {
            x ^= x << 13, x ^= x >> 17, x ^= x << 5;
            junk[i] = (uint8_t)x;
        }
        if (damaged_copy(tmp_path, sections[seed % 4], 0, (seed / 4) * 37, junk, sizeof(junk)) < 0)
            continue;
        assert_int_equal(attach(&m, tmp_path), 0);
        for (k = 1; k < m.nlinerows; k++)
            assert_true(m.linerows[k - 1].end <= m.linerows[k].addr);
        mp_model_free(&m);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(split_by_bytes),
        cmocka_unit_test(line_at),
        cmocka_unit_test(needs_elf),
        cmocka_unit_test(own_declaration),
        cmocka_unit_test_setup_teardown(no_line_table, make_tmp, remove_tmp),
        cmocka_unit_test_setup_teardown(broken_unit, make_tmp, remove_tmp),
        cmocka_unit_test_setup_teardown(garbage, make_tmp, remove_tmp),
    };

    return cmocka_run_group_tests(tests, quiet, NULL);
}

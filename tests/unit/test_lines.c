/*
 * Source lines of a profile model: bins split among line-table rows by
 * bytes (a hand-made model), mp_model_line_at, and the DWARF reader on
 * this test's own executable: a function's declaration line, an ELF
 * whose line table is gone (a warning, no lines), and damaged DWARF
 * (never a crash, never an error): random bytes, and single changes
 * where libdw 0.188 trusts the sections (the last NUL of
 * .debug_line_str, a string offset, a unit length, a section cut short,
 * an entry form, a unit's line table offset, a compressed size), each
 * one warning naming the section.
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
#include <dwarf.h>
#include <elfutils/libdw.h>

#include "diag.h"
#include "dwarf_cu.h"
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

/* ---- sections libdw trusts, damaged one field at a time ---------------- */

/* Where section NAME of this executable lies in the file, its size, and
 * the file offset of its section header. -1 when there is none. */
static int section_at(const char *name, off_t *off, size_t *size, off_t *shdr_at)
{
    int fd = open(self_exe, O_RDONLY), found = -1;
    Elf *elf;
    Elf_Scn *scn = NULL;
    size_t shstrndx;
    GElf_Ehdr eh;

    assert_true(fd >= 0);
    elf_version(EV_CURRENT);
    elf = elf_begin(fd, ELF_C_READ, NULL);
    assert_non_null(elf);
    assert_non_null(gelf_getehdr(elf, &eh));
    assert_int_equal(elf_getshdrstrndx(elf, &shstrndx), 0);
    while ((scn = elf_nextscn(elf, scn)) != NULL) {
        GElf_Shdr sh;
        const char *nm;

        assert_non_null(gelf_getshdr(scn, &sh));
        nm = elf_strptr(elf, shstrndx, sh.sh_name);
        if (nm && strcmp(nm, name) == 0 && sh.sh_type == SHT_PROGBITS && !(sh.sh_flags & SHF_COMPRESSED)) {
            *off = (off_t)sh.sh_offset;
            *size = sh.sh_size;
            *shdr_at = (off_t)(eh.e_shoff + elf_ndxscn(scn) * eh.e_shentsize);
            found = 0;
        }
    }
    elf_end(elf);
    close(fd);
    return found;
}

/* This executable's section NAME, read (free() it); NULL when none. */
static uint8_t *section_bytes(const char *name, size_t *size)
{
    off_t off, shdr;
    uint8_t *buf;
    int fd;

    if (section_at(name, &off, size, &shdr) < 0)
        return NULL;
    buf = malloc(*size);
    assert_non_null(buf);
    fd = open(self_exe, O_RDONLY);
    assert_int_equal(pread(fd, buf, *size, off), (ssize_t)*size);
    close(fd);
    return buf;
}

/* A copy of this executable with N bytes written at file offset AT. */
static void patched_copy(const char *path, off_t at, const void *bytes, size_t n)
{
    int in = open(self_exe, O_RDONLY), out = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    char buf[65536];
    ssize_t got;

    assert_true(in >= 0 && out >= 0);
    while ((got = read(in, buf, sizeof(buf))) > 0)
        assert_int_equal(write(out, buf, (size_t)got), got);
    assert_int_equal(pwrite(out, bytes, n, at), (ssize_t)n);
    close(in);
    close(out);
}

static uint32_t le32(const uint8_t *p)
{
    return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The lines of PATH: none, and the one warning naming it ends with
 * "broken DWARF (WANT): no source lines". */
static void refused(const char *path, const char *want)
{
    struct mp_model m;
    char line[400];
    const char *w;
    size_t i;

    mp_diag_reset();
    assert_int_equal(attach(&m, path), 0);
    assert_int_equal(m.lines_missing, 1);
    assert_int_equal(m.nlinerows, 0);
    for (i = 0; i < m.nfuncs; i++)
        assert_null(m.funcs[i].file);
    assert_int_equal(mp_warning_count(), 1);
    w = mp_last_warning();
    snprintf(line, sizeof(line), "%s: broken DWARF (%s): no source lines", path, want);
    if (!strstr(w, line))
        fail_msg("warning '%s', not '%s'", w, line);
    mp_model_free(&m);
}

/* The layout of this executable's first DWARF 5 line table: where it
 * starts, its length, and where its first directory format's form byte
 * and first directory's path value lie (offsets in .debug_line); and the
 * last table's start and length. Written for what GCC emits (4-byte
 * lengths, one-byte LEB128 formats). */
struct v5_table {
    size_t at, len, form_at, value_at, last_at, last_len;
    unsigned form;
};

static int find_v5_table(struct v5_table *t)
{
    size_t size, at;
    uint8_t *sec = section_bytes(".debug_line", &size);
    int found = -1;

    if (!sec)
        return -1;
    for (at = 0; at + 4 <= size; at += 4 + le32(sec + at)) {
        const uint8_t *p = sec + at + 4;

        t->last_at = at;
        t->last_len = le32(sec + at);
        if (found == 0 || p[0] != 5 || p[1] != 0)
            continue;
        /* version, address_size, seg_sel, header_length (4), min_inst,
         * max_ops, default_is_stmt, line_base, line_range, opcode_base */
        p += 2 + 2 + 4 + 5;
        p += *p; /* opcode_base, then opcode_base - 1 lengths */
        p++;     /* directory_entry_format_count */
        assert_int_equal(p[0], 1); /* DW_LNCT_path first */
        t->at = at;
        t->len = le32(sec + at);
        t->form_at = (size_t)(p - sec);
        t->form = p[1];
        t->value_at = (size_t)(p - sec) + 2 * sec[t->form_at - 1] + 1; /* after the formats and the count */
        found = 0;
    }
    free(sec);
    return found;
}

/* The finding that started it: the last byte of .debug_line_str, its
 * NUL, changed. libdw 0.188 read file names past the section's heap
 * block; now one warning and no lines. */
static void line_str_unterminated(void **s)
{
    off_t off, shdr;
    size_t size;
    char want[200];

    (void)s;
    if (section_at(".debug_line_str", &off, &size, &shdr) < 0 || size == 0)
        skip(); /* DWARF 4 or older: no .debug_line_str */
    patched_copy(tmp_path, off + (off_t)size - 1, "x", 1);
    snprintf(want, sizeof(want),
             ".debug_line_str offset 0x%zx: the section's last byte is not the NUL that ends every string", size - 1);
    refused(tmp_path, want);
}

/* The first directory of a DWARF 5 table named by an offset past the end
 * of .debug_line_str. */
static void line_strp_outside(void **s)
{
    struct v5_table t;
    off_t off, shdr, str_off;
    size_t size, str_size;
    static const uint8_t far[4] = {0xff, 0xff, 0xff, 0x7f};
    char want[200];

    (void)s;
    if (find_v5_table(&t) < 0 || t.form != 0x1f /* DW_FORM_line_strp */ ||
        section_at(".debug_line_str", &str_off, &str_size, &shdr) < 0)
        skip();
    assert_int_equal(section_at(".debug_line", &off, &size, &shdr), 0);
    patched_copy(tmp_path, off + (off_t)t.value_at, far, sizeof(far));
    snprintf(want, sizeof(want), ".debug_line offset 0x%zx: string offset 0x7fffffff is outside .debug_line_str (%zu bytes)",
             t.value_at, str_size);
    refused(tmp_path, want);
}

/* A path form libdw reads as no string (DW_FORM_addrx). */
static void path_form_unknown(void **s)
{
    struct v5_table t;
    off_t off, shdr;
    size_t size;
    char want[200];

    (void)s;
    if (find_v5_table(&t) < 0)
        skip();
    assert_int_equal(section_at(".debug_line", &off, &size, &shdr), 0);
    patched_copy(tmp_path, off + (off_t)t.form_at + 1, "\x1b", 1);
    snprintf(want, sizeof(want), ".debug_line offset 0x%zx: a path of form 0x1b, not a string", t.form_at);
    refused(tmp_path, want);
}

/* The first table's unit_length as long as the whole section. */
static void unit_length_too_long(void **s)
{
    off_t off, shdr;
    size_t size;
    uint8_t len[4];
    char want[200];

    (void)s;
    if (section_at(".debug_line", &off, &size, &shdr) < 0)
        skip();
    len[0] = (uint8_t)size, len[1] = (uint8_t)(size >> 8), len[2] = (uint8_t)(size >> 16), len[3] = (uint8_t)(size >> 24);
    patched_copy(tmp_path, off, len, sizeof(len));
    snprintf(want, sizeof(want), ".debug_line offset 0x0: unit length 0x%zx runs past the section's end (%zu bytes left)",
             size, size - 4);
    refused(tmp_path, want);
}

/* .debug_line one byte shorter in its section header: the last table
 * runs past the end. */
static void line_section_cut(void **s)
{
    struct v5_table t;
    off_t off, shdr;
    size_t size;
    uint64_t cut;
    char want[200];

    (void)s;
    if (find_v5_table(&t) < 0)
        skip();
    assert_int_equal(section_at(".debug_line", &off, &size, &shdr), 0);
    cut = size - 1; /* sh_size, 64-bit little-endian as this host's ELF */
    patched_copy(tmp_path, shdr + (off_t)offsetof(Elf64_Shdr, sh_size), &cut, sizeof(cut));
    snprintf(want, sizeof(want), ".debug_line offset 0x%zx: unit length 0x%zx runs past the section's end (%zu bytes left)",
             t.last_at, t.last_len, t.last_len - 1);
    refused(tmp_path, want);
}

/* The first unit's DW_AT_stmt_list one byte into its line table: libdw
 * would parse a table from there. */
static void stmt_list_inside(void **s)
{
    int fd = open(self_exe, O_RDONLY);
    Elf *elf;
    Dwarf *dw;
    Dwarf_CU *unit = NULL;
    Dwarf_Die cu;
    Dwarf_Attribute attr;
    Dwarf_Word list = 0;
    Dwarf_Off die = 0;
    Elf_Scn *scn = NULL;
    Elf_Data *info = NULL;
    size_t shstrndx, at = 0, size;
    off_t off, shdr;
    uint32_t moved;
    char want[200];

    (void)s;
    assert_true(fd >= 0);
    elf_version(EV_CURRENT);
    assert_non_null(elf = elf_begin(fd, ELF_C_READ, NULL));
    assert_int_equal(elf_getshdrstrndx(elf, &shstrndx), 0);
    while ((scn = elf_nextscn(elf, scn)) != NULL) {
        GElf_Shdr sh;
        const char *nm = gelf_getshdr(scn, &sh) ? elf_strptr(elf, shstrndx, sh.sh_name) : NULL;

        if (nm && strcmp(nm, ".debug_info") == 0)
            info = elf_getdata(scn, NULL);
    }
    dw = info ? dwarf_begin_elf(elf, DWARF_C_READ, NULL) : NULL;
    while (dw && dwarf_get_units(dw, unit, &unit, NULL, NULL, &cu, NULL) == 0) {
        /* the attribute's bytes lie in libdw's view of .debug_info,
         * which is libelf's data of this ELF: their offset in it */
        if (dwarf_attr(&cu, DW_AT_stmt_list, &attr) && attr.form == DW_FORM_sec_offset &&
            dwarf_formudata(&attr, &list) == 0 && attr.valp >= (unsigned char *)info->d_buf &&
            attr.valp + 4 <= (unsigned char *)info->d_buf + info->d_size) {
            at = (size_t)(attr.valp - (unsigned char *)info->d_buf);
            die = dwarf_dieoffset(&cu);
            break;
        }
    }
    if (dw)
        dwarf_end(dw);
    elf_end(elf);
    close(fd);
    if (!at)
        skip();
    assert_int_equal(section_at(".debug_info", &off, &size, &shdr), 0);
    moved = (uint32_t)list + 1; /* 32-bit DWARF, little-endian as this host */
    patched_copy(tmp_path, off + (off_t)at, &moved, sizeof(moved));
    snprintf(want, sizeof(want),
             ".debug_info offset 0x%llx: the unit's line table offset 0x%llx is no table's start in .debug_line",
             (unsigned long long)die, (unsigned long long)moved);
    refused(tmp_path, want);
}

/* diff's file of a function by its unit reads the same guarded, checked
 * sections: intact, lines_marker's unit is test_lines.c; with the last
 * NUL of .debug_line_str gone, one warning and no file. */
static void unit_file_checked(void **s)
{
    struct mp_model m;
    off_t off, shdr;
    size_t size;
    const char *file = NULL;
    long k;
    char want[400];

    (void)s;
    if (section_at(".debug_line_str", &off, &size, &shdr) < 0 || size == 0)
        skip();
    mp_model_init(&m, "t.img", MP_MODEL_IMAGE);
    assert_int_equal(mp_model_attach_elf(&m, self_exe), 0);
    assert_true((k = find(&m, "lines_marker")) >= 0);
    assert_int_equal(mp_dwarf_cu_files(&m, &k, 1, &file), 0);
    assert_string_equal(file, "test_lines.c");
    mp_model_free(&m);

    patched_copy(tmp_path, off + (off_t)size - 1, "x", 1);
    mp_diag_reset();
    mp_model_init(&m, "t.img", MP_MODEL_IMAGE);
    assert_int_equal(mp_model_attach_elf(&m, tmp_path), 0);
    assert_true((k = find(&m, "lines_marker")) >= 0);
    assert_int_equal(mp_dwarf_cu_files(&m, &k, 1, &file), 0);
    assert_null(file);
    assert_int_equal(mp_warning_count(), 1);
    snprintf(want, sizeof(want),
             "%s: broken DWARF (.debug_line_str offset 0x%zx: the section's last byte is not the NUL that ends every "
             "string): functions of one name are not told apart by their files",
             tmp_path, size - 1);
    if (!strstr(mp_last_warning(), want))
        fail_msg("warning '%s', not '%s'", mp_last_warning(), want);
    mp_model_free(&m);
}

/* .debug_line marked SHF_COMPRESSED, its header saying it expands to
 * 1 GiB: refused before anything expands it. */
static void expands_too_far(void **s)
{
    off_t off, shdr;
    size_t size;
    Elf64_Chdr ch = {ELFCOMPRESS_ZLIB, 0, (Elf64_Xword)1 << 30, 1};
    Elf64_Xword flags = SHF_COMPRESSED;
    char want[200];
    int fd;

    (void)s;
    if (section_at(".debug_line", &off, &size, &shdr) < 0 || size < sizeof(ch))
        skip();
    patched_copy(tmp_path, off, &ch, sizeof(ch));
    fd = open(tmp_path, O_WRONLY);
    assert_int_equal(pwrite(fd, &flags, sizeof(flags), shdr + (off_t)offsetof(Elf64_Shdr, sh_flags)),
                     (ssize_t)sizeof(flags));
    close(fd);
    snprintf(want, sizeof(want), ".debug_line expands to %llu bytes: more than the 256 MiB of compressed DWARF read",
             1ull << 30);
    refused(tmp_path, want);
}

/* The same tables intact, read from memory as a fuzz target reads them:
 * the lines the file gives. */
static void from_memory(void **s)
{
    struct mp_model a, b;
    int fd = open(self_exe, O_RDONLY);
    off_t end = lseek(fd, 0, SEEK_END);
    uint8_t *buf = malloc((size_t)end);
    size_t i;

    (void)s;
    assert_non_null(buf);
    assert_int_equal(pread(fd, buf, (size_t)end, 0), (ssize_t)end);
    close(fd);
    assert_int_equal(attach(&a, self_exe), 0);
    mp_model_init(&b, "t.img", MP_MODEL_IMAGE);
    assert_int_equal(mp_model_attach_elf(&b, self_exe), 0);
    assert_int_equal(mp_model_lines_from_memory(&b, buf, (size_t)end), 0);
    assert_int_equal(b.lines_missing, a.lines_missing);
    assert_int_equal(b.nlinerows, a.nlinerows);
    for (i = 0; i < a.nlinerows; i++) {
        assert_int_equal(b.linerows[i].addr, a.linerows[i].addr);
        assert_int_equal(b.linerows[i].end, a.linerows[i].end);
        assert_int_equal(b.linerows[i].line, a.linerows[i].line);
        assert_string_equal(b.linerows[i].file, a.linerows[i].file);
    }
    assert_int_equal(mp_model_lines_from_memory(&b, "not an ELF", 10), -1);
    free(buf);
    mp_model_free(&a);
    mp_model_free(&b);
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
        cmocka_unit_test_setup_teardown(line_str_unterminated, make_tmp, remove_tmp),
        cmocka_unit_test_setup_teardown(line_strp_outside, make_tmp, remove_tmp),
        cmocka_unit_test_setup_teardown(path_form_unknown, make_tmp, remove_tmp),
        cmocka_unit_test_setup_teardown(unit_length_too_long, make_tmp, remove_tmp),
        cmocka_unit_test_setup_teardown(line_section_cut, make_tmp, remove_tmp),
        cmocka_unit_test_setup_teardown(stmt_list_inside, make_tmp, remove_tmp),
        cmocka_unit_test_setup_teardown(expands_too_far, make_tmp, remove_tmp),
        cmocka_unit_test_setup_teardown(unit_file_checked, make_tmp, remove_tmp),
        cmocka_unit_test(from_memory),
    };

    return cmocka_run_group_tests(tests, quiet, NULL);
}

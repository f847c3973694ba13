/*
 * gprof read-back: an image whose arcs and bins point into the functions of
 * a tiny cross-built ELF (gprof/arm_prog.S, gprof/rv64_prog.S) is converted
 * by the `mcuprof` binary in both formats, and the real cross gprof must
 * report exactly the calls, self seconds and percentages the image holds,
 * with each call charged to the right caller.
 *
 * usage: test_gprof MCUPROF ELF NM GPROF arm|rv64 WORKDIR
 * Exits 77 (skipped) when the ELF was not built (no cross compiler) or the
 * cross binutils are missing.
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

#include "image_builder.h"

#define SKIP 77

static const char *mcuprof, *elf, *nm, *gprof, *arch, *workdir;
static int is_arm, is_big;

/* ---- symbols ---------------------------------------------------------- */

struct sym {
    char name[32];
    uint64_t addr;
};
static struct sym syms[32];
static unsigned nsyms;

static int load_symbols(void)
{
    char cmd[512], line[256];
    FILE *p;

    snprintf(cmd, sizeof(cmd), "%s %s", nm, elf);
    p = popen(cmd, "r");
    if (!p)
        return -1;
    while (fgets(line, sizeof(line), p) && nsyms < 32) {
        unsigned long long a;
        char type, name[64];

        if (sscanf(line, "%llx %c %63s", &a, &type, name) == 3 && (type == 'T' || type == 't') &&
            strlen(name) < sizeof(syms[0].name)) {
            strcpy(syms[nsyms].name, name);
            syms[nsyms].addr = a;
            nsyms++;
        }
    }
    return pclose(p) == 0 && nsyms > 0 ? 0 : -1;
}

static uint64_t sym(const char *name)
{
    unsigned i;

    for (i = 0; i < nsyms; i++) {
        if (strcmp(syms[i].name, name) == 0)
            return syms[i].addr;
    }
    fail_msg("no symbol %s in %s", name, elf);
    return 0;
}

/* ---- the image -------------------------------------------------------- */

/* Return address of the call at a known offset in a function: a Thumb
 * return address carries bit 0. Offsets are documented in the .S files. */
static uint64_t ret(const char *fn, unsigned arm_off, unsigned rv_off)
{
    return sym(fn) + (is_arm ? arm_off : rv_off) + (is_arm ? 1 : 0);
}

/* selfpc: just after the callee's hook call, inside the callee */
static uint64_t self(const char *fn)
{
    return sym(fn) + 4 + (is_arm ? 1 : 0);
}

static uint32_t bins0[256], bins1[64];

/* MODE 0, GNU: two ranges, 4-byte counters, counts above 65535, 10 kHz.
 * MODE 1, BSD: the first range only and small counts, 100 Hz.
 * MODE 2, no ranges: arcs only, converted to GNU.
 * MODE 3, GNU: as MODE 0 with the runtime's 2-byte counters, work_a's
 * first bin at 200000 (3 carries in the spill table, 3392 in the bin).
 * MODE 4, BSD: MODE 3's first range. */
static size_t build_image(uint8_t *buf, size_t cap, int mode)
{
    struct tb_arc arcs[7];
    struct tb_image d;
    struct tb_spill spill[2];
    unsigned nspill = 0, r, b;
    uint64_t lo0 = sym("main_fn"), lo1 = sym("ram_fn");
    uint32_t n0 = (uint32_t)((sym("zz_end") + 16 - lo0) / 4);
    uint32_t n1 = (uint32_t)((sym("zz_ram_end") + 16 - lo1) / 4);

    assert_true(n0 <= 256 && n1 <= 64);
    memset(bins0, 0, sizeof(bins0));
    memset(bins1, 0, sizeof(bins1));
    bins0[(sym("work_a") - lo0) / 4] = mode >= 3 ? 200000 : mode ? 600 : 70000;
    bins0[(sym("work_a") + 4 - lo0) / 4] = mode == 1 || mode == 2 ? 300 : 20000;
    bins0[(sym("work_b") + 8 - lo0) / 4] = mode == 1 || mode == 2 ? 300 : 30000;
    bins0[(sym("isr_fn") - lo0) / 4] = mode == 1 || mode == 2 ? 800 : 40000;
    bins1[0] = 40000;
    if (mode >= 3) { /* what the runtime leaves: the low 16 bits, the carries in the table */
        for (r = 0; r < 2; r++) {
            uint32_t *bins = r ? bins1 : bins0, n = r ? n1 : n0;

            for (b = 0; b < n; b++) {
                if (bins[b] > 0xFFFF) {
                    assert_true(nspill < 2);
                    spill[nspill++] = (struct tb_spill){r, b, bins[b] >> 16};
                    bins[b] &= 0xFFFF;
                }
            }
        }
    }

    arcs[0] = (struct tb_arc){ret("main_fn", 6, 12), self("work_a"), 70000};
    arcs[1] = (struct tb_arc){ret("main_fn", 10, 16), self("work_b"), 3};
    arcs[2] = (struct tb_arc){ret("work_b", 6, 12), self("work_a"), 3};
    arcs[3] = (struct tb_arc){ret("main_fn", 14, 20), self("ender"), 1};
    /* the noreturn call that ends `ender` returns to `after` */
    arcs[4] = (struct tb_arc){ret("ender", 16, 32), self("stop"), 1};
    assert_true(arcs[4].frompc == sym("after") + (is_arm ? 1 : 0));
    arcs[5] = (struct tb_arc){ret("main_fn", 18, 24), self("ram_fn"), 5};
    /* an interrupt: EXC_RETURN on ARM, no caller (0) on RISC-V */
    arcs[6] = (struct tb_arc){is_arm ? 0xFFFFFFF9 : 0, self("isr_fn"), 7};

    memset(&d, 0, sizeof(d));
    d.big = is_big;
    d.ptr_size = is_arm ? 4 : 8;
    d.machine = is_arm ? 40 : 243;
    d.rate = mode == 1 || mode == 2 ? 100 : 10000;
    d.bin_shift = 2;
    d.counter_bytes = mode >= 3 ? 2 : 4;
    d.nranges = mode == 2 ? 0 : mode == 1 || mode == 4 ? 1 : 2;
    d.spill_capacity = mode >= 3 ? 4 : 0;
    d.nspill = nspill;
    d.spill = spill;
    d.ranges[0] = (struct tb_range){lo0, n0, bins0};
    d.ranges[1] = (struct tb_range){lo1, n1, bins1};
    d.narcs = 7;
    d.arcs = arcs;
    return tb_build(&d, buf, cap);
}

/* ---- running the tools ------------------------------------------------ */

static char out_text[65536];

/* Run CMD, capture stdout+stderr in out_text, return the exit status. */
static int capture(const char *cmd)
{
    FILE *p = popen(cmd, "r");
    size_t n;
    int st;

    assert_non_null(p);
    n = fread(out_text, 1, sizeof(out_text) - 1, p);
    out_text[n] = '\0';
    st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void convert_and_profile(int mode, char *flat, char *graph, size_t cap)
{
    static uint8_t img[16384];
    char path_img[256], path_gmon[256], cmd[1024];
    size_t n = build_image(img, sizeof(img), mode);

    assert_true(n > 0);
    static const char *const kind[5] = {"gnu", "bsd", "noranges", "gnu-spill", "bsd-spill"};

    snprintf(path_img, sizeof(path_img), "%s/%s-%s.img", workdir, arch, kind[mode]);
    snprintf(path_gmon, sizeof(path_gmon), "%s/%s-%s.gmon", workdir, arch, kind[mode]);
    assert_int_equal(tb_write_file(path_img, img, n), 0);
    snprintf(cmd, sizeof(cmd), "%s convert %s -o %s --format %s 2>&1", mcuprof, path_img, path_gmon,
             mode == 1 || mode == 4 ? "bsd" : "gnu");
    if (capture(cmd) != 0)
        fail_msg("%s: %s", cmd, out_text);
    snprintf(cmd, sizeof(cmd), "%s -b -p %s %s 2>&1", gprof, elf, path_gmon);
    if (capture(cmd) != 0)
        fail_msg("%s: %s", cmd, out_text);
    snprintf(flat, cap, "%s", out_text);
    snprintf(cmd, sizeof(cmd), "%s -b -q %s %s 2>&1", gprof, elf, path_gmon);
    if (capture(cmd) != 0)
        fail_msg("%s: %s", cmd, out_text);
    snprintf(graph, cap, "%s", out_text);
}

/* ---- reading gprof's output ------------------------------------------- */

/* Split a line into at most 8 whitespace-separated tokens. */
static int tokens(const char *line, size_t len, char tok[8][48])
{
    int n = 0;
    size_t i = 0;

    while (i < len && n < 8) {
        size_t k = 0;

        while (i < len && (line[i] == ' ' || line[i] == '\t'))
            i++;
        if (i >= len)
            break;
        while (i < len && line[i] != ' ' && line[i] != '\t' && k < 47)
            tok[n][k++] = line[i++];
        tok[n][k] = '\0';
        n++;
    }
    return n;
}

/* The flat-profile row of FN: "% cumulative self [calls s/call s/call] name". */
static void expect_flat(const char *flat, const char *fn, const char *pct, const char *self_s,
                        const char *calls)
{
    const char *line = flat;

    while (*line) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        char tok[8][48];
        int n = tokens(line, len, tok);

        if ((n == 4 || n == 7) && strcmp(tok[n - 1], fn) == 0) {
            if (strcmp(tok[0], pct) != 0 || strcmp(tok[2], self_s) != 0 ||
                strcmp(n == 7 ? tok[3] : "", calls) != 0)
                fail_msg("%s: %% %s self %s calls '%s', want %s %s '%s'\n%s", fn, tok[0], tok[2],
                         n == 7 ? tok[3] : "", pct, self_s, calls, flat);
            return;
        }
        line = end ? end + 1 : line + len;
    }
    fail_msg("%s not in the flat profile:\n%s", fn, flat);
}

/* In the call graph entry of FN, the parent lines (above the "[n]" line)
 * must be exactly PARENTS, each "name" or "called/total name". */
static void expect_parents(const char *graph, const char *fn, const char *const *parents,
                           unsigned nparents)
{
    const char *block = graph;

    while (*block) {
        const char *end = strstr(block, "-----");
        size_t blen = end ? (size_t)(end - block) : strlen(block);
        const char *line = block;
        unsigned seen = 0;
        char got[8][100];

        while (line < block + blen) {
            const char *eol = memchr(line, '\n', (size_t)(block + blen - line));
            size_t len = eol ? (size_t)(eol - line) : (size_t)(block + blen - line);
            char tok[8][48];
            int n = tokens(line, len, tok);

            if (n >= 2 && tok[0][0] == '[') {
                if (strcmp(tok[n - 2], fn) == 0) {
                    unsigned i;

                    if (seen != nparents)
                        fail_msg("%s has %u parents, want %u\n%s", fn, seen, nparents, graph);
                    for (i = 0; i < nparents; i++) {
                        if (strcmp(got[i], parents[i]) != 0)
                            fail_msg("%s parent %u is '%s', want '%s'\n%s", fn, i, got[i],
                                     parents[i], graph);
                    }
                    return;
                }
                break;
            }
            /* a parent line: "<spontaneous>", or "... called name [n]" */
            if (seen < 8 && n == 1 && strcmp(tok[0], "<spontaneous>") == 0)
                snprintf(got[seen++], sizeof(got[0]), "%s", tok[0]);
            else if (seen < 8 && n >= 3 && tok[n - 1][0] == '[')
                snprintf(got[seen++], sizeof(got[0]), "%s %s", tok[n - 3], tok[n - 2]);
            line = eol ? eol + 1 : block + blen;
        }
        if (!end)
            break;
        block = strchr(end, '\n');
        if (!block)
            break;
        block++;
    }
    fail_msg("%s not in the call graph:\n%s", fn, graph);
}

static char flat[65536], graph[65536];

static void common_graph_checks(void)
{
    static const char *const a_parents[] = {"3/70003 work_b", "70000/70003 main_fn"};
    static const char *const stop_parents[] = {"1/1 ender"};
    static const char *const isr_parents[] = {"<spontaneous>"};

    expect_parents(graph, "work_a", a_parents, 2);
    /* the noreturn call is charged to `ender`, not to `after` */
    expect_parents(graph, "stop", stop_parents, 1);
    expect_parents(graph, "isr_fn", isr_parents, 1);
}

static void gnu_readback(void **s)
{
    (void)s;
    convert_and_profile(0, flat, graph, sizeof(flat));
    /* 90000 + 30000 + 40000 + 40000 samples at 10 kHz */
    expect_flat(flat, "work_a", "45.00", "9.00", "70003");
    expect_flat(flat, "work_b", "15.00", "3.00", "3");
    expect_flat(flat, "ram_fn", "20.00", "4.00", "5");
    /* gprof drops arcs from address 0: the interrupt's 7 calls are not
     * counted, and its caller shows as <spontaneous> */
    expect_flat(flat, "isr_fn", "20.00", "4.00", "");
    expect_flat(flat, "stop", "0.00", "0.00", "1");
    expect_flat(flat, "ender", "0.00", "0.00", "1");
    common_graph_checks();
}

static void bsd_readback(void **s)
{
    (void)s;
    convert_and_profile(1, flat, graph, sizeof(flat));
    /* 900 + 300 + 800 samples at 100 Hz; ram_fn is outside the range */
    expect_flat(flat, "work_a", "45.00", "9.00", "70003");
    expect_flat(flat, "work_b", "15.00", "3.00", "3");
    expect_flat(flat, "isr_fn", "40.00", "8.00", "");
    expect_flat(flat, "ram_fn", "0.00", "0.00", "5");
    common_graph_checks();
}

/* Counts above 65535 from the runtime's spill table: the GNU gmon.out
 * repeats work_a's range (200000 = 3 x 65535 + 3395, four records), and
 * the real gprof adds the records bin by bin (hist.c hist_read_rec). */
static void gnu_spill_readback(void **s)
{
    (void)s;
    convert_and_profile(3, flat, graph, sizeof(flat));
    /* 220000 + 30000 + 40000 + 40000 = 330000 samples at 10 kHz */
    expect_flat(flat, "work_a", "66.67", "22.00", "70003");
    expect_flat(flat, "work_b", "9.09", "3.00", "3");
    expect_flat(flat, "ram_fn", "12.12", "4.00", "5");
    expect_flat(flat, "isr_fn", "12.12", "4.00", "");
    common_graph_checks();
}

/* The BSD layout has one record: every bin and the rate divided by
 * ceil(200000 / 65535) = 4, so seconds and shares are those of the counts. */
static void bsd_spill_readback(void **s)
{
    (void)s;
    convert_and_profile(4, flat, graph, sizeof(flat));
    /* 220000 + 30000 + 40000 = 290000 samples at 10 kHz */
    expect_flat(flat, "work_a", "75.86", "22.00", "70003");
    expect_flat(flat, "work_b", "10.34", "3.00", "3");
    expect_flat(flat, "isr_fn", "13.79", "4.00", "");
    common_graph_checks();
}

/* An image without ranges gets an empty histogram record: gprof accepts
 * the file, shows every call count and no time (not -nan). */
static void no_ranges_readback(void **s)
{
    (void)s;
    convert_and_profile(2, flat, graph, sizeof(flat));
    assert_non_null(strstr(flat, "no time accumulated"));
    assert_null(strstr(graph, "nan"));
    expect_flat(flat, "work_a", "0.00", "0.00", "70003");
    expect_flat(flat, "ram_fn", "0.00", "0.00", "5");
    expect_flat(flat, "stop", "0.00", "0.00", "1");
    {
        static const char *const stop_parents[] = {"1/1 ender"};

        expect_parents(graph, "stop", stop_parents, 1);
    }
}

/* ---- gprof's attribution, as `mcuprof info --elf` reports it --------- */

static char info_text[65536];

/* The row of FN in info's function table: tokens name, samples, % taken,
 * interval, % gprof [, note]. 0 if absent. */
static int info_row(const char *fn, char tok[8][48])
{
    const char *line = strstr(info_text, "\n  function ");

    while (line && *line) {
        const char *end;
        size_t len;

        line++;
        end = strchr(line, '\n');
        len = end ? (size_t)(end - line) : strlen(line);
        if (tokens(line, len, tok) >= 5 && strcmp(tok[0], fn) == 0)
            return 1;
        line = end;
    }
    return 0;
}

/* Bins wider than the functions' spacing: some bins hold two functions,
 * which gprof splits by bytes. Every function's share and self time in
 * gprof's flat profile must be what `info --elf` says gprof will print. */
static void shared_bins_match_gprof(void **s)
{
    static uint8_t img[16384];
    static uint32_t bins[64];
    char path_img[256], path_gmon[256], cmd[1024];
    struct tb_image d;
    unsigned shift = is_arm ? 5 : 6, checked = 0;
    uint64_t lo = sym("main_fn");
    uint32_t n = (uint32_t)((sym("zz_end") - lo) >> shift) + 1;
    const char *line;
    size_t len;

    (void)s;
    assert_true(n <= 64 && lo % (1u << shift) == 0);
    memset(bins, 0, sizeof(bins));
    bins[(sym("main_fn") - lo) >> shift] += 40;
    bins[(sym("work_a") - lo) >> shift] += 300;
    bins[(sym("ender") - lo) >> shift] += 100;
    bins[(sym("stop") - lo) >> shift] += 60;
    memset(&d, 0, sizeof(d));
    d.big = is_big;
    d.ptr_size = is_arm ? 4 : 8;
    d.machine = is_arm ? 40 : 243;
    d.rate = 100;
    d.bin_shift = (uint8_t)shift;
    d.counter_bytes = 2;
    d.nranges = 1;
    d.ranges[0] = (struct tb_range){lo, n, bins};
    d.samples_taken = 500;
    len = tb_build(&d, img, sizeof(img));
    assert_true(len > 0);
    snprintf(path_img, sizeof(path_img), "%s/%s-shared.img", workdir, arch);
    snprintf(path_gmon, sizeof(path_gmon), "%s/%s-shared.gmon", workdir, arch);
    assert_int_equal(tb_write_file(path_img, img, len), 0);
    snprintf(cmd, sizeof(cmd), "%s convert %s -o %s --elf %s --min-samples 0 2>&1", mcuprof,
             path_img, path_gmon, elf);
    if (capture(cmd) != 0)
        fail_msg("%s: %s", cmd, out_text);
    if (is_arm) {
        /* 16-byte aligned functions in 32-byte bins: ender + after and
         * stop + isr_fn share a bin; the warning names the cost */
        assert_non_null(strstr(out_text, "160 samples (32.00 % of 500 binned) lie in 2 bins"));
        assert_non_null(strstr(out_text, "BIN_SHIFT 4"));
        assert_non_null(strstr(out_text, "worst: ender + after (100)"));
    }
    snprintf(cmd, sizeof(cmd), "%s info %s --elf %s --top 100 2>/dev/null", mcuprof, path_img,
             elf);
    if (capture(cmd) != 0)
        fail_msg("%s: %s", cmd, out_text);
    snprintf(info_text, sizeof(info_text), "%s", out_text);
    if (is_arm)
        assert_non_null(strstr(info_text, "160 samples in 2 bins (32.00 % of binned)"));
    snprintf(cmd, sizeof(cmd), "%s -b -p %s %s 2>&1", gprof, elf, path_gmon);
    if (capture(cmd) != 0)
        fail_msg("%s: %s", cmd, out_text);

    for (line = out_text; *line;) {
        const char *end = strchr(line, '\n');
        size_t llen = end ? (size_t)(end - line) : strlen(line);
        char tok[8][48], mine[8][48], self_s[32];
        int nt = tokens(line, llen, tok);

        line = end ? end + 1 : line + llen;
        if ((nt != 4 && nt != 7) || strcmp(tok[0], "0.00") == 0 || !strchr(tok[0], '.'))
            continue;
        if (!info_row(tok[nt - 1], mine))
            fail_msg("%s: in gprof's flat profile, not in info:\n%s\n%s", tok[nt - 1], out_text,
                     info_text);
        snprintf(self_s, sizeof(self_s), "%.2f", strtod(mine[1], NULL) / 100.0);
        if (strcmp(mine[4], tok[0]) != 0 || strcmp(self_s, tok[2]) != 0)
            fail_msg("%s: gprof %s %% %s s, info %s %% %s s\n%s\n%s", tok[nt - 1], tok[0], tok[2],
                     mine[4], self_s, out_text, info_text);
        checked++;
    }
    assert_true(checked >= 4);
    if (is_arm) {
        char mine[8][48];

        /* split by bytes: 50 / 50 and 30 / 30 */
        assert_true(info_row("ender", mine));
        assert_string_equal(mine[1], "50");
        assert_string_equal(mine[4], "10.00");
        assert_string_equal(mine[5], "shared");
        assert_true(info_row("isr_fn", mine));
        assert_string_equal(mine[1], "30");
        assert_true(info_row("work_a", mine));
        assert_string_equal(mine[1], "300");
        assert_string_equal(mine[4], "60.00");
    }
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(shared_bins_match_gprof),
        cmocka_unit_test(gnu_readback),
        cmocka_unit_test(bsd_readback),
        cmocka_unit_test(no_ranges_readback),
        cmocka_unit_test(gnu_spill_readback),
        cmocka_unit_test(bsd_spill_readback),
    };

    if (argc != 7) {
        fprintf(stderr, "usage: %s MCUPROF ELF NM GPROF arm|arm-be|rv64 WORKDIR\n", argv[0]);
        return 2;
    }
    mcuprof = argv[1];
    elf = argv[2];
    nm = argv[3];
    gprof = argv[4];
    arch = argv[5];
    workdir = argv[6];
    is_arm = strncmp(arch, "arm", 3) == 0;
    is_big = strcmp(arch, "arm-be") == 0;
    if (access(elf, R_OK) != 0 || access(nm, X_OK) != 0 || access(gprof, X_OK) != 0) {
        printf("SKIP: %s: needs %s, %s and %s (cross toolchain not installed?)\n", arch, elf, nm,
               gprof);
        return SKIP;
    }
    if (load_symbols() < 0) {
        fprintf(stderr, "cannot read symbols of %s with %s\n", elf, nm);
        return 1;
    }
    return cmocka_run_group_tests_name(arch, tests, NULL, NULL);
}

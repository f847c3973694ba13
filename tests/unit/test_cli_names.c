/*
 * Names from the input, as the built `mcuprof` binary shows them: task
 * names of an image, function names of an ELF and of a JSON document, a
 * file name, all holding terminal escapes (an OSC that sets the title, a
 * CSI, C1 controls in UTF-8 and as raw bytes, DEL, a bidirectional
 * override), go through info, report, report --task, convert, diff and
 * check. No byte a terminal acts on reaches stdout, stderr or a text
 * output: only printable ASCII, newlines and valid UTF-8 that is no
 * control, and each name appears in its escaped form (text_safe.h).
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

#include <mcuprof/image.h>

#include "image_builder.h"

#ifndef MCUPROF_BIN
#error "MCUPROF_BIN: path of the mcuprof binary under test"
#endif
#ifndef MCUPROF_TEST_ARM_ELF
#error "MCUPROF_TEST_ARM_ELF: path of gprof/arm_prog.S linked (absent without arm-none-eabi-gcc)"
#endif

/* The ELF's names and what replaces each, of the same length, so only
 * its string table changes: an OSC setting the window title, a C1 CSI as
 * UTF-8, a raw CSI byte (not UTF-8), DEL. */
static const struct {
    const char *was, *now, *shown;
} renamed[] = {
    {"work_a", "\x1b]0;X\x07", "\\x1b]0;X\\x07"},
    {"work_b", "w\xc2\x9b" "1mb", "w\\xc2\\x9b1mb"},
    {"ender", "e\x9b" "2Jr", "e\\x9b2Jr"},
    {"main_fn", "main\x7f" "fn", "main\\x7ffn"},
};
/* Task names: an OSC, a right-to-left override. */
static const char *const tasks[] = {"idle\x1b]2;T\x07", "ctl\xe2\x80\xae" "x"};
static const char *const tasks_shown[] = {"idle\\x1b]2;T\\x07", "ctl\\xe2\\x80\\xaex"};

/* The ELF's file name holds a CSI too: every line that names it. */
#define ELF_NAME "fw\x1b[31m.elf"
#define ELF_SHOWN "fw\\x1b[31m.elf"

static char dir[64];
static char path_elf[128], path_a[128], path_b[128], path_out[128], path_err[128];
static char out[65536], err[16384];

/* Functions of gprof/arm_prog.S: main_fn 0x1000, work_a 0x1020, work_b
 * 0x1040, ender 0x1060; 16-byte bins, one each, and the arcs among them. */
static const uint32_t bins_a[8] = {100, 0, 200, 0, 300, 0, 400, 0};
static const uint32_t bins_b[8] = {100, 0, 600, 0, 300, 0, 50, 0};
static const struct tb_arc arcs_a[4] = {
    {0x1007, 0x1021, 5}, {0x100b, 0x1041, 3}, {0x100f, 0x1061, 1}, {0x1047, 0x1021, 3}};
static const struct tb_arc arcs_b[4] = {
    {0x1007, 0x1021, 9}, {0x100b, 0x1041, 3}, {0x100f, 0x1061, 1}, {0x1047, 0x1021, 8}};
static const struct tb_path paths[2] = {{600, 2, 0, {0x1001, 0x1021}}, {400, 3, 0, {0x1001, 0x1041, 0x1021}}};
static const uint16_t path_tasks[2] = {0, 1};
static const uint32_t path_contexts[2] = {MCUPROF_CTX_THREAD, MCUPROF_CTX_THREAD};

static void write_image(const char *path, const uint32_t *bins, const struct tb_arc *arcs)
{
    static uint8_t img[8192];
    struct tb_image d;
    size_t len;

    memset(&d, 0, sizeof(d));
    d.ptr_size = 4;
    d.machine = 40;
    d.rate = 1000;
    d.bin_shift = 4;
    d.counter_bytes = 2;
    d.nranges = 1;
    d.ranges[0] = (struct tb_range){0x1000, 8, bins};
    d.narcs = 4;
    d.arcs = arcs;
    d.path_depth_max = 4;
    d.npaths = 2;
    d.paths = paths;
    d.task_paths = 1;
    d.path_tasks = path_tasks;
    d.path_contexts = path_contexts;
    d.ntasks = 2;
    d.task_names = tasks;
    len = tb_build(&d, img, sizeof(img));
    assert_true(len > 0);
    assert_int_equal(tb_write_file(path, img, len), 0);
}

/* The test ELF with its functions renamed, under a file name with a CSI. */
static void write_elf(void)
{
    static uint8_t elf[65536];
    FILE *f = fopen(MCUPROF_TEST_ARM_ELF, "rb");
    size_t len, i, k;

    assert_non_null(f);
    len = fread(elf, 1, sizeof(elf), f);
    fclose(f);
    assert_true(len > 0 && len < sizeof(elf));
    for (k = 0; k < sizeof(renamed) / sizeof(renamed[0]); k++) {
        size_t n = strlen(renamed[k].was), hits = 0;

        for (i = 1; i + n + 1 < len; i++)
            if (elf[i - 1] == '\0' && memcmp(elf + i, renamed[k].was, n) == 0 && elf[i + n] == '\0') {
                memcpy(elf + i, renamed[k].now, n);
                hits++;
            }
        assert_true(hits > 0);
    }
    assert_int_equal(tb_write_file(path_elf, elf, len), 0);
}

static int setup(void **state)
{
    (void)state;
    if (access(MCUPROF_TEST_ARM_ELF, R_OK) != 0)
        return 0; /* built with arm-none-eabi-gcc: each test skips */
    strcpy(dir, "/tmp/mcuprof-names-XXXXXX");
    assert_non_null(mkdtemp(dir));
    snprintf(path_elf, sizeof(path_elf), "%s/" ELF_NAME, dir);
    snprintf(path_a, sizeof(path_a), "%s/a.img", dir);
    snprintf(path_b, sizeof(path_b), "%s/b.img", dir);
    snprintf(path_out, sizeof(path_out), "%s/stdout.txt", dir);
    snprintf(path_err, sizeof(path_err), "%s/stderr.txt", dir);
    write_elf();
    write_image(path_a, bins_a, arcs_a);
    write_image(path_b, bins_b, arcs_b);
    return 0;
}

static int teardown(void **state)
{
    char cmd[160];

    (void)state;
    if (!dir[0])
        return 0;
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static size_t slurp(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    size_t n;

    assert_non_null(f);
    n = fread(buf, 1, cap - 1, f);
    assert_true(n < cap - 1);
    buf[n] = '\0';
    fclose(f);
    return n;
}

/* The offset of the first byte of BUF (N bytes) a terminal would act on,
 * or that is not UTF-8; N when there is none. Written apart from
 * text_safe.c on purpose: C0 but the newline, DEL, C1 as a byte or as
 * UTF-8, the bidirectional controls and separators U+2028..U+202E and
 * U+2066..U+2069, bytes that are not UTF-8. */
static size_t first_unsafe(const unsigned char *b, size_t n)
{
    size_t i = 0;

    while (i < n) {
        unsigned c = b[i], len, k;
        uint32_t cp;

        if (c < 0x80) {
            if ((c < 0x20 && c != '\n') || c == 0x7f)
                return i;
            i++;
            continue;
        }
        len = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c <= 0xdf ? 2 : 0;
        if (!len || c > 0xf4 || i + len > n)
            return i;
        cp = c & (0x7f >> len);
        for (k = 1; k < len; k++) {
            if ((b[i + k] & 0xc0) != 0x80)
                return i;
            cp = cp << 6 | (b[i + k] & 0x3f);
        }
        if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
            (cp >= 0xd800 && cp <= 0xdfff) || cp <= 0x9f || (cp >= 0x2028 && cp <= 0x202e) ||
            (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200e || cp == 0x200f || cp == 0x61c)
            return i;
        i += len;
    }
    return n;
}

static void clean(const char *what, const char *buf, size_t n)
{
    size_t at = first_unsafe((const unsigned char *)buf, n);

    if (at != n)
        fail_msg("%s: byte 0x%02x at offset %zu reaches the terminal raw", what,
                 (unsigned)(unsigned char)buf[at], at);
}

/* Run mcuprof with ARGS (file names single-quoted by the caller), expect
 * exit status WANT, and check both streams. */
static void run(int want, const char *fmt, ...)
{
    char args[1024], cmd[2048];
    va_list ap;
    int st;

    va_start(ap, fmt);
    vsnprintf(args, sizeof(args), fmt, ap);
    va_end(ap);
    snprintf(cmd, sizeof(cmd), "%s %s >'%s' 2>'%s'", MCUPROF_BIN, args, path_out, path_err);
    st = system(cmd);
    assert_true(WIFEXITED(st));
    clean("stdout", out, slurp(path_out, out, sizeof(out)));
    clean("stderr", err, slurp(path_err, err, sizeof(err)));
    if (WEXITSTATUS(st) != want)
        fail_msg("mcuprof %s: exit %d, stderr: %s", args, WEXITSTATUS(st), err);
}

static void has(const char *buf, const char *want)
{
    if (!strstr(buf, want))
        fail_msg("'%s' not in:\n%s", want, buf);
}

static int no_elf(void)
{
    if (dir[0])
        return 0;
    skip();
    return 1;
}

static void info_escapes(void **s)
{
    (void)s;
    if (no_elf())
        return;
    run(0, "info '%s' --elf '%s'", path_a, path_elf);
    /* the tasks, the paths through them, the self time by function */
    has(out, tasks_shown[0]);
    has(out, tasks_shown[1]);
    has(out, "    [task idle\\x1b]2;T\\x07] > main\\x7ffn > \\x1b]0;X\\x07  600 (60.00 %)\n");
    has(out, "  \\x1b]0;X\\x07");
    has(out, "  e\\x9b2Jr ");
    has(out, ELF_SHOWN ")\n");
}

static void report_escapes(void **s)
{
    unsigned k;

    (void)s;
    if (no_elf())
        return;
    run(0, "report '%s' --elf '%s' --force", path_a, path_elf);
    has(out, "firmware ");
    has(out, ELF_SHOWN " (");
    for (k = 0; k < sizeof(renamed) / sizeof(renamed[0]); k++)
        has(out, renamed[k].shown);
    /* the call graph: a block and its callers */
    has(out, "\nw\\xc2\\x9b1mb: ");
    has(out, "    <- main\\x7ffn ");
    run(0, "report '%s' --elf '%s' --force --task 'ctl\xe2\x80\xae" "x'", path_a, path_elf);
    has(out, "flat profile of task ctl\\xe2\\x80\\xaex (");
    /* the name as shown selects the task too */
    run(0, "report '%s' --elf '%s' --force --task 'idle\\x1b]2;T\\x07'", path_a, path_elf);
    has(out, "flat profile of task idle\\x1b]2;T\\x07 (");
    has(out, "\n  600 samples: 60.00 % of the 1000");
}

/* The text outputs a user may print; JSON keeps its own escapes. */
static void convert_escapes(void **s)
{
    static const struct {
        const char *file, *shown;
    } outputs[] = {
        /* JSON: read back as the same bytes, a C1 control as its two */
        {"a.json", "\"name\": \"e\\u009b2Jr\""},
        {"a.json", "\"\\u001b]0;X\\u0007\""},
        {"a.json", "\"w\\u00c2\\u009b1mb\""},
        {"a.dot", "[label=\"e\\\\x9b2Jr\\n"}, /* the escape's backslash doubled for DOT */
        {"a.folded", "\nmain\\x7ffn;w\\xc2\\x9b1mb;\\x1b]0?X\\x07 400\n"}, /* ';' as '?' */
        {"a.tasks", "[task ctl\\xe2\\x80\\xaex];main\\x7ffn;w\\xc2\\x9b1mb;\\x1b]0?X\\x07 400\n"},
        {"a.tasks", "[task idle\\x1b]2?T\\x07];main\\x7ffn;\\x1b]0?X\\x07 600\n"},
        {"a.callgrind", ") e\\x9b2Jr\n"},
    };
    unsigned k;

    (void)s;
    if (no_elf())
        return;
    run(0, "convert '%s' --elf '%s' --force --format json:'%s/a.json',dot:'%s/a.dot',folded:'%s/a.folded',"
           "folded-task:'%s/a.tasks',callgrind:'%s/a.callgrind'",
        path_a, path_elf, dir, dir, dir, dir, dir);
    for (k = 0; k < sizeof(outputs) / sizeof(outputs[0]); k++) {
        char path[192];

        snprintf(path, sizeof(path), "%s/%s", dir, outputs[k].file);
        clean(outputs[k].file, out, slurp(path, out, sizeof(out)));
        has(out, outputs[k].shown);
    }
}

/* Two JSON documents holding the names: every table of diff. */
static void diff_escapes(void **s)
{
    (void)s;
    if (no_elf())
        return;
    run(0, "convert '%s' --elf '%s' --force --format json:'%s/a.json'", path_a, path_elf, dir);
    run(0, "convert '%s' --elf '%s' --force --format json:'%s/b.json'", path_b, path_elf, dir);
    run(0, "diff '%s/a.json' '%s/b.json' --top 0", dir, dir);
    has(out, "  \\x1b]0;X\\x07 ");
    has(out, "  e\\x9b2Jr ");
    has(out, "  w\\xc2\\x9b1mb -> \\x1b]0;X\\x07 ");
    run(3, "diff '%s/a.json' '%s/b.json' --fail-calls 1", dir, dir); /* 3: a threshold passed */
    has(out, "  \\x1b]0;X\\x07: calls 8 -> 17 passes --fail-calls 1");
}

/* Errors and findings name the file and quote the input. */
static void messages_escape(void **s)
{
    (void)s;
    if (no_elf())
        return;
    run(1, "info '%s/missing\x1b]0;X\x07.img'", dir);
    has(err, "missing\\x1b]0;X\\x07.img");
    run(1, "report '%s' --elf '%s' --task 'none\x1b[2J'", path_a, path_elf);
    has(err, "none\\x1b[2J");
    run(1, "check '%s'", path_elf); /* not built with -pg */
    has(err, ELF_SHOWN ": no __gnu_mcount_nc");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(info_escapes),    cmocka_unit_test(report_escapes),  cmocka_unit_test(convert_escapes),
        cmocka_unit_test(diff_escapes),    cmocka_unit_test(messages_escape),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}

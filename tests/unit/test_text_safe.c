/*
 * Input-derived text as shown (text_safe.h): printable ASCII and valid
 * UTF-8 kept, the backslash doubled, every control character (C0, DEL,
 * C1, bidirectional controls, line separators) and every byte that is
 * not UTF-8 as \xNN; the ring of buffers and the bounded copy; every
 * error message (diag.h) and every finding of `check` escaped as a whole.
 */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "check_model.h"
#include "diag.h"
#include "text_safe.h"

static void shown(const char *in, const char *want)
{
    assert_string_equal(mp_esc(in), want);
}

static void kept_as_is(void **s)
{
    static const char plain[] = "motor::Filter::step(unsigned long) [clone .constprop.0]";
    static const char utf8[] = "Z\xc3\xa4hler \xe2\x89\xa5 \xe6\xb8\xac\xe5\xae\x9a \xf0\x9f\x94\xa5";

    (void)s;
    /* nothing escaped: the string itself, no copy */
    assert_ptr_equal(mp_esc(plain), plain);
    assert_ptr_equal(mp_esc(utf8), utf8);
    shown("", "");
    shown(NULL, "(null)");
    /* U+00A0, U+00FF, U+2027 and U+202F, U+2065 and U+206A: neighbours of escaped ranges */
    shown("\xc2\xa0\xc3\xbf\xe2\x80\xa7\xe2\x80\xaf\xe2\x81\xa5\xe2\x81\xaa",
          "\xc2\xa0\xc3\xbf\xe2\x80\xa7\xe2\x80\xaf\xe2\x81\xa5\xe2\x81\xaa");
}

static void controls_escaped(void **s)
{
    (void)s;
    /* an OSC that sets the window title, a CSI that clears the screen */
    shown("task\x1b]0;pwned\x07", "task\\x1b]0;pwned\\x07");
    shown("\x1b[2J\x1b[H", "\\x1b[2J\\x1b[H");
    shown("tab\tnl\ncr\r", "tab\\x09nl\\x0acr\\x0d");
    shown("\x01\x1f\x7f", "\\x01\\x1f\\x7f");
    /* the backslash doubled, so a name spelled \x1b reads apart from ESC */
    shown("a\\x1b", "a\\\\x1b");
    /* C1 controls as UTF-8: U+0080, U+009B (CSI), U+009F */
    shown("\xc2\x80-\xc2\x9b[2J-\xc2\x9f", "\\xc2\\x80-\\xc2\\x9b[2J-\\xc2\\x9f");
    /* bidirectional controls and separators: U+061C, U+200E, U+200F,
     * U+2028, U+2029, U+202A, U+202E, U+2066, U+2069 */
    shown("\xd8\x9c\xe2\x80\x8e\xe2\x80\x8f", "\\xd8\\x9c\\xe2\\x80\\x8e\\xe2\\x80\\x8f");
    shown("\xe2\x80\xa8\xe2\x80\xa9\xe2\x80\xaa\xe2\x80\xae", "\\xe2\\x80\\xa8\\xe2\\x80\\xa9\\xe2\\x80\\xaa\\xe2\\x80\\xae");
    shown("\xe2\x81\xa6\xe2\x81\xa9", "\\xe2\\x81\\xa6\\xe2\\x81\\xa9");
}

static void not_utf8_escaped(void **s)
{
    (void)s;
    /* a raw C1 byte (CSI in an 8-bit terminal), Latin-1, a cut sequence */
    shown("\x9b" "31m", "\\x9b31m");
    shown("caf\xe9", "caf\\xe9");
    shown("\xe2\x89", "\\xe2\\x89");
    /* overlong, surrogate, above U+10FFFF, lone continuation, 0xff */
    shown("\xc0\xaf\xe0\x80\x80", "\\xc0\\xaf\\xe0\\x80\\x80");
    shown("\xed\xa0\x80", "\\xed\\xa0\\x80");
    shown("\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80");
    shown("\x80\xff", "\\x80\\xff");
}

/* No byte a terminal acts on is left, for every byte value and every
 * pair: the output is printable ASCII or kept UTF-8 only. */
static void every_byte(void **s)
{
    char in[3];
    unsigned a, b;

    (void)s;
    for (a = 1; a < 256; a++) {
        for (b = 0; b < 256; b++) {
            const unsigned char *o;

            in[0] = (char)a;
            in[1] = (char)b;
            in[2] = '\0';
            for (o = (const unsigned char *)mp_esc(in); *o; o++) {
                size_t n = mp_text_kept_len(o, strlen((const char *)o));

                if (*o == '\\') {
                    assert_true(o[1] == '\\' || o[1] == 'x');
                    o += o[1] == '\\' ? 1 : 3;
                    continue;
                }
                assert_int_not_equal(n, 0);
                o += n - 1;
            }
        }
    }
}

/* Up to MP_TEXT_SAFE_RING results stand side by side. */
static void ring(void **s)
{
    const char *got[MP_TEXT_SAFE_RING];
    char in[MP_TEXT_SAFE_RING][8];
    unsigned i;

    (void)s;
    for (i = 0; i < MP_TEXT_SAFE_RING; i++) {
        snprintf(in[i], sizeof(in[i]), "\x1b%u", i);
        got[i] = mp_esc(in[i]);
    }
    for (i = 0; i < MP_TEXT_SAFE_RING; i++) {
        char want[16];

        snprintf(want, sizeof(want), "\\x1b%u", i);
        assert_string_equal(got[i], want);
    }
}

/* The bounded copy cuts before an escape or a character, never inside. */
static void bounded(void **s)
{
    char buf[8];

    (void)s;
    assert_int_equal(mp_esc_buf(buf, sizeof(buf), "ab\x1b" "cdef"), 7);
    assert_string_equal(buf, "ab\\x1bc");
    assert_int_equal(mp_esc_buf(buf, sizeof(buf), "abcd\x1b"), 4);
    assert_string_equal(buf, "abcd");
    assert_int_equal(mp_esc_buf(buf, sizeof(buf), "abcde\xe2\x89\xa5"), 5);
    assert_string_equal(buf, "abcde");
    assert_int_equal(mp_esc_buf(buf, sizeof(buf), "abcdef\\"), 6);
    assert_string_equal(buf, "abcdef");
    assert_int_equal(mp_esc_buf(buf, 1, "abc"), 0);
    assert_string_equal(buf, "");
}

/* An error names the file and quotes the field: both escaped, on one line. */
static void messages(void **s)
{
    (void)s;
    mp_diag_quiet(1);
    mp_error("img\x1b[2J.bin", "task name '%s' at 0x%x", "idle\x1b]0;x\x07\n", 0x20);
    assert_string_equal(mp_last_error(), "img\\x1b[2J.bin: task name 'idle\\x1b]0;x\\x07\\x0a' at 0x20");
    mp_warn(NULL, "function %s", "f\xc2\x9b" "1m");
    assert_string_equal(mp_last_warning(), "function f\\xc2\\x9b1m");
    /* a message's own backslashes are kept: it quotes JSON's escapes */
    mp_error("t.json", "'\\%c' is not an escape of JSON", 'x');
    assert_string_equal(mp_last_error(), "t.json: '\\x' is not an escape of JSON");
    mp_diag_quiet(0);
    mp_diag_reset();
}

/* A finding of `mcuprof check` names the ELF and a function and quotes
 * names in its text: all escaped, on one line of stdout. */
static void check_findings(void **s)
{
    char path[] = "/tmp/mcuprof-finding-XXXXXX", got[512];
    struct ck c;
    FILE *f;
    size_t n;
    int fd = mkstemp(path), saved;

    (void)s;
    assert_true(fd >= 0);
    memset(&c, 0, sizeof(c));
    c.path = "fw\x1b[31m.elf";
    fflush(stdout);
    saved = dup(1);
    assert_true(saved >= 0 && dup2(fd, 1) != -1); /* 1 on POSIX, 0 on Windows */
    ck_finding(&c, 1, "f\xc2\x9b" "1m", "calls %s at 0x%x", "g\x1b]0;t\x07", 0x100);
    fflush(stdout);
    assert_true(dup2(saved, 1) != -1);
    close(saved);
    close(fd);
    f = fopen(path, "rb");
    assert_non_null(f);
    n = fread(got, 1, sizeof(got) - 1, f);
    fclose(f);
    unlink(path);
    got[n] = '\0';
    assert_string_equal(got, "fw\\x1b[31m.elf: f\\xc2\\x9b1m: error: calls g\\x1b]0;t\\x07 at 0x100\n");
    assert_int_equal(c.errors, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(kept_as_is),   cmocka_unit_test(controls_escaped), cmocka_unit_test(not_utf8_escaped),
        cmocka_unit_test(every_byte),   cmocka_unit_test(ring),             cmocka_unit_test(bounded),
        cmocka_unit_test(messages),     cmocka_unit_test(check_findings),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}

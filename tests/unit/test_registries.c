/*
 * The tables built from one file an entry. Formats (formats.c): every
 * format file is in the table, in rank order, gnu first (the default); a
 * name finds its format and an unknown one is refused naming every format;
 * the help has one line per format. Transports (transports.c): every
 * transport file is in the table, in rank order, gdb first (the default);
 * each parses its own endpoint (HOST:PORT for both TCP transports, with
 * their own default port); the usage, help lines and notes of pull and ctl
 * are made from the table; the shared options select a transport by its
 * long or short option.
 */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "diag.h"
#include "formats.h"
#include "target_open.h"
#include "text_wrap.h"
#include "transports.h"

static int quiet(void **s)
{
    (void)s;
    mp_diag_quiet(1);
    mp_diag_reset();
    return 0;
}

/* What F wrote, malloc'd: call with a function that prints. */
static char *printed(void (*print)(FILE *f))
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);

    assert_non_null(f);
    print(f);
    fclose(f);
    return buf;
}

/* Every file the build found, as the generated lists name them. */
#define MP_FORMAT_FILE(name) &mp_format_##name,
static const void *const format_files[] = {
#include "format_files.h"
};
#undef MP_FORMAT_FILE
#define MP_TRANSPORT_FILE(name) &mp_transport_##name,
static const void *const transport_files[] = {
#include "transport_files.h"
};
#undef MP_TRANSPORT_FILE

static const void *format_at(size_t i)
{
    return mp_format_at(i);
}

static const void *transport_at(size_t i)
{
    return mp_transport_at(i);
}

/* The N FILES are the COUNT entries AT(0 ..), each once; AT(COUNT) is
 * NULL. */
static void same_entries(const void *const *files, size_t n, const void *(*at)(size_t), size_t count)
{
    size_t i, j, found;

    assert_int_equal(count, n);
    for (i = 0; i < n; i++) {
        for (found = 0, j = 0; j < count; j++)
            found += at(j) == files[i];
        assert_int_equal(found, 1);
    }
    assert_null(at(count));
}

static void every_file_listed(void **s)
{
    (void)s;
    same_entries(format_files, sizeof(format_files) / sizeof(format_files[0]), format_at, mp_formats_count());
    same_entries(transport_files, sizeof(transport_files) / sizeof(transport_files[0]), transport_at,
                 mp_transports_count());
}

/* Ranks are unique and ordered; the defaults, gnu and gdb, come first. */
static void ordered_by_rank(void **s)
{
    size_t i;

    (void)s;
    assert_ptr_equal(mp_format_at(0), &mp_format_gnu);
    for (i = 1; i < mp_formats_count(); i++)
        assert_true(mp_format_at(i - 1)->rank < mp_format_at(i)->rank);
    assert_ptr_equal(mp_transport_at(0), &mp_transport_gdb);
    for (i = 1; i < mp_transports_count(); i++)
        assert_true(mp_transport_at(i - 1)->rank < mp_transport_at(i)->rank);
}

/* Each transport's default endpoint is one it parses. */
static void transports_defaults_parse(void **s)
{
    struct mp_endpoint ep;
    size_t i;

    (void)s;
    for (i = 0; i < mp_transports_count(); i++)
        assert_int_equal(mp_transport_at(i)->parse(mp_transport_at(i)->default_endpoint, &ep), 0);
}

static void transports_parse_host_port(void **s)
{
    static const struct {
        const struct mp_transport *t;
        const char *text, *name, *where;
        unsigned port;
    } ok[] = {
        {&mp_transport_gdb, "probe.lan:2331", "probe.lan:2331", "probe.lan", 2331},
        {&mp_transport_gdb, ":4444", "localhost:4444", "localhost", 4444},
        {&mp_transport_gdb, "probe.lan", "probe.lan:3333", "probe.lan", 3333},
        {&mp_transport_gdb, "", "localhost:3333", "localhost", 3333},
        {&mp_transport_openocd, "127.0.0.1", "127.0.0.1:6666", "127.0.0.1", 6666},
        {&mp_transport_openocd, "h:65535", "h:65535", "h", 65535},
    };
    struct mp_endpoint ep;
    size_t i;

    (void)s;
    for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
        assert_int_equal(ok[i].t->parse(ok[i].text, &ep), 0);
        assert_string_equal(ep.name, ok[i].name);
        assert_string_equal(ep.where, ok[i].where);
        assert_int_equal(ep.number, ok[i].port);
    }
}

static void transports_refuse_bad_endpoints(void **s)
{
    static const char *const bad_port[] = {"h:0", "h:65536", "h:x", "h:12x", ":-1"};
    char text[300], want[128];
    struct mp_endpoint ep;
    size_t i;

    (void)s;
    for (i = 0; i < sizeof(bad_port) / sizeof(bad_port[0]); i++) {
        assert_int_equal(mp_transport_gdb.parse(bad_port[i], &ep), -1);
        snprintf(want, sizeof(want), "%s: port '%s' is not a number from 1 to 65535", bad_port[i],
                 strrchr(bad_port[i], ':') + 1);
        assert_string_equal(mp_last_error(), want);
    }
    memset(text, 'h', 256);
    strcpy(text + 256, ":3333");
    assert_int_equal(mp_transport_openocd.parse(text, &ep), -1);
    assert_non_null(strstr(mp_last_error(), ": host name too long"));
}

/* "[--gdb HOST:PORT | --openocd HOST:PORT]" from the table. */
static void transports_usage(void **s)
{
    char *got = printed(mp_transports_usage), want[256];
    size_t i, n = 0;

    (void)s;
    for (i = 0; i < mp_transports_count(); i++)
        n += (size_t)snprintf(want + n, sizeof(want) - n, "%s--%s %s", i ? " | " : "[",
                              mp_transport_at(i)->name, mp_transport_at(i)->endpoint_form);
    snprintf(want + n, sizeof(want) - n, "]");
    assert_string_equal(got, want);
    free(got);
}

/* One line each, its text at column 29, the first one the default. */
static void transports_help_lines(void **s)
{
    char *got = printed(mp_transports_help), *line = got;
    size_t i;

    (void)s;
    for (i = 0; i < mp_transports_count(); i++) {
        const struct mp_transport *t = mp_transport_at(i);
        char start[64], end[128];
        char *nl = strchr(line, '\n');

        assert_non_null(nl);
        *nl = '\0';
        snprintf(start, sizeof(start), "      --%s %s ", t->name, t->endpoint_form);
        assert_int_equal(strncmp(line, start, strlen(start)), 0);
        assert_int_equal(strncmp(line + 29, t->help, strlen(t->help)), 0);
        assert_true(line[28] == ' ');
        snprintf(end, sizeof(end), "%s(default %s)", i == 0 ? "; the default link " : "", t->default_endpoint);
        assert_string_equal(line + strlen(line) - strlen(end), end);
        line = nl + 1;
    }
    assert_string_equal(line, "");
    free(got);
}

/* The notes, one paragraph no wider than 76 columns. */
static void transports_notes(void **s)
{
    char *got = printed(mp_transports_notes), *p, joined[2048];
    size_t i, n = 0;

    (void)s;
    for (i = 0; i < mp_transports_count(); i++)
        if (mp_transport_at(i)->notes)
            n += (size_t)snprintf(joined + n, sizeof(joined) - n, "%s%s", n ? " " : "", mp_transport_at(i)->notes);
    for (p = got; *p; p = strchr(p, '\n') + 1)
        assert_true(strchr(p, '\n') - p <= 76);
    for (p = got; *p; p++)
        if (*p == '\n')
            *p = ' ';
    assert_int_equal(strlen(got), n + 1);
    got[n] = '\0';
    assert_string_equal(got, joined);
    free(got);
}

static void wrap_text(void **s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);

    (void)s;
    assert_non_null(f);
    fputs("  x ", f);
    mp_wrap(f, "aa bb  cc dddddddddddd e", 4, 2, 10);
    mp_wrap(f, "", 0, 0, 10);
    fclose(f);
    assert_string_equal(buf, "  x aa bb\n  cc\n  dddddddddddd\n  e\n\n");
    free(buf);
}

/* --NAME or its short option selects a transport; two exclude each other;
 * none gives the first and its default endpoint. */
static void transports_selected_by_options(void **s)
{
    struct mp_target_args a;
    char shortopts[32];
    size_t k;

    (void)s;
    mp_target_args_init(&a, "pull");
    assert_int_equal(mp_target_option(&a, 'g', "h:1"), 1);
    assert_ptr_equal(a.transport, &mp_transport_gdb);
    assert_string_equal(a.endpoint, "h:1");
    for (k = 0; mp_transport_at(k) != &mp_transport_openocd; k++)
        ;
    assert_int_equal(mp_target_option(&a, MP_TARGET_LINK_OPT + (int)k, "h:2"), -1);
    assert_string_equal(mp_last_error(), "pull: --gdb and --openocd exclude each other");

    mp_target_args_init(&a, "ctl");
    assert_int_equal(mp_target_option(&a, 'a', "0x20000000"), 1);
    assert_int_equal(mp_target_finish(&a), 0);
    assert_ptr_equal(a.transport, mp_transport_at(0));
    assert_string_equal(a.endpoint, mp_transport_at(0)->default_endpoint);

    mp_target_shortopts(shortopts, sizeof(shortopts), "e:h");
    assert_int_equal(strncmp(shortopts, "e:h", 3), 0);
    assert_non_null(strstr(shortopts + 3, "g:"));
}

static void formats_found_by_name(void **s)
{
    char names[256], want[160];
    size_t i, n = 0;

    (void)s;
    for (i = 0; i < mp_formats_count(); i++)
        assert_ptr_equal(mp_format_find(mp_format_at(i)->name), mp_format_at(i));
    assert_null(mp_format_find("xml"));
    for (i = 0; i < mp_formats_count(); i++)
        n += (size_t)snprintf(want + n, sizeof(want) - n, "%s%s", i ? ", " : "", mp_format_at(i)->name);
    snprintf(names, sizeof(names), "unknown format 'xml' (formats: %s)", want);
    assert_string_equal(mp_last_error(), names);
}

/* "a, b or c": the last separator is the caller's; a short buffer cuts. */
static void formats_listed(void **s)
{
    char buf[160], tiny[8];
    const char *last = mp_format_at(mp_formats_count() - 1)->name;
    size_t len;

    (void)s;
    mp_formats_list(buf, sizeof(buf), " or ");
    assert_int_equal(strncmp(buf, "gnu, ", 5), 0);
    len = strlen(buf);
    assert_true(len > strlen(last) + 4);
    assert_int_equal(strncmp(buf + len - strlen(last) - 4, " or ", 4), 0);
    assert_string_equal(buf + len - strlen(last), last);
    mp_formats_list(tiny, sizeof(tiny), " or ");
    assert_string_equal(tiny, "gnu, bs");
}

/* One help line per format, in table order. */
static void formats_help_lines(void **s)
{
    char *buf = printed(mp_formats_help), *line = buf;
    size_t i;

    (void)s;
    for (i = 0; i < mp_formats_count(); i++) {
        char start[64];

        snprintf(start, sizeof(start), "                         %-10s ", mp_format_at(i)->name);
        assert_int_equal(strncmp(line, start, strlen(start)), 0);
        assert_non_null(strstr(line, mp_format_at(i)->default_out));
        line = strchr(line, '\n');
        assert_non_null(line);
        line++;
    }
    assert_string_equal(line, "");
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(every_file_listed, quiet),
        cmocka_unit_test_setup(ordered_by_rank, quiet),
        cmocka_unit_test_setup(formats_found_by_name, quiet),
        cmocka_unit_test_setup(formats_listed, quiet),
        cmocka_unit_test_setup(formats_help_lines, quiet),
        cmocka_unit_test_setup(transports_defaults_parse, quiet),
        cmocka_unit_test_setup(transports_parse_host_port, quiet),
        cmocka_unit_test_setup(transports_refuse_bad_endpoints, quiet),
        cmocka_unit_test_setup(transports_usage, quiet),
        cmocka_unit_test_setup(transports_help_lines, quiet),
        cmocka_unit_test_setup(transports_notes, quiet),
        cmocka_unit_test_setup(transports_selected_by_options, quiet),
        cmocka_unit_test_setup(wrap_text, quiet),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * The JSON document (format_json.c) and its reader (json_read.c): a model
 * from a built image with call paths and a hand-made one with functions,
 * source lines, contexts and tasks written, read back and written again
 * give the same bytes; names that need escaping, counts above 2^53 and doubles come
 * back exact; and every malformed, truncated, inconsistent or newer
 * document is refused with one error naming the byte offset and what was
 * expected there.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cxx_demangle.h"
#include "diag.h"
#include "format_json.h"
#include "formats.h"
#include "image_builder.h"
#include "image_read.h"
#include "json_parse.h"
#include "model.h"

/* A name with everything the writer escapes: quote, backslash, newline,
 * a control character, a byte that is not UTF-8 (0xff), UTF-8 (é) kept,
 * and DEL, a C1 control (U+009B) and a right-to-left override (U+202E),
 * which text_safe.h keeps off a terminal: each byte as \u00XX. */
#define ODD_NAME "fn \"q\"\\\n\x01\xff \xc3\xa9\x7f\xc2\x9b\xe2\x80\xae"
#define ODD_JSON "\"fn \\\"q\\\"\\\\\\n\\u0001\\u00ff \xc3\xa9\\u007f\\u00c2\\u009b\\u00e2\\u0080\\u00ae\""

static uint8_t img_buf[1 << 16];

/* The header member of image_model's document: where the image builder
 * lays the tables of tb_small out (the header, 9 arc records, 9 links,
 * 8 buckets, 64 2-byte bins, the path table), with the state image_model
 * sets. */
#define HEADER_JSON \
    "{\"image_addr\": \"0x20000000\", \"image_size\": 680, \"header_size\": 256, \"state\": 5, " \
    "\"state_flags\": [\"arcs\", \"frozen\"], \"freeze_request\": 77, \"freeze_ack\": 76, \"arcs_offset\": 256, " \
    "\"arcs_capacity\": 8, \"arcs_used\": 2, \"arc_record_size\": 12, \"hash_shift\": 0, " \
    "\"buckets_offset\": 384, \"nbuckets\": 8, \"links_offset\": 364, \"ext_offset\": 528, " \
    "\"hist_offsets\": [400]}"

static int quiet(void **s)
{
    (void)s;
    mp_diag_quiet(1);
    mp_diag_reset();
    return 0;
}

/* The document of M, malloc'd and NUL-terminated. */
static char *to_json(const struct mp_model *m)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);

    assert_non_null(f);
    assert_int_equal(mp_format_check(&mp_format_json, m), 0);
    assert_int_equal(mp_format_json.write(m, f), 0);
    assert_int_equal(fclose(f), 0);
    return buf;
}

static int from_json(struct mp_model *m, const char *doc)
{
    return mp_model_from_json(m, "t.json", (const uint8_t *)doc, strlen(doc));
}

/* Call paths as the runtime records them (Thumb bit set): in the
 * functions full_model adds, one drained (left out of the model), one
 * with both flags, one in no function, one with no frame. */
static const struct tb_path image_paths[] = {
    {900, 3, 0, {0x1001, 0x1021, 0x1041}},
    {0, 2, 0, {0x1001, 0x1021}},
    {7, 2, MCUPROF_PATH_TRUNCATED | MCUPROF_PATH_CUT, {0x1021, 0x1301}},
    {5, 2, MCUPROF_PATH_CUT, {0x1001, 0x2001}},
    {3, 0, 0, {0}},
};

/* tb_small with every header counter set and a path table. */
static void image_model(struct mp_model *m)
{
    static const uint8_t id[20] = {0xde, 0xad, 0xbe, 0xef, 1, 2, 3};
    struct tb_image d;
    struct mp_image img;
    size_t len;

    tb_small(&d, 0x20000000, 8);
    d.build_id = id;
    d.build_id_len = sizeof(id);
    d.lost[0] = 1;
    d.lost[1] = 2;
    d.lost[2] = 3;
    d.lost[3] = 4;
    d.lost[4] = 5;
    d.lost[5] = 6;
    d.samples_taken = 70000;
    d.missed_periods = 9;
    d.missed_source = 1;
    d.timer_period = 12345;
    d.jitter_percent = 10;
    d.generation = 3;
    d.state = MCUPROF_STATE_ARCS_Msk | MCUPROF_STATE_FROZEN_Msk;
    d.freeze_request = 77;
    d.freeze_ack = 76;
    d.path_depth_max = 4;
    d.paths = image_paths;
    d.npaths = sizeof(image_paths) / sizeof(image_paths[0]);
    d.paths_lost = 2;
    d.paths_invalid = 7;
    len = tb_build(&d, img_buf, sizeof(img_buf));
    assert_true(len > 0);
    assert_int_equal(mp_image_parse(&img, "t.img", img_buf, len), 0);
    assert_int_equal(mp_model_from_image(m, &img), 0);
}

/* image_model, and what an ELF and its DWARF would add: three functions
 * (the arcs' callers and callees), lines, line rows, contexts, tasks. */
static void full_model(struct mp_model *m)
{
    size_t i;

    image_model(m);
    m->elf_path = mp_model_strdup(m, "fw.elf");
    m->nfuncs = 3;
    assert_non_null(m->funcs = mp_model_alloc(m, 3 * sizeof(*m->funcs)));
    m->funcs[0] = (struct mp_model_func){"main", 0x1000, 0x1020, 0x1c, 0.1, 0, 0, 0, 0, "main.c", 12, NULL, 0, 0};
    m->funcs[1] = (struct mp_model_func){ODD_NAME, 0x1020, 0x1040, 0x20, 1.0 / 3.0, 0, 0, 1, 1, NULL, 0, NULL, 1, 0};
    m->funcs[2] = (struct mp_model_func){"_mcount", 0x1040, 0x1400, 0x3c0, 65000, 0, 1, 0, 1, "\xff.c", 7, NULL, 2, 0};
    for (i = 0; i < m->narcs; i++) {
        m->arcs[i].caller = mp_model_find_func(m, m->arcs[i].callsite);
        m->arcs[i].callee_fn = mp_model_find_func(m, m->arcs[i].callee);
        m->funcs[m->arcs[i].callee_fn].calls += m->arcs[i].count;
    }
    m->outside = 1e-300;
    m->hidden = 65000;
    m->gprof_total = 5.9999999999999991;
    m->shared_samples = 3;
    m->nlines = 2;
    assert_non_null(m->lines = mp_model_alloc(m, 2 * sizeof(*m->lines)));
    m->lines[0] = (struct mp_model_line){1, "a.c", 10, 0x1020, 2.5};
    m->lines[1] = (struct mp_model_line){-1, "??", 0, 0x1300, 0.25};
    m->nlinerows = 2;
    assert_non_null(m->linerows = mp_model_alloc(m, 2 * sizeof(*m->linerows)));
    m->linerows[0] = (struct mp_model_linerow){0x1000, 0x1010, "a.c", 1};
    m->linerows[1] = (struct mp_model_linerow){0x1010, 0x1040, "a.c", 2};
    m->has_contexts = 1;
    m->ncontexts = 2;
    m->contexts_lost = 4;
    assert_non_null(m->contexts = mp_model_alloc(m, 2 * sizeof(*m->contexts)));
    m->contexts[0] = (struct mp_model_context){0, 100};
    m->contexts[1] = (struct mp_model_context){MCUPROF_CTX_ARM_EXCEPTION | 15, UINT64_MAX}; /* not exact as a double */
    m->has_tasks = 1;
    m->ntasks = 1;
    m->tasks_invalid = 2;
    assert_non_null(m->tasks = mp_model_alloc(m, sizeof(*m->tasks)));
    m->tasks[0] = (struct mp_model_task){0xfffffffffffffff1u, 9007199254740993u, "idle\t", 1};
}

static char *edit(const char *doc, const char *from, const char *to);

/* Write M, read it back, write that again: the same bytes. */
static char *round_trip(const struct mp_model *m, struct mp_model *back)
{
    char *a = to_json(m), *b;

    if (from_json(back, a) != 0)
        fail_msg("read back: %s", mp_last_error());
    b = to_json(back);
    assert_string_equal(a, b);
    free(b);
    return a;
}

static void round_trip_image(void **s)
{
    struct mp_model m, back;
    char *doc;
    size_t i;

    (void)s;
    image_model(&m);
    doc = round_trip(&m, &back);
    assert_int_equal(back.source, MP_MODEL_IMAGE);
    assert_int_equal(back.nranges, 1);
    assert_int_equal(back.ranges[0].nbins, 64);
    assert_int_equal(back.ranges[0].max_bin, 65000);
    for (i = 0; i < 64; i++)
        assert_int_equal(back.ranges[0].bins[i], m.ranges[0].bins[i]);
    assert_memory_equal(&back.c, &m.c, sizeof(m.c));
    assert_int_equal(back.narcs, 2);
    assert_int_equal(back.arcs[1].callsite, 0x102e);
    assert_int_equal(back.arcs[1].callee, 0x1040);
    assert_int_equal(back.arcs[1].count, 7000);
    assert_int_equal(back.arcs[1].caller, -1);
    assert_int_equal(back.build_id_len, 20);
    assert_memory_equal(back.build_id, m.build_id, 20);
    assert_null(back.elf_path);
    assert_int_equal(back.nfuncs, 0);
    /* what jq users read */
    assert_non_null(strstr(doc, "\"samples_total\": 70000,"));
    assert_non_null(strstr(doc, "\"missed_source\": \"mtime\","));
    assert_non_null(strstr(doc, "\"lost_samples_frozen\": 6}"));
    assert_non_null(strstr(doc, "\"build_id\": \"deadbeef010203"));
    assert_non_null(strstr(doc, "{\"callsite\": \"0x100e\", \"callee\": \"0x1020\", \"count\": 5, \"saturated\": false, "
                                "\"caller\": null, \"callee_name\": null}"));
    assert_non_null(strstr(doc, "\"elf\": null\n}\n"));
    /* every header word, exactly */
    assert_int_equal(back.has_header, 1);
    assert_memory_equal(&back.header, &m.header, sizeof(m.header));
    assert_non_null(strstr(doc, HEADER_JSON));
    assert_int_equal(back.header.image_addr, 0x20000000);
    assert_int_equal(back.header.state, 5);
    assert_int_equal(back.header.freeze_request, 77);
    assert_int_equal(back.header.freeze_ack, 76);
    free(doc);
    mp_model_free(&m);
    mp_model_free(&back);
}

/* A profile without an image's header (a gmon.out's, or a document
 * written before the member existed) says so with null, and reads back
 * as having none. */
static void header_absent(void **s)
{
    struct mp_model m, back;
    char *doc, *old, *again;

    (void)s;
    assert_int_equal(mp_model_init(&m, "g.out", MP_MODEL_GMON), 0);
    m.ptr_size = 4;
    doc = to_json(&m);
    assert_non_null(strstr(doc, "\"image_version\": 0,\n  \"header\": null,\n"));
    free(doc);
    mp_model_free(&m);
    image_model(&m);
    doc = to_json(&m);
    old = edit(doc, "\n  \"header\": " HEADER_JSON ",", "");
    if (from_json(&back, old) != 0)
        fail_msg("%s", mp_last_error());
    assert_int_equal(back.has_header, 0);
    again = to_json(&back);
    assert_non_null(strstr(again, "\n  \"header\": null,\n"));
    free(again);
    mp_model_free(&back);
    free(old);
    old = edit(doc, "\"header\": " HEADER_JSON, "\"header\": null");
    assert_int_equal(from_json(&back, old), 0);
    assert_int_equal(back.has_header, 0);
    mp_model_free(&back);
    free(old);
    free(doc);
    mp_model_free(&m);
}

static void refused_edit(const char *doc, const char *from, const char *to, const char *want, int line);
#define REFUSED_EDIT(from, to, want) refused_edit(doc, (from), (to), (want), __LINE__)

/* The path table, exactly: flags by name, frames outermost first, and
 * with the ELF each frame's function; members a later version may add
 * are passed over. */
static void round_trip_paths(void **s)
{
    static const uint64_t gap[3] = {0x1000, 0, 0x1040};
    struct mp_model m, back;
    char *doc, *ext, *again;

    (void)s;
    image_model(&m);
    assert_true(m.has_paths);
    assert_int_equal(m.npaths, 4);
    doc = round_trip(&m, &back);
    assert_true(back.has_paths);
    assert_int_equal(back.paths_lost, 2);
    assert_int_equal(back.paths_truncated, 7);
    assert_int_equal(back.npaths, 4);
    assert_int_equal(back.paths[0].samples, 900);
    assert_int_equal(back.paths[0].depth, 3);
    assert_int_equal(back.paths[0].frames[2], 0x1040);
    assert_int_equal(back.paths[1].flags, MCUPROF_PATH_TRUNCATED | MCUPROF_PATH_CUT);
    assert_int_equal(back.paths[1].frames[1], 0x1300);
    assert_int_equal(back.paths[3].depth, 0);
    assert_non_null(strstr(doc, "  \"paths\": {\n    \"lost\": 2,\n    \"truncated\": 7,\n    \"entries\": [\n"
                                "      {\"samples\": 900, \"flags\": [], \"frames\": [\"0x1000\", \"0x1020\", \"0x1040\"]},\n"
                                "      {\"samples\": 7, \"flags\": [\"truncated\", \"cut\"], \"frames\": [\"0x1020\", \"0x1300\"]},\n"
                                "      {\"samples\": 5, \"flags\": [\"cut\"], \"frames\": [\"0x1000\", \"0x2000\"]},\n"
                                "      {\"samples\": 3, \"flags\": [], \"frames\": []}\n    ]\n  },\n  \"elf\": null"));
    ext = edit(doc, "\"samples\": 900,", "\"samples\": 900, \"weight\": {\"x\": [1]},");
    mp_model_free(&back);
    if (from_json(&back, ext) != 0)
        fail_msg("%s", mp_last_error());
    again = to_json(&back);
    assert_string_equal(again, doc);
    free(again);
    free(ext);
    free(doc);
    mp_model_free(&back);
    mp_model_free(&m);

    /* with the ELF: each frame's function, null outside every one */
    full_model(&m);
    doc = round_trip(&m, &back);
    assert_non_null(strstr(doc, "{\"samples\": 900, \"flags\": [], \"frames\": [\"0x1000\", \"0x1020\", \"0x1040\"], "
                                "\"functions\": [\"main\", " ODD_JSON ", \"_mcount\"]},\n"));
    assert_non_null(strstr(doc, "\"frames\": [\"0x1000\", \"0x2000\"], \"functions\": [\"main\", null]},\n"));
    assert_non_null(strstr(doc, "\"frames\": [], \"functions\": []}\n"));
    free(doc);
    mp_model_free(&back);
    mp_model_free(&m);

    /* a path without samples is left out */
    image_model(&m);
    m.paths[0].samples = 0;
    doc = round_trip(&m, &back);
    assert_int_equal(back.npaths, 3);
    assert_null(strstr(doc, "\"samples\": 0"));
    free(doc);
    mp_model_free(&back);
    mp_model_free(&m);

    /* the gap: flag "gap", frame 0x0, function "[...]"; refused where
     * the two disagree */
    full_model(&m);
    m.paths[2].frames = gap;
    m.paths[2].depth = 3;
    m.paths[2].flags = MCUPROF_PATH_GAP;
    doc = round_trip(&m, &back);
    assert_int_equal(back.paths[2].flags, MCUPROF_PATH_GAP);
    assert_int_equal(back.paths[2].frames[1], 0);
    assert_non_null(strstr(doc, "{\"samples\": 5, \"flags\": [\"gap\"], \"frames\": [\"0x1000\", \"0x0\", \"0x1040\"], "
                                "\"functions\": [\"main\", \"[...]\", \"_mcount\"]},\n"));
    REFUSED_EDIT("\"flags\": [\"gap\"]", "\"flags\": []",
                 "paths.entries[2]: 1 frames 0x0: a 0 frame is the gap, once in a path flagged \"gap\"");
    REFUSED_EDIT("\"0x1000\", \"0x0\", \"0x1040\"]", "\"0x1000\", \"0x1040\"]",
                 "paths.entries[2]: 0 frames 0x0: a 0 frame is the gap");
    REFUSED_EDIT("\"0x1000\", \"0x1020\", \"0x1040\"]", "\"0x1000\", \"0x0\", \"0x1040\"]",
                 "paths.entries[0]: 1 frames 0x0: a 0 frame is the gap");
    free(doc);
    mp_model_free(&back);
    mp_model_free(&m);
}

static void round_trip_full(void **s)
{
    struct mp_model m, back;
    char *doc;

    (void)s;
    full_model(&m);
    doc = round_trip(&m, &back);
    assert_int_equal(back.nfuncs, 3);
    assert_string_equal(back.funcs[1].name, ODD_NAME);
    assert_null(back.funcs[1].file);
    assert_string_equal(back.funcs[2].file, "\xff.c");
    assert_true(back.funcs[1].self == 1.0 / 3.0);
    assert_true(back.outside == 1e-300);
    assert_true(back.gprof_total == 5.9999999999999991);
    assert_int_equal(back.funcs[1].calls, 5);
    assert_int_equal(back.arcs[0].caller, 0);
    assert_int_equal(back.arcs[1].callee_fn, 2);
    assert_int_equal(back.lines[0].func, 1);
    assert_int_equal(back.lines[1].func, -1);
    assert_int_equal(back.contexts[1].samples, UINT64_MAX);
    assert_int_equal(back.tasks[0].handle, 0xfffffffffffffff1u);
    assert_int_equal(back.tasks[0].samples, 9007199254740993u);
    assert_string_equal(back.tasks[0].name, "idle\t");
    assert_string_equal(back.elf_path, "fw.elf");
    /* escaping as documented; doubles as short as reads back exactly */
    assert_non_null(strstr(doc, "{\"name\": " ODD_JSON ", \"addr\": \"0x1020\""));
    assert_non_null(strstr(doc, "\"file\": \"\\u00ff.c\""));
    assert_non_null(strstr(doc, "\"self\": 0.1,"));
    assert_non_null(strstr(doc, "\"self\": 0.3333333333333333,"));
    assert_non_null(strstr(doc, "\"outside\": 1e-300,"));
    assert_non_null(strstr(doc, "\"caller\": \"main\", \"callee_name\": " ODD_JSON "}"));
    assert_non_null(strstr(doc, "\"name\": \"SysTick\", \"samples\": 18446744073709551615}"));
    free(doc);
    mp_model_free(&m);
    mp_model_free(&back);
}

/* A C++ function: the document holds the readable name and the symbol;
 * read back, the name is made again from the symbol, so the reader's
 * --no-demangle decides; a document without "symbol" (its name is the
 * symbol) reads the same. */
static void cxx_names(void **s)
{
    struct mp_model m, back;
    char *doc, *old;

    (void)s;
    full_model(&m);
    assert_int_equal(mp_model_name_func(&m, &m.funcs[0], "_ZN5motor6Filter4stepEi"), 0);
    doc = round_trip(&m, &back);
    assert_non_null(strstr(doc, "{\"name\": \"motor::Filter::step(int)\", \"addr\": \"0x1000\""));
    assert_non_null(strstr(doc, "\"line\": 12, \"symbol\": \"_ZN5motor6Filter4stepEi\"}"));
    assert_non_null(strstr(doc, "\"caller\": \"motor::Filter::step(int)\""));
    assert_non_null(strstr(doc, "\"line\": 0, \"symbol\": " ODD_JSON "}")); /* a C name: its own symbol */
    assert_string_equal(back.funcs[0].name, "motor::Filter::step(int)");
    assert_string_equal(mp_model_func_symbol(&back.funcs[0]), "_ZN5motor6Filter4stepEi");
    mp_model_free(&back);

    mp_demangle_enable(0);
    assert_int_equal(from_json(&back, doc), 0);
    mp_demangle_enable(1);
    assert_string_equal(back.funcs[0].name, "_ZN5motor6Filter4stepEi");
    assert_null(back.funcs[0].symbol);
    mp_model_free(&back);

    old = edit(doc, "\"motor::Filter::step(int)\", \"addr\"", "\"_ZN5motor6Filter4stepEi\", \"addr\"");
    free(doc);
    doc = edit(old, ", \"symbol\": \"_ZN5motor6Filter4stepEi\"", "");
    assert_int_equal(from_json(&back, doc), 0);
    assert_string_equal(back.funcs[0].name, "motor::Filter::step(int)");
    assert_string_equal(back.funcs[0].symbol, "_ZN5motor6Filter4stepEi");
    free(old);
    free(doc);
    mp_model_free(&back);
    mp_model_free(&m);
}

/* DOC with the first FROM replaced by TO, malloc'd. */
static char *edit(const char *doc, const char *from, const char *to)
{
    const char *p = strstr(doc, from);
    char *out;

    if (!p)
        fail_msg("'%s' not in the document", from);
    out = malloc(strlen(doc) + strlen(to) + 1);
    assert_non_null(out);
    sprintf(out, "%.*s%s%s", (int)(p - doc), doc, to, p + strlen(from));
    return out;
}

/* Members this reader does not know, at any depth within the limit,
 * and whitespace anywhere, change nothing. */
static void ignores_unknown_members(void **s)
{
    struct mp_model m, back;
    char *doc, *ext[4], *again;

    (void)s;
    full_model(&m);
    doc = to_json(&m);
    ext[0] = edit(doc, "{\n  \"schema\"", " \r\n\t{\"later\": {\"a\": [[[[[[[[[[1, -2.5e-3, "
                                          "\"x\\u00e9\\ud83d\\ude00\", true, null]]]]]]]]]]},\n  \"schema\"");
    ext[1] = edit(ext[0], "\"source\"", "\"samples_total\": 1, \"source\"");
    ext[2] = edit(ext[1], "\"saturated\": false", "\"saturated\": false, \"v2\": {\"x\": [\"\"]}");
    ext[3] = edit(ext[2], "\"nbins\": 64,", "\"nbins\": 64, \"v2\":null ,");
    if (from_json(&back, ext[3]) != 0)
        fail_msg("%s", mp_last_error());
    again = to_json(&back);
    assert_string_equal(again, doc);
    free(again);
    free(ext[0]);
    free(ext[1]);
    free(ext[2]);
    free(ext[3]);
    free(doc);
    mp_model_free(&m);
    mp_model_free(&back);
}

/* DOC is refused with exactly one error that contains WANT. */
static void refused(const char *doc, const char *want, int line)
{
    struct mp_model m;
    unsigned before = mp_error_count();

    if (from_json(&m, doc) == 0)
        fail_msg("line %d: accepted, expected \"%s\"", line, want);
    if (mp_error_count() != before + 1)
        fail_msg("line %d: %u errors", line, mp_error_count() - before);
    if (!strstr(mp_last_error(), want))
        fail_msg("line %d: \"%s\" does not say \"%s\"", line, mp_last_error(), want);
    assert_null(m.arena);
}
#define REFUSED(doc, want) refused((doc), (want), __LINE__)

/* EDIT(FROM, TO) is refused with WANT. */
static void refused_edit(const char *doc, const char *from, const char *to, const char *want, int line)
{
    char *bad = edit(doc, from, to);

    refused(bad, want, line);
    free(bad);
}

static void refuses_bad_syntax(void **s)
{
    struct mp_model m;
    char *doc, buf[4096], deep[200];
    size_t n;

    (void)s;
    full_model(&m);
    doc = to_json(&m);
    n = strlen(doc);
    REFUSED("", "byte 0: the document: expected an object, got the end of the document");
    REFUSED("[]", "byte 0: the document: expected an object, got an array");
    REFUSED("\xef\xbb\xbf{}", "byte 0: the document: expected an object, got byte 0xef");
    doc[n - 1] = 'x'; /* the final newline */
    snprintf(buf, sizeof(buf), "byte %zu: expected the end of the document after its top-level object, got 'x'",
             n - 1);
    REFUSED(doc, buf);
    doc[n - 1] = '\n';
    REFUSED_EDIT("\"version\": 1,", "\"version\": 1,,", "expected a member name after ','");
    REFUSED_EDIT("\"version\": 1,", "\"version\" 1,", "version: expected ':' after the member name, got a number");
    REFUSED_EDIT("\n  ],\n  \"arcs\"", ",]\n,\"arcs\"", "ranges[1]: expected a value, got ']'");
    REFUSED_EDIT("\"hidden\": false", "\"hidden\": False", "functions[0].hidden: expected a value, got 'F'");
    REFUSED_EDIT("\"count\": 5,", "\"count\": 05,", "arcs[0]: expected ',' or '}' after a member, got a number");
    REFUSED_EDIT("\"count\": 5,", "\"count\": 5.,", "arcs[0].count: no digit after the decimal point");
    REFUSED_EDIT("\"count\": 5,", "\"count\": 5e,", "arcs[0].count: no digit in the exponent");
    REFUSED_EDIT("\"count\": 5,", "\"count\": +5,", "arcs[0].count: expected a value, got '+'");
    REFUSED_EDIT("\"name\": \"main\"", "\"name\": \"ma\\xin\"", "'\\x' is not an escape of JSON");
    REFUSED_EDIT("\"name\": \"main\"", "\"name\": \"ma\\u12\"", "expected four hex digits after \\u");
    REFUSED_EDIT("\"name\": \"main\"", "\"name\": \"\\ud800x\"", "\\ud800 is a high surrogate without a low one");
    REFUSED_EDIT("\"name\": \"main\"", "\"name\": \"\\udc00\"", "\\udc00 is a low surrogate");
    REFUSED_EDIT("\"name\": \"main\"", "\"name\": \"m\\u0000\"", "\\u0000: a name cannot hold a NUL byte");
    REFUSED_EDIT("\"name\": \"main\"", "\"name\": \"m\xc3(\"", "byte 0xc3 in a string is not UTF-8");
    REFUSED_EDIT("\"name\": \"main\"", "\"name\": \"m\xed\xa0\x80\"", "byte 0xed in a string is not UTF-8");
    REFUSED_EDIT("\"name\": \"main\"", "\"name\": \"m\ta\"", "control character 0x09 in a string: it must be escaped");
    snprintf(buf, sizeof(buf), "%.*s", (int)(strstr(doc, "\"main\"") + 3 - doc), doc);
    REFUSED(buf, "a string without its closing quote");
    /* nesting beyond the limit, in a member this reader does not know */
    strcpy(deep, "\"deep\": ");
    memset(deep + 8, '[', 40);
    strcpy(deep + 48, "1");
    memset(deep + 49, ']', 40);
    strcpy(deep + 89, ", \"version\"");
    REFUSED_EDIT("\"version\"", deep, "nested deeper than 32 levels");
    free(doc);
    mp_model_free(&m);
}

static void refuses_bad_values(void **s)
{
    struct mp_model m;
    static char big[MP_JSON_STRING_MAX + 32];
    char *doc;

    (void)s;
    full_model(&m);
    doc = to_json(&m);
    REFUSED_EDIT("\"version\": 1,", "\"version\": 2,", "version 2: written by a newer mcuprof, this one reads version 1");
    REFUSED_EDIT("\"version\": 1,", "\"version\": 0,", "version 0 is no version");
    REFUSED_EDIT("\"version\": 1,", "", "the document has no member 'version'");
    REFUSED_EDIT("\"mcuprof-profile\"", "\"other\"", "schema \"other\" is not \"mcuprof-profile\"");
    REFUSED_EDIT("\"version\": 1,", "\"version\": 1, \"version\": 1,", "'version' given twice");
    REFUSED_EDIT("\"source\": \"image\"", "\"source\": \"disk\"", "source: expected \"image\", \"gmon\" or \"json\"");
    REFUSED_EDIT("\"ptr_size\": 4", "\"ptr_size\": 6", "machine.ptr_size: expected 4 or 8, got 6");
    REFUSED_EDIT("\"e_machine\": 40", "\"e_machine\": 70000", "machine.e_machine: expected an integer from 0 to 65535");
    REFUSED_EDIT("\"bin_shift\": 4", "\"bin_shift\": 40", "bin_shift: expected an integer from 0 to 31");
    REFUSED_EDIT("\"bin_shift\": 4", "\"bin_shift\": 5", "ranges[0]: 64 bins of 2^5 bytes do not span 0x1000..0x1400");
    REFUSED_EDIT("\"counter_bytes\": 2", "\"counter_bytes\": 3", "counter_bytes: expected 0 (unknown), 2 or 4, got 3");
    REFUSED_EDIT("\"build_id\": \"de", "\"build_id\": \"d", "build_id: expected null or 1 to 32 bytes in hex");
    REFUSED_EDIT("\"binned\": ", "\"binned_\": ", "counters has no member 'binned'");
    REFUSED_EDIT("\"lost_calls_frozen\": 3", "\"lost_calls_frozen\": -3", "counters.lost.lost_calls_frozen: expected an integer from 0 to 18446744073709551615, got -3");
    REFUSED_EDIT("\"missed_source\": \"mtime\"", "\"missed_source\": \"rtc\"", "counters.missed_source: expected \"none\"");
    REFUSED_EDIT("\"count\": 5,", "\"count\": 18446744073709551616,", "arcs[0].count: expected an integer from 0 to 18446744073709551615, got a larger number");
    REFUSED_EDIT("\"count\": 5,", "\"count\": 5.0,", "arcs[0].count: expected an integer from 0 to 18446744073709551615, got 5.0");
    REFUSED_EDIT("\"count\": 5,", "\"count\": 4,", "counters.total_calls 7005, but the arcs add up to 7004");
    REFUSED_EDIT("\"callee\": \"0x1020\"", "\"callee\": \"1020\"", "arcs[0].callee: expected an address, \"0x\" and 1 to 16 hex digits, got \"1020\"");
    REFUSED_EDIT("\"callee\": \"0x1020\"", "\"callee\": \"0x00000000000001020\"", "expected an address");
    REFUSED_EDIT("\"callee\": \"0x1020\"", "\"callee\": 4128", "arcs[0].callee: expected a string, got a number");
    REFUSED_EDIT("\"saturated\": false", "\"saturated_\": false", "arcs[0] has no member 'saturated'");
    REFUSED_EDIT("\"nbins\": 64", "\"nbins\": 63", "ranges[0]: nbins 63, but bins lists 64");
    REFUSED_EDIT("\"samples\": 65006", "\"samples\": 65007", "ranges[0]: samples 65007, but the bins add up to 65006");
    REFUSED_EDIT("\"high\": \"0x1400\"", "\"high\": \"0x1000\"", "ranges[0]: high 0x1000 is not above low 0x1000");
    REFUSED_EDIT("\"binned\": 65006", "\"binned\": 1", "counters.binned 1, but the ranges hold 65006");
    REFUSED_EDIT("\"self\": 0.1", "\"self\": 1e999", "functions[0].self: 1e999 is beyond the range of a double");
    REFUSED_EDIT("\"self\": 0.1", "\"self\": -0.1", "functions[0].self: expected a number of samples, not below 0");
    REFUSED_EDIT("\"self\": 0.1", "\"self\": NaN", "functions[0].self: expected a value, got 'N'");
    REFUSED_EDIT("\"calls\": 5", "\"calls\": 6", "functions[1].calls 6, but its arcs add up to 5");
    REFUSED_EDIT("\"addr\": \"0x1020\", \"end\": \"0x1040\"", "\"addr\": \"0x1010\", \"end\": \"0x1040\"",
                 "functions[1]: addr 0x1010 is not above the previous function's 0x1000..0x1020");
    REFUSED_EDIT("\"end\": \"0x1020\"", "\"end\": \"0xfff\"", "functions[0]: end 0xfff is below addr 0x1000");
    REFUSED_EDIT("\"elf\": \"fw.elf\"", "\"elf\": null", "elf is null, but the document has functions");
    REFUSED_EDIT("\"attribution\"", "\"attribution_\"", "the document has functions but no member 'attribution'");
    REFUSED_EDIT("\"function_index\": 1", "\"function_index\": 3", "lines[0].function_index: 3 is not the index of one of the 3 functions");
    REFUSED_EDIT("{\"addr\": \"0x1010\", \"end\": \"0x1040\"", "{\"addr\": \"0x100f\", \"end\": \"0x1040\"",
                 "line_table[1]: 0x100f..0x1040 is not after the previous row");
    REFUSED_EDIT("\"contexts\": {\n    \"lost\": 4,", "\"contexts\": {", "contexts has no member 'lost'");
    REFUSED_EDIT("\"handle\": \"0xfffffffffffffff1\"", "\"handle\": null", "tasks.entries[0].handle: expected a string, got null");
    /* a string longer than the limit */
    memset(big, 'a', sizeof(big) - 1);
    big[0] = '"';
    strcpy(big + MP_JSON_STRING_MAX + 2, "\"");
    REFUSED_EDIT("\"main\"", big, "a string of more than 65536 bytes");
    free(doc);
    mp_model_free(&m);
}

/* The header: every member there, each within its width, the arc table
 * and the ranges the document's. */
static void refuses_bad_header(void **s)
{
    struct mp_model m;
    char *doc;

    (void)s;
    image_model(&m);
    doc = to_json(&m);
    REFUSED_EDIT("\"image_addr\": \"0x20000000\"", "\"image_addr\": 536870912",
                 "header.image_addr: expected a string, got a number");
    REFUSED_EDIT("\"header_size\": 256", "\"header_size\": 65536",
                 "header.header_size: expected an integer from 0 to 65535, got a larger number");
    REFUSED_EDIT("\"state\": 5", "\"state\": 4294967296",
                 "header.state: expected an integer from 0 to 4294967295, got a larger number");
    REFUSED_EDIT("\"freeze_ack\": 76, ", "", "header has no member 'freeze_ack'");
    REFUSED_EDIT("\"freeze_ack\": 76", "\"freeze_ack\": 76, \"freeze_ack\": 76", "header: 'freeze_ack' given twice");
    REFUSED_EDIT("\"arcs_capacity\": 8", "\"arcs_capacity\": 1", "header: arcs_used 2 is above arcs_capacity 1");
    REFUSED_EDIT("\"arcs_used\": 2", "\"arcs_used\": 1", "header.arcs_used 1, but the document has 2 arcs");
    REFUSED_EDIT("\"hist_offsets\": [", "\"hist_offsets\": [1, ",
                 "header.hist_offsets lists 2 offsets, but the document has 1 ranges");
    REFUSED_EDIT("\"hist_offsets\": [", "\"hist_offsets\": [1, 2, 3, 4, ",
                 "header.hist_offsets: more than 4, the ranges an image holds");
    REFUSED_EDIT("\"header\": " HEADER_JSON, "\"header\": [1]", "header: expected an object, got an array");
    /* state_flags is derived: what it says is not read */
    {
        struct mp_model back;
        char *odd = edit(doc, "\"state_flags\": [\"arcs\", \"frozen\"]", "\"state_flags\": [\"sampling\"]");
        char *again;

        assert_int_equal(from_json(&back, odd), 0);
        again = to_json(&back);
        assert_string_equal(again, doc);
        free(again);
        free(odd);
        mp_model_free(&back);
    }
    free(doc);
    mp_model_free(&m);
}

/* A path entry's frames: hex strings, at most MP_JSON_PATH_DEPTH_MAX. */
static char *frames_of(unsigned n)
{
    char *s = malloc(16 + 7 * (size_t)n), *p = s;
    unsigned i;

    assert_non_null(s);
    p += sprintf(p, "\"frames\": [");
    for (i = 0; i < n; i++)
        p += sprintf(p, "%s\"0x1\"", i ? ", " : "");
    strcpy(p, "]");
    return s;
}

static void refuses_bad_paths(void **s)
{
    static const char first[] = "\"frames\": [\"0x1000\", \"0x1020\", \"0x1040\"]";
    struct mp_model m, back;
    char *doc, *frames, *deep, want[96];

    (void)s;
    full_model(&m);
    doc = to_json(&m);
    REFUSED_EDIT("\"0x1000\", \"0x1020\", \"0x1040\"]", "\"0x1000\", \"1020\", \"0x1040\"]",
                 "paths.entries[0].frames[1]: expected an address, \"0x\" and 1 to 16 hex digits, got \"1020\"");
    REFUSED_EDIT("\"0x1000\", \"0x1020\", \"0x1040\"]", "\"0x1000\", 4128]",
                 "paths.entries[0].frames[1]: expected a string, got a number");
    REFUSED_EDIT(first, "\"frames\": \"0x1000\"", "paths.entries[0].frames: expected an array, got a string");
    REFUSED_EDIT(first, "\"frame\": []", "paths.entries[0] has no member 'frames'");
    REFUSED_EDIT("\"samples\": 900,", "\"samples\": 0,",
                 "paths.entries[0].samples: expected at least 1: a path without samples is never written");
    REFUSED_EDIT("\"samples\": 900,", "\"samples\": -900,", "paths.entries[0].samples: expected an integer");
    REFUSED_EDIT("\"flags\": [\"cut\"]", "\"flags\": [\"cut\", \"sideways\"]",
                 "paths.entries[2].flags: \"sideways\" is no path flag this mcuprof knows (\"truncated\", \"cut\", \"gap\")");
    REFUSED_EDIT("\"flags\": [\"cut\"]", "\"flags\": [1]", "paths.entries[2].flags: expected a string, got a number");
    REFUSED_EDIT("\"flags\": [\"cut\"]", "\"flags\": \"cut\"", "paths.entries[2].flags: expected an array");
    REFUSED_EDIT("\"truncated\": 7,", "", "paths has no member 'truncated'");
    REFUSED_EDIT("\"truncated\": 7,", "\"truncated\": 7, \"truncated\": 7,", "paths: 'truncated' given twice");
    REFUSED_EDIT("\"paths\": {\n    \"lost\": 2,", "\"paths\": {\n    \"lost\": 18446744073709551615,",
                 "paths: the samples and lost add up to more than 2^64");
    /* the error names the offset of the unknown flag */
    deep = edit(doc, "\"flags\": [\"cut\"]", "\"flags\": [\"cut\", \"sideways\"]");
    snprintf(want, sizeof(want), "byte %zu: paths.entries[2].flags", (size_t)(strstr(deep, "\"sideways\"") - deep));
    REFUSED(deep, want);
    free(deep);
    /* as deep as an image can hold, and one frame more */
    frames = frames_of(MP_JSON_PATH_DEPTH_MAX);
    deep = edit(doc, first, frames);
    if (from_json(&back, deep) != 0)
        fail_msg("%s", mp_last_error());
    assert_int_equal(back.paths[0].depth, MP_JSON_PATH_DEPTH_MAX);
    assert_int_equal(back.paths[0].frames[MP_JSON_PATH_DEPTH_MAX - 1], 1);
    assert_int_equal(back.paths[1].frames[0], 0x1020);
    mp_model_free(&back);
    free(deep);
    free(frames);
    frames = frames_of(MP_JSON_PATH_DEPTH_MAX + 1);
    deep = edit(doc, first, frames);
    snprintf(want, sizeof(want), "paths.entries[0].frames: more than %u frames, deeper than any image holds",
             MP_JSON_PATH_DEPTH_MAX);
    REFUSED(deep, want);
    free(deep);
    free(frames);
    free(doc);
    mp_model_free(&m);
}

/* Overlapping ranges: two of them, written from a model no reader makes. */
static void refuses_overlapping_ranges(void **s)
{
    struct mp_model m;
    struct mp_model_range *r;
    char *doc;

    (void)s;
    image_model(&m);
    assert_non_null(r = mp_model_alloc(&m, 2 * sizeof(*r)));
    r[0] = m.ranges[0];
    r[1] = m.ranges[0];
    r[1].low += 0x200;
    r[1].high += 0x200;
    m.ranges = r;
    m.nranges = 2;
    m.c.binned *= 2;
    doc = to_json(&m);
    REFUSED(doc, "range 0x1200..0x1600 overlaps range 0x1000..0x1400: an address would be counted twice");
    free(doc);
    mp_model_free(&m);
}

/* Every prefix of a document is refused with one error, none read past
 * its end (ASan builds of the fuzz harness run the same reader). */
static void refuses_every_truncation(void **s)
{
    struct mp_model m, back;
    char *doc;
    size_t n, len;

    (void)s;
    full_model(&m);
    doc = to_json(&m);
    len = strlen(doc);
    for (n = 0; n + 1 < len; n++) {
        unsigned before = mp_error_count();
        uint8_t *copy = malloc(n ? n : 1);

        assert_non_null(copy);
        memcpy(copy, doc, n);
        if (mp_model_from_json(&back, "t.json", copy, n) == 0)
            fail_msg("the first %zu of %zu bytes were accepted", n, len);
        if (mp_error_count() != before + 1)
            fail_msg("the first %zu bytes: %u errors", n, mp_error_count() - before);
        free(copy);
    }
    /* without its final newline it is whole */
    assert_int_equal(mp_model_from_json(&back, "t.json", (const uint8_t *)doc, len - 1), 0);
    mp_model_free(&back);
    free(doc);
    mp_model_free(&m);
}

/* What JSON cannot hold is refused before anything is written. */
static void check_refuses_non_finite(void **s)
{
    struct mp_model m;

    (void)s;
    full_model(&m);
    m.funcs[1].self = NAN;
    assert_int_equal(mp_format_check(&mp_format_json, &m), -1);
    if (!strstr(mp_last_error(), "self samples of fn ") || !strstr(mp_last_error(), " is nan: JSON has no such number"))
        fail_msg("%s", mp_last_error());
    mp_model_free(&m);
    /* path flags without a name, paths deeper than a document holds */
    image_model(&m);
    m.paths[1].flags = 8;
    assert_int_equal(mp_format_check(&mp_format_json, &m), -1);
    assert_non_null(strstr(mp_last_error(), "call path 1 has flags 0x8, and only 0x7 have a name"));
    m.paths[1].flags = 0;
    m.paths[1].depth = MP_JSON_PATH_DEPTH_MAX + 1;
    assert_int_equal(mp_format_check(&mp_format_json, &m), -1);
    assert_non_null(strstr(mp_last_error(), "call path 1 has 16382 frames, more than the 16381 a document holds"));
    mp_model_free(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(round_trip_image),
        cmocka_unit_test(round_trip_paths),
        cmocka_unit_test(header_absent),
        cmocka_unit_test(refuses_bad_header),
        cmocka_unit_test(round_trip_full),
        cmocka_unit_test(cxx_names),
        cmocka_unit_test(ignores_unknown_members),
        cmocka_unit_test(refuses_bad_syntax),
        cmocka_unit_test(refuses_bad_values),
        cmocka_unit_test(refuses_bad_paths),
        cmocka_unit_test(refuses_overlapping_ranges),
        cmocka_unit_test(refuses_every_truncation),
        cmocka_unit_test(check_refuses_non_finite),
    };

    return cmocka_run_group_tests(tests, quiet, NULL);
}

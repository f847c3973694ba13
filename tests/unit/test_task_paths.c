/*
 * Call paths keyed by task and context (MCUPROF_EXT_TASK_PATHS): the
 * table parsed and refused (image_ext.c), the model (model_image.c), the
 * same frames in two tasks kept apart in one task's profile
 * (task_profile.c), folded stacks rooted at the task byte for byte
 * (format_folded_task.c), info's heaviest paths (path_print.c), the
 * JSON round trip (format_json.c, json_read_tables.c) and the sum of
 * snapshots, whose task tables are numbered anew (profile_sum.c).
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
#include "image_builder.h"
#include "image_read.h"
#include "model.h"
#include "path_print.h"
#include "profile_sum.h"
#include "task_profile.h"

static uint8_t buf[2][8192];

static int setup(void **state)
{
    (void)state;
    mp_diag_quiet(1);
    mp_diag_reset();
    return 0;
}

/* Functions 0x100 bytes apart from 0x1000; a frame is the address just
 * after the function's hook call, Thumb bit set, as the runtime records. */
#define FN(i) (0x1000u + 0x100u * (i))
#define SELF(i) (FN(i) + 0x9u)
enum { F_MAIN, F_WORKER, F_HEAVY, F_SHARED, NFUNCS };
static const char *const fn_names[NFUNCS] = {"main", "worker", "heavy", "shared_work"};

/* Task entries: 0 before the scheduler (no name), 1 P, 2 Q. */
static const char *const tasks[] = {NULL, "P", "Q"};
#define SYSTICK (MCUPROF_CTX_ARM_EXCEPTION | 15u)

/* P and Q run worker -> shared_work on the same frames; Q also worker ->
 * heavy, and P heavy under SysTick; main before the scheduler; one path
 * whose task found no entry. */
static const struct tb_path paths[] = {
    {50, 2, 0, {SELF(F_WORKER), SELF(F_SHARED)}},
    {10, 2, 0, {SELF(F_WORKER), SELF(F_SHARED)}},
    {40, 2, 0, {SELF(F_WORKER), SELF(F_HEAVY)}},
    {5, 2, 0, {SELF(F_WORKER), SELF(F_HEAVY)}},
    {3, 1, 0, {SELF(F_MAIN)}},
    {2, 1, 0, {SELF(F_MAIN)}},
};
static const uint16_t path_tasks[] = {1, 2, 2, 1, 0, MCUPROF_PATH_NO_TASK};
static const uint32_t path_contexts[] = {MCUPROF_CTX_THREAD, MCUPROF_CTX_THREAD, MCUPROF_CTX_THREAD,
                                         SYSTICK, MCUPROF_CTX_THREAD, MCUPROF_CTX_THREAD};

static void describe(struct tb_image *d, uint16_t *bad_tasks)
{
    tb_small(d, 0x20000000, 0);
    d->path_depth_max = 4;
    d->paths = paths;
    d->npaths = 6;
    d->task_paths = 1;
    d->path_tasks = bad_tasks ? bad_tasks : path_tasks;
    d->path_contexts = path_contexts;
    d->ntasks = 3;
    d->task_names = tasks;
}

static size_t build(int idx, const struct tb_image *d)
{
    size_t len = tb_build(d, buf[idx], sizeof(buf[idx]));

    assert_true(len > 0);
    return len;
}

static void parse(struct mp_image *img, int idx)
{
    struct tb_image d;

    describe(&d, NULL);
    assert_int_equal(mp_image_parse(img, "t.img", buf[idx], build(idx, &d)), 0);
}

/* The model of the image, without an ELF. */
static void model_plain(struct mp_model *m)
{
    struct mp_image img;

    parse(&img, 0);
    assert_int_equal(mp_model_from_image(m, &img), 0);
}

/* The same with the four functions. */
static void model(struct mp_model *m)
{
    unsigned i;

    model_plain(m);
    m->funcs = mp_model_alloc(m, NFUNCS * sizeof(*m->funcs));
    assert_non_null(m->funcs);
    for (i = 0; i < NFUNCS; i++) {
        m->funcs[i].name = fn_names[i];
        m->funcs[i].addr = FN(i);
        m->funcs[i].end = FN(i) + 0x100;
        m->funcs[i].size = 0x100;
    }
    m->nfuncs = NFUNCS;
    m->elf_path = "t.elf";
}

static void test_parse(void **state)
{
    struct mp_image img;
    uint32_t task, context;

    (void)state;
    parse(&img, 0);
    assert_true(img.paths >= 0);
    assert_int_equal(img.ext[img.paths].kind, MCUPROF_EXT_TASK_PATHS);
    assert_int_equal(img.path_depth_max, 4); /* (16 + 4 x 4 - 16) / 4 */
    mp_image_path_key(&img, 3, &task, &context);
    assert_int_equal(task, 1);
    assert_int_equal(context, SYSTICK);
    mp_image_path_key(&img, 5, &task, &context);
    assert_int_equal(task, MCUPROF_PATH_NO_TASK);
    assert_int_equal(mp_image_path_frame(&img, 1, 1), SELF(F_SHARED));
}

static void test_refused(void **state)
{
    struct tb_image d;
    struct mp_image img;
    uint16_t bad[6] = {1, 2, 3, 1, 0, 0};

    (void)state;
    /* a task past the task table */
    describe(&d, bad);
    assert_int_equal(mp_image_parse(&img, "t.img", buf[0], build(0, &d)), -1);
    assert_non_null(strstr(mp_last_error(), "entry 2 names task 3 but the task table has 3 entries"));
    /* no task table at all */
    describe(&d, NULL);
    d.ntasks = 0;
    assert_int_equal(mp_image_parse(&img, "t.img", buf[0], build(0, &d)), -1);
    assert_non_null(strstr(mp_last_error(), "names task 1 but the task table has 0 entries"));
    /* the entry header is 16 bytes in this kind */
    describe(&d, NULL);
    d.path_entry_size = 18;
    assert_int_equal(mp_image_parse(&img, "t.img", buf[0], build(0, &d)), -1);
    assert_non_null(strstr(mp_last_error(), "entry_size 18 is not 16 + depth_max * 4"));
}

static void test_model(void **state)
{
    struct mp_model m;

    (void)state;
    model(&m);
    assert_int_equal(m.npaths, 6);
    assert_int_equal(m.paths[0].task, 1);
    assert_int_equal(m.paths[1].task, 2);
    assert_int_equal(m.paths[3].context, SYSTICK);
    assert_int_equal(m.paths[5].task, -1);
    assert_string_equal(mp_model_task_label(&m, 0), "(no task)");
    assert_string_equal(mp_model_task_label(&m, 1), "P");
    assert_null(mp_model_task_label(&m, -1));
    mp_model_free(&m);
}

/* One task's profile: shared_work's samples split between P and Q by
 * the task alone. */
static void test_task_profile(void **state)
{
    struct mp_model m;
    struct mp_task_profile tp;
    char names[64];

    (void)state;
    model(&m);
    assert_true(mp_task_profile_possible(&m));
    assert_true(mp_task_profile_known(&m, "Q"));
    assert_false(mp_task_profile_known(&m, "nosuch"));
    mp_task_profile_names(&m, names, sizeof(names));
    assert_string_equal(names, "(no task), P, Q");

    assert_int_equal(mp_task_profile_compute(&tp, &m, "P"), 0);
    assert_int_equal(tp.total, 55);
    assert_int_equal(tp.in_handlers, 5);
    assert_int_equal(tp.self[F_SHARED], 50);
    assert_int_equal(tp.self[F_HEAVY], 5);
    assert_int_equal(tp.self[F_WORKER], 0);
    assert_int_equal(tp.incl[F_WORKER], 55);
    mp_task_profile_free(&tp);
    assert_int_equal(mp_task_profile_compute(&tp, &m, "Q"), 0);
    assert_int_equal(tp.total, 50);
    assert_int_equal(tp.in_handlers, 0);
    assert_int_equal(tp.self[F_SHARED], 10);
    assert_int_equal(tp.self[F_HEAVY], 40);
    mp_task_profile_free(&tp);
    assert_int_equal(mp_task_profile_compute(&tp, &m, "(no task)"), 0);
    assert_int_equal(tp.total, 3);
    assert_int_equal(tp.self[F_MAIN], 3);
    mp_task_profile_free(&tp);

    /* an older runtime's paths carry no task */
    m.paths[0].task = m.paths[1].task = m.paths[2].task = m.paths[3].task = m.paths[4].task = -1;
    assert_false(mp_task_profile_possible(&m));
    mp_model_free(&m);
}

static char *write_format(const struct mp_format *fmt, const struct mp_model *m)
{
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);

    assert_non_null(f);
    assert_int_equal(mp_format_check(fmt, m), 0);
    assert_int_equal(fmt->write(m, f), 0);
    assert_int_equal(fclose(f), 0);
    return out;
}

static void test_folded_task(void **state)
{
    struct mp_model m;
    char *out;

    (void)state;
    model(&m);
    out = write_format(&mp_format_folded_task, &m);
    assert_string_equal(out, "[task (no task)];main 3\n"
                             "[task P];[SysTick];worker;heavy 5\n"
                             "[task P];worker;shared_work 50\n"
                             "[task Q];worker;heavy 40\n"
                             "[task Q];worker;shared_work 10\n"
                             "[task not recorded];main 2\n");
    free(out);
    /* without a task table: refused, naming the option */
    m.has_tasks = 0;
    assert_int_equal(mp_format_check(&mp_format_folded_task, &m), -1);
    assert_non_null(strstr(mp_last_error(), "built without TASKS"));
    mp_model_free(&m);
}

/* info's heaviest paths name their task, and a handler's context. */
static void test_info_block(void **state)
{
    struct mp_model m;
    char *out = NULL;
    size_t len = 0;
    FILE *f;

    (void)state;
    model(&m);
    f = open_memstream(&out, &len);
    assert_non_null(f);
    mp_print_paths(f, &m);
    assert_int_equal(fclose(f), 0);
    assert_non_null(strstr(out, "  top 6 paths by samples (share of the 110 the table counted, lost included):\n"
                                "    [task P] > worker > shared_work  50 (45.45 %)\n"
                                "    [task Q] > worker > heavy  40 (36.36 %)\n"
                                "    [task Q] > worker > shared_work  10 (9.09 %)\n"
                                "    [task P] > [SysTick] > worker > heavy  5 (4.55 %)\n"
                                "    [task (no task)] > main  3 (2.73 %)\n"
                                "    main  2 (1.82 %)\n"));
    free(out);
    mp_model_free(&m);
}

/* Task and context through the document and back; a task index past
 * the task table refused. */
static void test_json(void **state)
{
    struct mp_model m, back;
    char *doc, *again, *bad;
    size_t i;

    (void)state;
    model_plain(&m);
    doc = write_format(&mp_format_json, &m);
    assert_non_null(strstr(doc, "\"task\": 1, \"task_name\": \"P\", \"context\": 268435471, \"context_name\": "
                                "\"SysTick\""));
    if (mp_model_from_json(&back, "t.json", (const uint8_t *)doc, strlen(doc)) != 0)
        fail_msg("%s", mp_last_error());
    assert_int_equal(back.npaths, m.npaths);
    for (i = 0; i < m.npaths; i++) {
        assert_int_equal(back.paths[i].task, m.paths[i].task);
        assert_int_equal(back.paths[i].context, m.paths[i].context);
    }
    again = write_format(&mp_format_json, &back);
    assert_string_equal(again, doc);
    mp_model_free(&back);

    bad = strdup(doc);
    assert_non_null(bad);
    memcpy(strstr(bad, "\"task\": 1,"), "\"task\": 7,", 10);
    assert_int_equal(mp_model_from_json(&back, "t.json", (const uint8_t *)bad, strlen(bad)), -1);
    assert_non_null(strstr(mp_last_error(), "names task 7, but tasks has 3 entries"));
    free(bad);
    free(again);
    free(doc);
    mp_model_free(&m);
}

/* Two snapshots summed: paths by frames, flags, task and context, the
 * task indexes renumbered as the summed table has them. */
static void test_sum(void **state)
{
    static const char *const other[] = {"Q", NULL, "P"}; /* other handles, other order */
    static const uint64_t ws[2] = {SELF(F_WORKER), SELF(F_SHARED)};
    struct tb_image d;
    struct mp_image a, b, sum;
    struct mp_sum s;
    uint8_t *data;
    size_t len;
    uint32_t task, context;

    (void)state;
    parse(&a, 0);
    describe(&d, NULL);
    d.task_names = other;
    assert_int_equal(mp_image_parse(&b, "u.img", buf[1], build(1, &d)), 0);
    mp_sum_init(&s);
    assert_int_equal(mp_sum_add(&s, &a), 0);
    assert_int_equal(mp_sum_add(&s, &a), 0);
    assert_int_equal(mp_sum_add(&s, &b), 0);
    /* the first image's P (entry 1), twice */
    assert_int_equal(mp_sum_path_samples(&s, &(struct mp_sum_path){(uint64_t *)(uintptr_t)ws, 2, 0, 1,
                                                                    MCUPROF_CTX_THREAD, 0}),
                     100);
    /* the second image's entries: 0 ("Q" at 0x20001000) and 2 ("P" at
     * 0x20001200) are new, summed entries 3 and 4; 1 (no task) is summed
     * entry 0. Its paths 0 and 1 (tasks 1 and 2 there) are in summed
     * tasks 0 and 4. */
    assert_int_equal(s.ntasks, 5);
    assert_int_equal(mp_sum_path_samples(&s, &(struct mp_sum_path){(uint64_t *)(uintptr_t)ws, 2, 0, 0,
                                                                    MCUPROF_CTX_THREAD, 0}),
                     50);
    assert_int_equal(mp_sum_path_samples(&s, &(struct mp_sum_path){(uint64_t *)(uintptr_t)ws, 2, 0, 4,
                                                                    MCUPROF_CTX_THREAD, 0}),
                     10);
    assert_int_equal(mp_sum_path_samples(&s, &(struct mp_sum_path){(uint64_t *)(uintptr_t)ws, 2, 0, 2,
                                                                    MCUPROF_CTX_THREAD, 0}),
                     20);
    assert_int_equal(mp_sum_image(&s, &data, &len), 0);
    assert_int_equal(mp_image_parse(&sum, "sum", data, len), 0);
    assert_int_equal(sum.ext[sum.paths].kind, MCUPROF_EXT_TASK_PATHS);
    mp_image_path_key(&sum, 3, &task, &context);
    assert_int_equal(task, 1);
    assert_int_equal(context, SYSTICK);
    free(data);
    mp_sum_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_parse, setup),
        cmocka_unit_test_setup(test_refused, setup),
        cmocka_unit_test_setup(test_model, setup),
        cmocka_unit_test_setup(test_task_profile, setup),
        cmocka_unit_test_setup(test_folded_task, setup),
        cmocka_unit_test_setup(test_info_block, setup),
        cmocka_unit_test_setup(test_json, setup),
        cmocka_unit_test_setup(test_sum, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * What a running target counted between two snapshots (model_since.h):
 * the later model minus the earlier, bins, arcs, counters, contexts,
 * tasks and call paths exact; a drain (the generation changed) and a
 * count that went down (a reset) found, the later model then left as it
 * was read; a model of an image just drained (every count 0) as the
 * start of the next interval.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "diag.h"
#include "model.h"
#include "model_since.h"

#define ARM 40

static const uint64_t frames_a[2] = {0x100, 0x140}, frames_b[2] = {0x100, 0x180};

/* A model of one image: 4 bins of 0x100..0x200 (BIN each, bin 3 BIN3),
 * two arcs (COUNT and 7), counters, two contexts, a task, two paths. */
static void image_model(struct mp_model *m, uint64_t bin, uint64_t bin3, uint64_t count, uint64_t scale)
{
    size_t i;

    assert_int_equal(mp_model_init(m, "t.img", MP_MODEL_IMAGE), 0);
    m->machine = ARM;
    m->bin_shift = 6;
    m->c.generation = 3;
    m->nranges = 1;
    m->ranges = mp_model_alloc(m, sizeof(*m->ranges));
    m->ranges[0].low = 0x100;
    m->ranges[0].high = 0x200;
    m->ranges[0].nbins = 4;
    m->ranges[0].bins = mp_model_alloc(m, 4 * sizeof(uint64_t));
    for (i = 0; i < 4; i++)
        m->ranges[0].bins[i] = i == 3 ? bin3 : bin;
    m->ranges[0].samples = 3 * bin + bin3;
    m->c.binned = m->ranges[0].samples;
    m->c.samples_taken = m->c.binned + 5 * scale;
    m->c.lost[MP_LOST_SAMPLES_FROZEN] = 5 * scale;
    m->c.lost[MP_LOST_CALLS_FROZEN] = 2 * scale;
    m->c.missed_periods = scale;
    m->c.deferred_samples = 3 * scale;
    m->narcs = 2;
    m->arcs = mp_model_alloc(m, 2 * sizeof(*m->arcs));
    m->arcs[0] = (struct mp_model_arc){0x120, 0x140, count, -1, -1, 0};
    m->arcs[1] = (struct mp_model_arc){0x150, 0x180, 7, -1, -1, 0};
    m->c.total_calls = count + 7;
    m->has_contexts = m->has_tasks = m->has_paths = 1;
    m->ncontexts = 2;
    m->contexts = mp_model_alloc(m, 2 * sizeof(*m->contexts));
    m->contexts[0] = (struct mp_model_context){0, 100 * scale};
    m->contexts[1] = (struct mp_model_context){0x8000001fu, 10 * scale};
    m->ntasks = 1;
    m->tasks = mp_model_alloc(m, sizeof(*m->tasks));
    m->tasks[0] = (struct mp_model_task){0x2000, 110 * scale, "idle", 0};
    m->npaths = 2;
    m->paths = mp_model_alloc(m, 2 * sizeof(*m->paths));
    m->paths[0] = (struct mp_model_path){frames_a, 2, 0, 0, MCUPROF_PATH_NO_CONTEXT, 60 * scale};
    m->paths[1] = (struct mp_model_path){frames_b, 2, 0, 0, MCUPROF_PATH_NO_CONTEXT, 50 * scale};
}

static uint64_t path_samples(const struct mp_model *m, const uint64_t *frames)
{
    size_t i;

    for (i = 0; i < m->npaths; i++)
        if (m->paths[i].frames[1] == frames[1])
            return m->paths[i].samples;
    return 0;
}

static void interval(void **s)
{
    struct mp_model a, b;
    size_t i;

    (void)s;
    image_model(&a, 10, 4, 30, 1);
    image_model(&b, 25, 4, 41, 3);
    assert_int_equal(mp_model_since(&b, &a), MP_SINCE_OK);
    /* bins: 15 more in bins 0..2, none in bin 3 */
    for (i = 0; i < 3; i++)
        assert_int_equal(b.ranges[0].bins[i], 15);
    assert_int_equal(b.ranges[0].bins[3], 0);
    assert_int_equal(b.ranges[0].samples, 45);
    assert_int_equal(b.c.binned, 45);
    assert_int_equal(b.ranges[0].max_bin, 15);
    /* samples_taken: (75 + 4 + 15) - (30 + 4 + 5) */
    assert_int_equal(b.c.samples_taken, 55);
    assert_int_equal(b.c.lost[MP_LOST_SAMPLES_FROZEN], 10);
    assert_int_equal(b.c.lost[MP_LOST_CALLS_FROZEN], 4);
    assert_int_equal(b.c.missed_periods, 2);
    assert_int_equal(b.c.deferred_samples, 6);
    /* the arc that did not move is no arc of the interval */
    assert_int_equal(b.narcs, 1);
    assert_int_equal(b.arcs[0].callee, 0x140);
    assert_int_equal(b.arcs[0].count, 11);
    assert_int_equal(b.c.total_calls, 11);
    assert_int_equal(b.contexts[0].samples + b.contexts[1].samples, 220);
    for (i = 0; i < 2; i++)
        assert_int_equal(b.contexts[i].samples, b.contexts[i].key == 0 ? 200 : 20);
    assert_int_equal(b.tasks[0].samples, 220);
    assert_string_equal(b.tasks[0].name, "idle");
    assert_int_equal(b.npaths, 2);
    assert_int_equal(path_samples(&b, frames_a), 120);
    assert_int_equal(path_samples(&b, frames_b), 100);
    mp_model_free(&a);
    mp_model_free(&b);
}

/* A count found lower anywhere: END as it was read. */
static void went_down(void **s)
{
    struct mp_model a, b;

    (void)s;
    image_model(&a, 10, 4, 30, 1);
    image_model(&b, 25, 3, 41, 3); /* bin 3: 4 then 3 */
    assert_int_equal(mp_model_since(&b, &a), MP_SINCE_WENT_DOWN);
    assert_int_equal(b.ranges[0].bins[0], 25);
    assert_int_equal(b.narcs, 2);
    assert_int_equal(b.c.samples_taken, 75 + 3 + 15);
    mp_model_free(&b);
    image_model(&b, 25, 4, 29, 3); /* an arc: 30 then 29 */
    assert_int_equal(mp_model_since(&b, &a), MP_SINCE_WENT_DOWN);
    assert_int_equal(b.arcs[0].count, 29);
    assert_int_equal(b.ranges[0].bins[0], 25);
    mp_model_free(&b);
    image_model(&b, 25, 4, 41, 3);
    b.paths[1].samples = 1; /* a path: 50 then 1 */
    assert_int_equal(mp_model_since(&b, &a), MP_SINCE_WENT_DOWN);
    b.paths[1].samples = 150;
    b.ntasks = 0; /* the task table forgot its entry */
    assert_int_equal(mp_model_since(&b, &a), MP_SINCE_WENT_DOWN);
    assert_int_equal(b.ranges[0].bins[0], 25);
    mp_model_free(&a);
    mp_model_free(&b);
}

/* Another generation: drained in between, whatever the counts. */
static void drained(void **s)
{
    struct mp_model a, b, c;

    (void)s;
    image_model(&a, 10, 4, 30, 1);
    image_model(&b, 25, 4, 41, 3);
    b.c.generation = 4;
    assert_int_equal(mp_model_since(&b, &a), MP_SINCE_DRAINED);
    assert_int_equal(b.ranges[0].bins[0], 25);
    /* A drain by this host: the image as the drain left it starts the
     * next interval, which then holds all the later image counted. */
    mp_model_drained(&a);
    assert_int_equal(a.c.generation, 4);
    assert_int_equal(a.narcs, 0);
    assert_int_equal(a.c.samples_taken, 0);
    image_model(&c, 25, 4, 41, 3);
    c.c.generation = 4;
    assert_int_equal(mp_model_since(&c, &a), MP_SINCE_OK);
    assert_int_equal(c.c.samples_taken, 75 + 4 + 15);
    assert_int_equal(c.narcs, 2);
    assert_int_equal(c.tasks[0].samples, 330);
    assert_int_equal(path_samples(&c, frames_a), 180);
    mp_model_free(&a);
    mp_model_free(&b);
    mp_model_free(&c);
}

/* Another layout (another firmware): an error naming the later image. */
static void other_layout(void **s)
{
    struct mp_model a, b;

    (void)s;
    image_model(&a, 10, 4, 30, 1);
    image_model(&b, 25, 4, 41, 3);
    b.ranges[0].high = 0x300;
    mp_diag_quiet(1);
    assert_int_equal(mp_model_since(&b, &a), -1);
    mp_diag_quiet(0);
    assert_non_null(strstr(mp_last_error(), "t.img: the image's layout changed"));
    mp_model_free(&a);
    mp_model_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(interval),
        cmocka_unit_test(went_down),
        cmocka_unit_test(drained),
        cmocka_unit_test(other_layout),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * The model of `mcuprof sample` (model_probe.h): PCs binned into 2-byte
 * bins over code ranges, PCs outside counted and never binned, the
 * Thumb bit cleared; and the arcs of a window, the end's counts minus
 * the start's, exact, with a reset or a drain in between detected
 * (END left as it was).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "model.h"
#include "model_probe.h"

#define ARM 40

static void arcs_of(struct mp_model *m, const uint64_t (*a)[3], size_t n)
{
    size_t i;

    assert_int_equal(mp_model_init(m, "test", MP_MODEL_IMAGE), 0);
    m->machine = ARM;
    m->arcs = mp_model_alloc(m, (n ? n : 1) * sizeof(*m->arcs));
    assert_non_null(m->arcs);
    m->narcs = n;
    for (i = 0; i < n; i++) {
        m->arcs[i].callsite = a[i][0];
        m->arcs[i].callee = a[i][1];
        m->arcs[i].count = a[i][2];
        m->arcs[i].saturated = a[i][2] == UINT32_MAX;
        m->arcs[i].caller = m->arcs[i].callee_fn = -1;
    }
}

static uint64_t count_of(const struct mp_model *m, uint64_t site, uint64_t callee)
{
    size_t i;

    for (i = 0; i < m->narcs; i++)
        if (m->arcs[i].callsite == site && m->arcs[i].callee == callee)
            return m->arcs[i].count;
    return 0;
}

static void bins(void **s)
{
    struct mp_code_range r[2] = {{0x100, 0x141}, {0x20000000, 0x20000010}};
    struct mp_model m;

    (void)s;
    assert_int_equal(mp_model_init(&m, "test", MP_MODEL_GMON), 0);
    m.machine = ARM;
    assert_int_equal(mp_model_probe_ranges(&m, r, 2, 1000), 0);
    assert_int_equal(m.bin_shift, 1);
    assert_int_equal(m.nranges, 2);
    /* 0x100..0x141 rounded out to whole bins: 0x100..0x142, 33 bins */
    assert_int_equal(m.ranges[0].high, 0x142);
    assert_int_equal(m.ranges[0].nbins, 33);
    assert_int_equal(mp_model_probe_add(&m, 0x103), 1); /* Thumb bit: 0x102 */
    assert_int_equal(mp_model_probe_add(&m, 0x102), 1);
    assert_int_equal(mp_model_probe_add(&m, 0x140), 1);
    assert_int_equal(mp_model_probe_add(&m, 0x2000000e), 1);
    assert_int_equal(mp_model_probe_add(&m, 0x142), 0);
    assert_int_equal(mp_model_probe_add(&m, 0xfffffffe), 0);
    assert_int_equal(m.ranges[0].bins[1], 2);
    assert_int_equal(m.ranges[0].bins[32], 1);
    assert_int_equal(m.ranges[1].bins[7], 1);
    assert_int_equal(m.ranges[0].max_bin, 2);
    assert_int_equal(m.c.binned, 4);
    assert_int_equal(m.c.samples_taken, 6);
    assert_int_equal(m.c.lost[MP_LOST_SAMPLES_OUT_OF_RANGE], 2);
    assert_int_equal(m.sample_rate_hz, 1000);
    mp_model_free(&m);
}

static void window_arcs(void **s)
{
    static const uint64_t start[][3] = {{0x10, 0x100, 5}, {0x20, 0x200, 7}, {0, 0x300, 1}, {0x30, 0x400, UINT32_MAX}};
    static const uint64_t end[][3] = {{0x30, 0x400, UINT32_MAX}, {0x20, 0x200, 7}, {0x10, 0x100, 12},
                                      {0x40, 0x500, 3}, {0, 0x300, 4}};
    struct mp_model a, b;

    (void)s;
    arcs_of(&a, start, 4);
    arcs_of(&b, end, 5);
    a.c.lost[MP_LOST_CALLS_FROZEN] = 2;
    b.c.lost[MP_LOST_CALLS_FROZEN] = 9;
    assert_int_equal(mp_model_arcs_since(&b, &a), 0);
    /* 0x20 -> 0x200 made no call in the window: gone */
    assert_int_equal(b.narcs, 4);
    assert_int_equal(count_of(&b, 0x10, 0x100), 7);
    assert_int_equal(count_of(&b, 0x40, 0x500), 3);
    assert_int_equal(count_of(&b, 0, 0x300), 3);
    assert_int_equal(count_of(&b, 0x20, 0x200), 0);
    /* saturated at the start: nothing known of the window but a lower bound */
    assert_int_equal(b.c.saturated_arcs, 1);
    assert_int_equal(b.c.total_calls, 13);
    assert_int_equal(b.c.outside_calls, 3);
    assert_int_equal(b.c.outside_arcs, 1);
    assert_int_equal(b.c.lost[MP_LOST_CALLS_FROZEN], 7);
    mp_model_free(&a);
    mp_model_free(&b);
}

/* A count that went down, or an arc that vanished: the target was reset
 * or drained; END is left whole. */
static void window_reset(void **s)
{
    static const uint64_t start[][3] = {{0x10, 0x100, 50}, {0x20, 0x200, 7}};
    static const uint64_t lower[][3] = {{0x10, 0x100, 4}, {0x20, 0x200, 9}};
    static const uint64_t vanished[][3] = {{0x10, 0x100, 60}};
    struct mp_model a, b;

    (void)s;
    arcs_of(&a, start, 2);
    arcs_of(&b, lower, 2);
    assert_int_equal(mp_model_arcs_since(&b, &a), 1);
    assert_int_equal(b.narcs, 2);
    assert_int_equal(count_of(&b, 0x10, 0x100), 4);
    assert_int_equal(count_of(&b, 0x20, 0x200), 9);
    mp_model_free(&b);
    arcs_of(&b, vanished, 1);
    assert_int_equal(mp_model_arcs_since(&b, &a), 1);
    assert_int_equal(count_of(&b, 0x10, 0x100), 60);
    mp_model_free(&b);
    /* a loss counter that went down is a reset too */
    arcs_of(&b, start, 2);
    a.c.lost[MP_LOST_ARCS_TABLE_FULL] = 3;
    assert_int_equal(mp_model_arcs_since(&b, &a), 1);
    assert_int_equal(count_of(&b, 0x10, 0x100), 50);
    mp_model_free(&a);
    mp_model_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bins),
        cmocka_unit_test(window_arcs),
        cmocka_unit_test(window_reset),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}

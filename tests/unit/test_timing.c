/*
 * The time the sampler could not see: the header's timing words, the
 * late-sample, blocker and held-off tables read and refused, the bins that hold
 * charged periods, the sentences info, report, convert and pprof say,
 * the error bars, JSON and the sum of drained snapshots.
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
#include "format_json.h"
#include "formats.h"
#include "image_builder.h"
#include "image_read.h"
#include "model.h"
#include "profile_sum.h"
#include "timing.h"
#include "trust.h"
#include "wilson.h"

static uint8_t buf[8192];
static struct mp_image img;
static uint32_t bins[8];

#define ARM_IRQ(n) (0x10000000u | (16u + (n)))
#define RV_IRQ(code) (0x20000000u | (code))

/* Two critical sections: 464 periods missed before the late samples at
 * 0x1014 (crit_section), 16 before those at 0x1034 (uart_flush). */
static const struct tb_late late2[] = {{0x1014, 300, 464}, {0x1034, 20, 16}};
static const struct tb_blocker irq5[] = {{ARM_IRQ(5), 0x00, 0x00, 1}};

/* An ARM image of one range 0x1000..0x1080 in eight 16-byte bins:
 * 3420 samples taken, 480 missed periods charged to the bins (3900 in
 * them), 1230 of the samples deferred, IRQ 5 at SysTick's priority. */
static void charged_image(struct tb_image *d)
{
    tb_arm(d);
    d->rate = 10000;
    d->bin_shift = 4;
    d->nranges = 1;
    d->ranges[0] = (struct tb_range){0x1000, 8, bins};
    memset(bins, 0, sizeof(bins));
    bins[1] = 2000 + 464; /* crit_section: its own samples and the periods charged to it */
    bins[3] = 1420 + 16;  /* uart_flush */
    d->samples_taken = 3420;
    d->samples_exact = 1;
    d->missed_periods = 480;
    d->missed_source = 2; /* cyccnt */
    d->timing_flags = MCUPROF_TIMING_DEFERRED | MCUPROF_TIMING_CHARGED | MCUPROF_TIMING_BLOCKERS;
    d->deferred_samples = 1230;
    d->has_late = 1;
    d->nlate = 2;
    d->late = late2;
    d->has_blockers = 1;
    d->nblockers = 1;
    d->blockers = irq5;
}

static size_t build(const struct tb_image *d)
{
    size_t n = tb_build(d, buf, sizeof(buf));

    assert_true(n > 0);
    return n;
}

static int parse(const struct tb_image *d)
{
    size_t n = build(d);

    mp_diag_reset();
    return mp_image_parse(&img, "t.img", buf, n);
}

/* The image of D is refused with one error containing WANT. */
static void refused(const struct tb_image *d, const char *want, int line)
{
    if (parse(d) == 0)
        fail_msg("line %d: accepted, expected \"%s\"", line, want);
    if (mp_error_count() != 1 || !strstr(mp_last_error(), want))
        fail_msg("line %d: \"%s\" does not say \"%s\"", line, mp_last_error(), want);
}
#define REFUSED(d, want) refused((d), (want), __LINE__)

static int quiet(void **s)
{
    (void)s;
    mp_diag_quiet(1);
    return 0;
}

/* ---- reading --------------------------------------------------------- */

static void reads_timing(void **s)
{
    struct tb_image d;
    uint32_t source, samples, missed;
    unsigned prio, sprio, flags;
    uint64_t pc;

    (void)s;
    charged_image(&d);
    assert_int_equal(parse(&d), 0);
    assert_int_equal(mp_warning_count(), 0);
    assert_int_equal(img.timing_flags, 7);
    assert_int_equal(img.deferred_samples, 1230);
    assert_true(img.late >= 0 && img.blockers >= 0);
    assert_int_equal(img.ext[img.late].used, 2);
    mp_image_late(&img, 1, &pc, &samples, &missed);
    assert_int_equal(pc, 0x1034);
    assert_int_equal(samples, 20);
    assert_int_equal(missed, 16);
    mp_image_blocker(&img, 0, &source, &prio, &sprio, &flags);
    assert_int_equal(source, 0x10000015u);
    assert_int_equal(prio, 0);
    assert_int_equal(sprio, 0);
    assert_int_equal(flags, MCUPROF_BLOCKER_SEEN_BLOCKING);
    assert_int_equal(img.held, -1);
    assert_int_equal(mp_image_bin_bound(&img), 3900);
}

/* An older image: zeros in the new words, none of the new tables. */
static void reads_older_image(void **s)
{
    struct tb_image d;

    (void)s;
    charged_image(&d);
    d.timing_flags = 0;
    d.deferred_samples = 0;
    d.has_late = d.has_blockers = 0;
    bins[1] -= 464;
    bins[3] -= 16;
    assert_int_equal(parse(&d), 0);
    assert_int_equal(img.timing_flags, 0);
    assert_int_equal(img.late, -1);
    assert_int_equal(img.blockers, -1);
    assert_int_equal(mp_image_bin_bound(&img), 3420);
}

/* The bins may hold samples_taken + missed_periods only when charged. */
static void bins_bound_by_charged_periods(void **s)
{
    struct tb_image d;

    (void)s;
    charged_image(&d);
    d.timing_flags &= (uint16_t)~MCUPROF_TIMING_CHARGED;
    REFUSED(&d, "the histogram's bins hold 3900 samples but samples_taken is 3420: the image is inconsistent");
    charged_image(&d);
    d.missed_periods = 479;
    d.has_late = 0; /* else the late table's 480 periods are refused first */
    REFUSED(&d, "the histogram's bins hold 3900 samples but samples_taken is 3420 plus the missed periods charged"
                " to the bins: the image is inconsistent");
    /* a saturated count bounds nothing */
    d.missed_periods = UINT32_MAX;
    assert_int_equal(parse(&d), 0);
}

static void refuses_bad_late_table(void **s)
{
    struct tb_image d;
    struct tb_late bad[2];
    char want[160];
    size_t off, n;

    (void)s;
    charged_image(&d);
    off = tb_late_offset(&d);
    memcpy(bad, late2, sizeof(bad));
    d.late = bad;
    bad[1].pc = 0;
    snprintf(want, sizeof(want), "late-sample table at 0x%zx: entry 1 has pc 0", off);
    REFUSED(&d, want);
    bad[1].pc = 0x1014;
    snprintf(want, sizeof(want), "late-sample table at 0x%zx: pc 0x1014 has two entries (one per pc)", off);
    REFUSED(&d, want);
    memcpy(bad, late2, sizeof(bad));
    bad[1].samples = 0;
    snprintf(want, sizeof(want), "late-sample table at 0x%zx: entry 1 (pc 0x1034) has 16 missed periods but no"
                                 " sample", off);
    REFUSED(&d, want);
    memcpy(bad, late2, sizeof(bad));
    bad[1].missed = 17;
    snprintf(want, sizeof(want), "the late-sample table at 0x%zx charges 481 missed periods but missed_periods is"
                                 " 480: the image is inconsistent", off);
    REFUSED(&d, want);
    memcpy(bad, late2, sizeof(bad));
    d.late_lost = 3101;
    REFUSED(&d, "counts 3421 samples (lost 3101 included) but samples_taken is 3420");
    /* the layout: entry_size, used above capacity */
    charged_image(&d);
    n = build(&d);
    tb_put16(buf, off + TB_EXT_ENTRY_SIZE, 12, 0);
    assert_int_equal(mp_image_parse(&img, "t.img", buf, n), -1);
    snprintf(want, sizeof(want), "extension table kind 5 at 0x%zx: entry_size 12, expected 16", off);
    assert_non_null(strstr(mp_last_error(), want));
    n = build(&d);
    tb_put32(buf, off + TB_EXT_USED, 3, 0);
    assert_int_equal(mp_image_parse(&img, "t.img", buf, n), -1);
    snprintf(want, sizeof(want), "extension table kind 5 at 0x%zx: used 3 is above capacity 2", off);
    assert_non_null(strstr(mp_last_error(), want));
}

static void refuses_bad_blocker_table(void **s)
{
    struct tb_image d;
    struct tb_blocker bad[2] = {{ARM_IRQ(5), 0, 0, 1}, {ARM_IRQ(5), 0x40, 0, 1}};
    char want[200];
    size_t off;

    (void)s;
    charged_image(&d);
    off = tb_blockers_offset(&d);
    d.blockers = bad;
    d.nblockers = 2;
    snprintf(want, sizeof(want), "blocker table at 0x%zx: source 0x10000015 has two entries (one per interrupt)",
             off);
    REFUSED(&d, want);
    bad[1].source = RV_IRQ(11);
    snprintf(want, sizeof(want), "blocker table at 0x%zx: entry 1 has source 0x2000000b, not an ARM exception"
                                 " 1..511 (0x10000000 | number)", off);
    REFUSED(&d, want);
    bad[1].source = 0x10000000u | 512u;
    REFUSED(&d, "has source 0x10000200, not an ARM exception 1..511");
    bad[1].source = 0x30000002u; /* an exception's context key, not an interrupt */
    REFUSED(&d, "has source 0x30000002, not an ARM exception");
    /* on RISC-V: interrupts 0..63 */
    d.machine = 243;
    bad[0].source = RV_IRQ(11);
    bad[1].source = RV_IRQ(64);
    REFUSED(&d, "entry 1 has source 0x20000040, not a RISC-V interrupt 0..63 (0x20000000 | mcause code)");
    bad[1].source = RV_IRQ(3);
    assert_int_equal(parse(&d), 0);
    /* flags a later runtime may set: a warning, and dropped */
    bad[1].flags = 0x8003;
    assert_int_equal(parse(&d), 0);
    assert_int_equal(mp_warning_count(), 1);
    snprintf(want, sizeof(want), "blocker table at 0x%zx: flags 0x8000 unknown to this mcuprof", off);
    assert_non_null(strstr(mp_last_warning(), want));
    {
        uint32_t source;
        unsigned prio, sprio, flags;

        mp_image_blocker(&img, 1, &source, &prio, &sprio, &flags);
        assert_int_equal(flags, 3);
    }
}

static void header_words(void **s)
{
    struct tb_image d;

    (void)s;
    charged_image(&d);
    d.timing_flags |= 0x0108;
    assert_int_equal(parse(&d), 0);
    assert_int_equal(mp_warning_count(), 1);
    assert_non_null(strstr(mp_last_warning(), "timing_flags 0x010f has bits 0x0108 unknown to this mcuprof"));
    assert_int_equal(img.timing_flags, 7);
    /* deferred_samples without its flag: not measured, ignored */
    charged_image(&d);
    d.timing_flags = MCUPROF_TIMING_CHARGED;
    assert_int_equal(parse(&d), 0);
    assert_int_equal(mp_warning_count(), 1);
    assert_non_null(strstr(mp_last_warning(), "deferred_samples 1230 without MCUPROF_TIMING_DEFERRED"));
    assert_int_equal(img.deferred_samples, 0);
    charged_image(&d);
    d.deferred_samples = 3421;
    REFUSED(&d, "deferred_samples 3421 is above samples_taken 3420: the image is inconsistent");
}

/* ---- the model, what is said ----------------------------------------- */

struct said {
    char text[8][1024];
    int warn[8];
    unsigned n;
};

static void collect(void *ctx, int warn, const char *sentence)
{
    struct said *s = ctx;

    assert_true(s->n < 8);
    snprintf(s->text[s->n], sizeof(s->text[0]), "%s", sentence);
    s->warn[s->n++] = warn;
}

static void model_of(const struct tb_image *d, struct mp_model *m)
{
    assert_int_equal(parse(d), 0);
    assert_int_equal(mp_model_from_image(m, &img), 0);
}

/* The functions the late samples landed in, as the ELF would give them. */
static void name_functions(struct mp_model *m)
{
    m->funcs = mp_model_alloc(m, 2 * sizeof(*m->funcs));
    assert_non_null(m->funcs);
    m->funcs[0] = (struct mp_model_func){.name = "crit_section", .addr = 0x1000, .end = 0x1020, .size = 0x20};
    m->funcs[1] = (struct mp_model_func){.name = "uart_flush", .addr = 0x1030, .end = 0x1040, .size = 0x10};
    m->nfuncs = 2;
}

/* The sentences of the model of D, its functions named, into SAID. */
static void say_named(const struct tb_image *d, struct mp_model *m, struct said *said)
{
    model_of(d, m);
    name_functions(m);
    said->n = 0;
    mp_timing_sentences(m, 1.0, collect, said);
}

static const char masked_named[] = "interrupts masked: 12.3 % of the time (480 periods of 3900), charged where they"
                                   " came back on: crit_section 11.9 %, uart_flush 0.4 %";
static const char deferred[] = "the sampler was held off at 36.0 % of its samples (1230 of 3420 deferred by less than"
                               " a period): masked interrupts or a handler it cannot preempt; those samples are"
                               " charged to where it could run again";
static const char blocker_irq5[] = "IRQ 5 (exception 21) is enabled at priority 0x00, as urgent as the sampler's"
                                   " (SysTick 0x00): SysTick cannot preempt its handler, whose time is charged to"
                                   " the code it interrupted. Give it a less urgent priority, e.g."
                                   " NVIC_SetPriority(5, 1)";

static void sentences(void **s)
{
    struct mp_model m;
    struct said said = {.n = 0};

    (void)s;
    {
        struct tb_image d;

        charged_image(&d);
        model_of(&d, &m);
    }
    assert_int_equal(m.c.timing_flags, 7);
    assert_int_equal(m.c.deferred_samples, 1230);
    assert_int_equal(m.nlate, 2);
    assert_int_equal(m.late[0].missed, 464);
    assert_int_equal(m.nblockers, 1);
    /* shares are of time: the 3900 periods the bins hold */
    assert_int_equal(mp_model_charged(&m), 480);
    assert_int_equal(mp_model_samples_total(&m), 3900);
    /* raw PCs without the ELF */
    mp_timing_sentences(&m, 1.0, collect, &said);
    assert_int_equal(said.n, 3);
    assert_string_equal(said.text[0], "interrupts masked: 12.3 % of the time (480 periods of 3900), charged where"
                                      " they came back on: 0x1014 11.9 %, 0x1034 0.4 %");
    assert_string_equal(said.text[1], deferred);
    assert_string_equal(said.text[2], blocker_irq5);
    assert_true(said.warn[0] && said.warn[1] && said.warn[2]);
    /* named from the ELF */
    name_functions(&m);
    said.n = 0;
    mp_timing_sentences(&m, 1.0, collect, &said);
    assert_string_equal(said.text[0], masked_named);
    /* below the threshold: said, not warned; a blocker always warned */
    said.n = 0;
    mp_timing_sentences(&m, 50.0, collect, &said);
    assert_int_equal(said.warn[0] + said.warn[1] + said.warn[2], 1);
    assert_true(said.warn[2]);
    mp_model_free(&m);
}

/* Periods charged at places the table had no room for, a blocker whose
 * priority changed, one more urgent than a sampler below the top, a
 * table full of blockers. */
static void sentences_partial(void **s)
{
    static const struct tb_late one[] = {{0x1014, 300, 464}};
    static const struct tb_blocker two[] = {{ARM_IRQ(5), 0x00, 0x00, 3}, {0x1000000eu, 0x40, 0x80, 1}};
    struct tb_image d;
    struct mp_model m;
    struct said said = {.n = 0};

    (void)s;
    charged_image(&d);
    d.late = one;
    d.nlate = 1;
    d.late_lost = 20;
    d.blockers = two;
    d.nblockers = 2;
    d.blockers_lost = 1;
    say_named(&d, &m, &said);
    assert_int_equal(said.n, 6);
    assert_string_equal(said.text[0], "interrupts masked: 12.3 % of the time (480 periods of 3900), charged where"
                                      " they came back on: crit_section 11.9 %, 16 periods at places the"
                                      " late-sample table had no room for");
    assert_string_equal(said.text[2], "IRQ 5 (exception 21) was enabled at priority 0x00, as urgent as the"
                                      " sampler's (SysTick 0x00), for part of the run (its priority changed during"
                                      " the run, or it was disabled): while so, SysTick could not preempt its"
                                      " handler, whose time is charged to the code it interrupted. Give it a less"
                                      " urgent priority, e.g. NVIC_SetPriority(5, 1)");
    assert_string_equal(said.text[3], "PendSV (exception 14) is enabled at priority 0x40, more urgent than the"
                                      " sampler's (SysTick 0x80): SysTick cannot preempt its handler, whose time is"
                                      " charged to the code it interrupted. Make SysTick the most urgent and it less"
                                      " urgent, e.g. NVIC_SetPriority(SysTick_IRQn, 0); NVIC_SetPriority(-2, 1)");
    assert_string_equal(said.text[4], "the blocker table was full: 1 more interrupts the sampler cannot preempt"
                                      " were seen and are not named; give it more entries (MCUPROF_CFG_BLOCKERS)");
    assert_string_equal(said.text[5], "the late-sample table was full for 20 late samples: where they landed is not"
                                      " listed (their periods are still charged to their bins); give it more"
                                      " entries (MCUPROF_CFG_LATE)");
    mp_model_free(&m);
}

static void sentences_riscv_and_clock(void **s)
{
    static const struct tb_blocker ext[] = {{RV_IRQ(11), 0, 0, 1}};
    struct tb_image d;
    struct mp_model m;
    struct said said = {.n = 0};

    (void)s;
    charged_image(&d);
    d.machine = 243;
    d.blockers = ext;
    d.timing_flags |= MCUPROF_TIMING_CLOCK_STALLED;
    d.missed_source = 1; /* mtime */
    model_of(&d, &m);
    mp_timing_sentences(&m, 1.0, collect, &said);
    assert_int_equal(said.n, 4);
    assert_string_equal(said.text[2], "the clock that measured the sampler's lateness (mtime) stalled (it did not"
                                      " advance between two ticks) and was dropped: missed periods after that are"
                                      " not counted, and code masked after it is under-counted");
    assert_string_equal(said.text[3], "machine external interrupt (mcause 11) is enabled: its handler runs with"
                                      " interrupts masked unless it sets mstatus.MIE again, and its time is charged"
                                      " to the code it interrupted");
    mp_model_free(&m);
}

/* A core that cannot count missed periods but counts deferrals. */
static void sentences_deferred_only(void **s)
{
    struct tb_image d;
    struct mp_model m;
    struct said said = {.n = 0};

    (void)s;
    charged_image(&d);
    d.timing_flags = MCUPROF_TIMING_DEFERRED;
    d.missed_source = 0;
    d.missed_periods = 0;
    d.has_late = d.has_blockers = 0;
    bins[1] -= 464;
    bins[3] -= 16;
    model_of(&d, &m);
    mp_timing_sentences(&m, 1.0, collect, &said);
    assert_int_equal(said.n, 2);
    assert_string_equal(said.text[0], deferred);
    assert_non_null(strstr(said.text[1], "missed periods are not measurable on this core (no clock beside the"
                                         " sampler's timer, as on a Cortex-M0 with SysTick alone"));
    assert_non_null(strstr(said.text[1], "but deferrals are"));
    assert_true(said.warn[1]);
    mp_model_free(&m);
    /* with the late-sample table: where the late samples landed */
    {
        static const struct tb_late where[] = {{0x1014, 300, 0}, {0x1034, 20, 0}, {0x1050, 2, 0}};

        d.has_late = 1;
        d.late = where;
        d.nlate = 3;
        d.late_lost = 8;
    }
    say_named(&d, &m, &said);
    assert_int_equal(said.n, 3);
    assert_string_equal(said.text[0], "the sampler was held off at 36.0 % of its samples (1230 of 3420 deferred by less"
                                      " than a period): masked interrupts or a handler it cannot preempt; those"
                                      " samples are charged to where it could run again; late samples, as a share of"
                                      " all samples: crit_section 8.8 %, uart_flush 0.6 %, 0x1050 (in no function)"
                                      " 0.1 %");
    assert_non_null(strstr(said.text[2], "the late-sample table was full for 8 late samples"));
    mp_model_free(&m);
}

/* An older image's missed periods: in no bin, under-counted. */
static void sentences_uncharged(void **s)
{
    struct tb_image d;
    struct mp_model m;
    struct said said = {.n = 0};

    (void)s;
    charged_image(&d);
    d.timing_flags = 0;
    d.deferred_samples = 0;
    d.has_late = d.has_blockers = 0;
    d.missed_periods = 102;
    d.samples_taken = 10000;
    bins[1] = 10000;
    bins[3] = 0;
    model_of(&d, &m);
    assert_int_equal(mp_model_samples_total(&m), 10000);
    mp_timing_sentences(&m, 1.0, collect, &said);
    assert_int_equal(said.n, 1);
    assert_true(said.warn[0]);
    assert_non_null(strstr(said.text[0], "interrupts masked: 1.0 % of the time (102 periods of 10102) passed without a"
                                         " sample and are in no function"));
    said.n = 0;
    mp_model_free(&m);
    d.missed_periods = 101; /* 0.9999 %: at the threshold, said, not warned */
    model_of(&d, &m);
    mp_timing_sentences(&m, 1.0, collect, &said);
    assert_false(said.warn[0]);
    mp_model_free(&m);
    /* nothing measured them: nothing said (info says so instead) */
    said.n = 0;
    d.missed_source = 0;
    model_of(&d, &m);
    mp_timing_sentences(&m, 1.0, collect, &said);
    assert_int_equal(said.n, 0);
    mp_model_free(&m);
}

/* N for the error bars: the samples taken, not the periods charged. */
static void interval_over_samples(void **s)
{
    struct tb_image d;
    struct mp_model m;
    struct mp_time_seen t;
    double lo, hi, wlo, whi;

    (void)s;
    charged_image(&d);
    model_of(&d, &m);
    /* crit_section: 2464 of 3900 periods, measured by 3420 samples */
    mp_model_interval(&m, 2464, 3900, &lo, &hi);
    mp_wilson(2464.0 * 3420 / 3900, 3420, &wlo, &whi);
    assert_true(lo == wlo && hi == whi);
    mp_wilson(2464, 3900, &wlo, &whi);
    assert_true(hi - lo > whi - wlo);
    mp_model_time_seen(&m, &t);
    assert_int_equal(t.taken, 3900);
    assert_int_equal(t.charged, 480);
    assert_int_equal(t.draws, 3420);
    assert_false(t.taken_derived);
    mp_model_free(&m);
}

/* ---- JSON and the sum of snapshots ----------------------------------- */

static char *to_json(const struct mp_model *m)
{
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);

    assert_non_null(f);
    assert_int_equal(mp_format_check(&mp_format_json, m), 0);
    assert_int_equal(mp_format_json.write(m, f), 0);
    assert_int_equal(fclose(f), 0);
    return out;
}

/* The document A with FROM replaced by TO is refused with WANT. */
static void json_refused(const char *a, const char *from, const char *to, const char *want)
{
    const char *p = strstr(a, from);
    char *doc = malloc(strlen(a) + strlen(to) + 1);
    struct mp_model back;

    assert_non_null(p);
    assert_non_null(doc);
    sprintf(doc, "%.*s%s%s", (int)(p - a), a, to, p + strlen(from));
    mp_diag_reset();
    assert_int_equal(mp_model_from_json(&back, "t.json", (const uint8_t *)doc, strlen(doc)), -1);
    if (!strstr(mp_last_error(), want))
        fail_msg("\"%s\" does not say \"%s\"", mp_last_error(), want);
    free(doc);
}

/* A change to a document and what its refusal must say. */
struct json_change {
    const char *from, *to, *want;
};

/* Each of the N changes to the document A is refused. */
static void json_refuses_each(const char *a, const struct json_change *bad, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        json_refused(a, bad[i].from, bad[i].to, bad[i].want);
}

/* The model of the document A, into BACK. */
static void from_json(struct mp_model *back, const char *a)
{
    if (mp_model_from_json(back, "t.json", (const uint8_t *)a, strlen(a)) != 0)
        fail_msg("%s", mp_last_error());
}

/* BACK, read from the document A, writes A again to the byte; then it is
 * freed. */
static void writes_again(struct mp_model *back, const char *a)
{
    char *b = to_json(back);

    assert_string_equal(a, b);
    free(b);
    mp_model_free(back);
}

static void json_round_trip(void **s)
{
    struct tb_image d;
    struct mp_model m, back;
    char *a;

    (void)s;
    charged_image(&d);
    model_of(&d, &m);
    a = to_json(&m);
    assert_non_null(strstr(a, "\"timing_flags\": 7,"));
    assert_non_null(strstr(a, "\"deferred_samples\": 1230"));
    assert_non_null(strstr(a, "\"samples_total\": 3900"));
    assert_non_null(strstr(a, "{\"pc\": \"0x1014\", \"samples\": 300, \"missed\": 464}"));
    assert_null(strstr(a, "\"looks\""));
    assert_null(strstr(a, "\"held\""));
    assert_non_null(strstr(a, "{\"source\": 268435477, \"name\": \"IRQ 5\", \"priority\": 0, \"sampler_priority\": 0,"
                              " \"flags\": [\"blocking\"]}"));
    from_json(&back, a);
    assert_int_equal(back.c.deferred_samples, 1230);
    assert_int_equal(back.nlate, 2);
    assert_int_equal(back.late[1].missed, 16);
    assert_int_equal(back.blockers[0].source, ARM_IRQ(5));
    writes_again(&back, a);
    /* refused: a pc of 0, a source of no interrupt, a flag without a name */
    {
        static const struct json_change bad[] = {
            {"\"pc\": \"0x1014\"", "\"pc\": \"0x0\"", "late.entries[0].pc: 0 is no PC the sampler took"},
            {"\"source\": 268435477", "\"source\": 805306370", "blockers.entries[0].source: 0x30000002 is neither"},
            {"[\"blocking\"]", "[\"urgent\"]", "\"urgent\" is no blocker flag this mcuprof knows"},
            {"\"priority\": 0,", "\"priority\": 256,", "priority 256 or sampler_priority 0 is not a priority byte"},
        };

        json_refuses_each(a, bad, sizeof(bad) / sizeof(bad[0]));
    }
    free(a);
    mp_model_free(&m);
}

/* Two drained snapshots: late samples by pc, blockers by source (their
 * flags together), the deferred samples and the flags summed. */
static void sum_of_snapshots(void **s)
{
    static const struct tb_late later[] = {{0x1034, 5, 4}, {0x1040, 1, 0}};
    static const struct tb_blocker changed[] = {{ARM_IRQ(5), 0x00, 0x00, 2}, {ARM_IRQ(7), 0x00, 0x00, 1}};
    struct tb_image d;
    struct mp_sum sum;
    uint8_t *data;
    size_t len;
    struct mp_model m;

    (void)s;
    mp_sum_init(&sum);
    charged_image(&d);
    assert_int_equal(parse(&d), 0);
    assert_int_equal(mp_sum_add(&sum, &img), 0);
    d.late = later;
    d.blockers = changed;
    d.nblockers = 2;
    d.deferred_samples = 10;
    d.missed_periods = 480;
    assert_int_equal(parse(&d), 0);
    assert_int_equal(mp_sum_add(&sum, &img), 0);
    assert_int_equal(mp_sum_image(&sum, &data, &len), 0);
    mp_diag_reset();
    assert_int_equal(mp_image_parse(&img, "sum", data, len), 0);
    assert_int_equal(mp_model_from_image(&m, &img), 0);
    assert_int_equal(m.c.timing_flags, 7);
    assert_int_equal(m.c.deferred_samples, 1240);
    assert_int_equal(m.c.missed_periods, 960);
    assert_int_equal(m.nlate, 3);
    assert_int_equal(m.late[1].pc, 0x1034);
    assert_int_equal(m.late[1].samples, 25);
    assert_int_equal(m.late[1].missed, 20);
    assert_int_equal(m.nblockers, 2);
    assert_int_equal(m.blockers[0].flags, 3);
    assert_int_equal(m.blockers[1].source, ARM_IRQ(7));
    mp_model_free(&m);
    free(data);
    mp_sum_free(&sum);
}


/* ---- samples held off by a handler ----------------------------------- */

/* charged_image with 180 late samples held off by IRQ 5 (binned nowhere,
 * taken from uart_flush's bin) after 60 missed periods: 540 missed in
 * all, 480 of them charged; 400 samples deferred (the late ones: 320
 * charged, 180 held off, 100 of them after missed periods). The bins
 * hold 3420 - 180 + 480 = 3720; all the time is 3420 + 540 = 3960. */
static void held_image(struct tb_image *d)
{
    charged_image(d);
    bins[3] -= 180;
    d->missed_periods = 540;
    d->deferred_samples = 400;
    d->has_held = 1;
    d->held = (struct tb_held){180, 60, 320, 9};
}

static void reads_held(void **s)
{
    struct tb_image d;
    struct mp_model m;
    struct mp_time_seen t;
    double lo, hi, wlo, whi;

    (void)s;
    held_image(&d);
    assert_int_equal(parse(&d), 0);
    assert_int_equal(mp_warning_count(), 0);
    assert_true(img.held >= 0);
    assert_int_equal(img.ext[img.held].offset, tb_held_offset(&d));
    assert_int_equal(img.held_entry.samples, 180);
    assert_int_equal(img.held_entry.periods, 60);
    assert_int_equal(img.held_entry.threshold, 320);
    assert_int_equal(img.held_entry.scans, 9);
    assert_int_equal(mp_image_bin_bound(&img), 3720);
    model_of(&d, &m);
    /* the shares are of the time the sampler could see: what the bins hold */
    mp_model_time_seen(&m, &t);
    assert_int_equal(t.taken, 3720);
    assert_int_equal(t.charged, 480);
    assert_int_equal(t.draws, 3240);
    assert_false(t.taken_derived);
    assert_string_equal(mp_time_seen_what(&t, 180),
                        "samples_taken less the samples held off, plus the missed periods charged to the bins");
    assert_true(m.has_held);
    assert_int_equal(m.held.samples, 180);
    assert_int_equal(m.held.periods, 60);
    assert_int_equal(m.held.threshold, 320);
    assert_int_equal(m.held.scans, 9);
    assert_int_equal(mp_model_charged(&m), 480);
    assert_int_equal(mp_model_samples_total(&m), 3720);
    /* N: the 3240 samples binned, not the 3720 periods they stand for */
    mp_model_interval(&m, 2464, 3720, &lo, &hi);
    mp_wilson(2464.0 * 3240 / 3720, 3240, &wlo, &whi);
    assert_true(lo == wlo && hi == whi);
    mp_model_free(&m);
    /* one more sample in the bins than the sampler could see */
    held_image(&d);
    bins[3]++;
    REFUSED(&d, "the histogram's bins hold 3721 samples but samples_taken is 3420 less the samples held off plus"
                " the missed periods charged to the bins: the image is inconsistent");
}

static void refuses_bad_held_table(void **s)
{
    struct tb_image d;
    char want[240];
    size_t off, late_off, n;

    (void)s;
    held_image(&d);
    off = tb_held_offset(&d);
    late_off = tb_late_offset(&d);
    d.held.samples = 3421;
    snprintf(want, sizeof(want), "held-off table at 0x%zx: 3421 samples held off but samples_taken is 3420: the"
                                 " image is inconsistent", off);
    REFUSED(&d, want);
    held_image(&d);
    d.held.periods = 541;
    snprintf(want, sizeof(want), "held-off table at 0x%zx: 541 periods missed before samples held off but"
                                 " missed_periods is 540: the image is inconsistent", off);
    REFUSED(&d, want);
    held_image(&d);
    d.held.samples = 0;
    snprintf(want, sizeof(want), "held-off table at 0x%zx: 60 periods missed before samples held off, but no"
                                 " sample: the image is inconsistent", off);
    REFUSED(&d, want);
    /* with the late-sample table: both count samples taken, periods missed */
    held_image(&d);
    d.late_lost = 2921;
    snprintf(want, sizeof(want), "the late-sample table at 0x%zx counts 3241 samples (lost 2921 included) and the"
                                 " held-off table at 0x%zx 180 more but samples_taken is 3420: the image is"
                                 " inconsistent", late_off, off);
    REFUSED(&d, want);
    held_image(&d);
    d.missed_periods = 539;
    snprintf(want, sizeof(want), "the late-sample table at 0x%zx charges 480 missed periods and the held-off table"
                                 " at 0x%zx holds 60 more but missed_periods is 539: the image is inconsistent",
             late_off, off);
    REFUSED(&d, want);
    /* the layout: one entry of 16 bytes */
    held_image(&d);
    n = build(&d);
    tb_put16(buf, off + TB_EXT_ENTRY_SIZE, 12, 0);
    assert_int_equal(mp_image_parse(&img, "t.img", buf, n), -1);
    snprintf(want, sizeof(want), "extension table kind 7 at 0x%zx: entry_size 12, expected 16", off);
    assert_non_null(strstr(mp_last_error(), want));
    n = build(&d);
    tb_put32(buf, off + TB_EXT_USED, 0, 0);
    assert_int_equal(mp_image_parse(&img, "t.img", buf, n), -1);
    snprintf(want, sizeof(want), "held-off table at 0x%zx: capacity 1, used 0, expected 1 and 1 (one entry)", off);
    assert_non_null(strstr(mp_last_error(), want));
    /* two of them */
    n = build(&d);
    tb_put16(buf, late_off + TB_EXT_KIND, TB_EXT_HELD, 0);
    assert_int_equal(mp_image_parse(&img, "t.img", buf, n), -1);
    /* odd but usable: a threshold of 0 */
    held_image(&d);
    d.held.threshold = 0;
    assert_int_equal(parse(&d), 0);
    assert_int_equal(mp_warning_count(), 1);
    snprintf(want, sizeof(want), "held-off table at 0x%zx: 180 samples held off with a deferral threshold of 0"
                                 " timer ticks", off);
    assert_non_null(strstr(mp_last_warning(), want));
}

static const char held_masked[] = "interrupts masked: 12.1 % of the time (480 periods of 3960), charged where they"
                                  " came back on: crit_section 11.7 %, uart_flush 0.4 %";
static const char held_deferred[] = "the sampler was late at 11.7 % of its samples (400 of 3420 deferred: late by"
                                    " at least 320 timer ticks, less than a period); of all its late samples,"
                                    " deferred or after missed periods, 320 came after interrupts were unmasked:"
                                    " charged there, and 180 were held off by a handler it cannot preempt: in no"
                                    " function";
static const char held_by_irq5[] = "held off by a handler the sampler cannot preempt: 6.1 % of the time (180 samples,"
                                   " 60 periods, late by at least 320 timer ticks) is in no function; the shares are"
                                   " of the time the sampler could see. Interrupts it cannot preempt: IRQ 5"
                                   " (exception 21) (9 looks)";

static void sentences_held(void **s)
{
    struct tb_image d;
    struct mp_model m;
    struct said said = {.n = 0};

    (void)s;
    held_image(&d);
    say_named(&d, &m, &said);
    assert_int_equal(said.n, 4);
    assert_string_equal(said.text[0], held_masked);
    assert_string_equal(said.text[1], held_deferred);
    assert_string_equal(said.text[2], held_by_irq5);
    assert_string_equal(said.text[3], "IRQ 5 (exception 21) is enabled at priority 0x00, as urgent as the sampler's"
                                      " (SysTick 0x00): SysTick cannot preempt its handler, whose time is in no"
                                      " function (the sample after it is held off, binned nowhere). Give it a less"
                                      " urgent priority, e.g. NVIC_SetPriority(5, 1)");
    assert_true(said.warn[0] && said.warn[1] && said.warn[2] && said.warn[3]);
    /* 6.1 % is below a warning at 10 %, 12.1 % above */
    said.n = 0;
    mp_timing_sentences(&m, 10.0, collect, &said);
    assert_true(said.warn[0] && said.warn[1] && !said.warn[2]);
    mp_model_free(&m);
}

/* Held off with no blocker found: what else could hold the sampler off. */
static void sentences_held_no_blocker(void **s)
{
    struct tb_image d;
    struct mp_model m;
    struct said said = {.n = 0};

    (void)s;
    held_image(&d);
    d.nblockers = 0;
    d.held.scans = 1;
    say_named(&d, &m, &said);
    assert_int_equal(said.n, 3);
    assert_string_equal(said.text[2], "held off by a handler the sampler cannot preempt: 6.1 % of the time (180"
                                      " samples, 60 periods, late by at least 320 timer ticks) is in no function; the"
                                      " shares are of the time the sampler could see. No interrupt it cannot preempt"
                                      " was found (1 look): it could be a handler not in the NVIC scan (a fault,"
                                      " SVCall or PendSV at SysTick's priority) or FAULTMASK, or the sampler's own"
                                      " interrupt when two samples fall due close together (builds with call paths"
                                      " or contexts at high rates): raise the rate's period (a lower rate) or build"
                                      " without MCUPROF_CFG_PATHS and MCUPROF_CFG_CONTEXTS");
    mp_model_free(&m);
    d.machine = 243;
    said.n = 0;
    say_named(&d, &m, &said);
    assert_non_null(strstr(said.text[2], "was found (1 look): it could be an exception's trap handler (it runs with"
                                         " interrupts masked and is no interrupt in mie), or the sampler's own"
                                         " interrupt"));
    mp_model_free(&m);
}

static void held_in_json_and_sums(void **s)
{
    struct tb_image d;
    struct mp_model m, back;
    struct mp_sum sum;
    uint8_t *data;
    size_t len;
    char *a;

    (void)s;
    held_image(&d);
    model_of(&d, &m);
    a = to_json(&m);
    assert_non_null(strstr(a, "\"samples_total\": 3720"));
    assert_non_null(strstr(a, "\"held\": {\"samples\": 180, \"periods\": 60, \"threshold\": 320, \"scans\": 9}"));
    from_json(&back, a);
    assert_true(back.has_held);
    assert_int_equal(back.held.periods, 60);
    assert_int_equal(mp_model_samples_total(&back), 3720);
    writes_again(&back, a);
    {
        static const struct json_change bad[] = {
            {"\"samples\": 180, \"periods\": 60", "\"samples\": 0, \"periods\": 60",
             "held: 60 periods missed before samples held off, but no sample"},
            {"\"samples\": 180, \"periods\": 60", "\"samples\": 3421, \"periods\": 60",
             "held: 3421 samples and 60 periods, but counters.samples_taken is 3420 and missed_periods 540"},
            {"\"threshold\": 320, ", "", "held has no member 'threshold'"},
        };

        json_refuses_each(a, bad, sizeof(bad) / sizeof(bad[0]));
    }
    free(a);
    mp_model_free(&m);
    /* two drained snapshots: samples, periods and looks add up; another
     * threshold is said, the first kept */
    mp_sum_init(&sum);
    assert_int_equal(parse(&d), 0);
    assert_int_equal(mp_sum_add(&sum, &img), 0);
    d.held.threshold = 640;
    assert_int_equal(parse(&d), 0);
    assert_int_equal(mp_sum_add(&sum, &img), 0);
    assert_int_equal(mp_warning_count(), 1);
    assert_non_null(strstr(mp_last_warning(), "its deferral threshold is 640 timer ticks, an earlier snapshot's 320"
                                               " (the sampler's rate changed): the sum keeps 320"));
    assert_int_equal(mp_sum_image(&sum, &data, &len), 0);
    mp_diag_reset();
    if (mp_image_parse(&img, "sum", data, len) != 0)
        fail_msg("%s", mp_last_error());
    assert_int_equal(mp_model_from_image(&m, &img), 0);
    assert_int_equal(m.held.samples, 360);
    assert_int_equal(m.held.periods, 120);
    assert_int_equal(m.held.threshold, 320);
    assert_int_equal(m.held.scans, 18);
    assert_int_equal(mp_model_samples_total(&m), 7440);
    mp_model_free(&m);
    free(data);
    mp_sum_free(&sum);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reads_timing),
        cmocka_unit_test(reads_older_image),
        cmocka_unit_test(bins_bound_by_charged_periods),
        cmocka_unit_test(refuses_bad_late_table),
        cmocka_unit_test(refuses_bad_blocker_table),
        cmocka_unit_test(header_words),
        cmocka_unit_test(sentences),
        cmocka_unit_test(sentences_partial),
        cmocka_unit_test(sentences_riscv_and_clock),
        cmocka_unit_test(sentences_deferred_only),
        cmocka_unit_test(sentences_uncharged),
        cmocka_unit_test(interval_over_samples),
        cmocka_unit_test(json_round_trip),
        cmocka_unit_test(sum_of_snapshots),
        cmocka_unit_test(reads_held),
        cmocka_unit_test(refuses_bad_held_table),
        cmocka_unit_test(sentences_held),
        cmocka_unit_test(sentences_held_no_blocker),
        cmocka_unit_test(held_in_json_and_sums),
    };

    return cmocka_run_group_tests(tests, quiet, NULL);
}

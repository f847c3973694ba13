/*
 * timing_print.c - the sentences of timing.h: what the sampler could not
 * see, measured (missed periods, deferred samples), charged (where the
 * late samples landed after interrupts were unmasked, named from the
 * ELF), held off (late samples a handler it cannot preempt delayed,
 * binned nowhere) and named (the interrupts it cannot preempt), and
 * plainly what a core cannot measure.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "diag.h"
#include "sort.h"
#include "text_safe.h"
#include "timing.h"

/* Places named in the sentence of the missed periods; the rest summed. */
#define CHARGES_SHOWN 5

struct line {
    char s[1024];
    size_t len;
};

static void add(struct line *l, const char *fmt, ...) MP_PRINTF(2, 3);
static void add(struct line *l, const char *fmt, ...)
{
    va_list ap;
    int n;

    if (l->len >= sizeof(l->s) - 1)
        return;
    va_start(ap, fmt);
    n = vsnprintf(l->s + l->len, sizeof(l->s) - l->len, fmt, ap);
    va_end(ap);
    if (n > 0)
        l->len += (size_t)n < sizeof(l->s) - l->len ? (size_t)n : sizeof(l->s) - 1 - l->len;
}

static double pct(double part, double whole)
{
    return whole > 0.0 ? 100.0 * part / whole : 0.0;
}

const char *mp_timing_flag_names(unsigned flags, char *buf, size_t size)
{
    static const struct {
        unsigned bit;
        const char *name;
    } bits[] = {
        {MCUPROF_TIMING_DEFERRED, "deferred"},   {MCUPROF_TIMING_CHARGED, "charged"},
        {MCUPROF_TIMING_BLOCKERS, "blockers"},   {MCUPROF_TIMING_CLOCK_STALLED, "clock stalled"},
        {MCUPROF_TIMING_CLOCK_JUMPED, "clock jumped"},
    };
    size_t len = 0, i;

    buf[0] = '\0';
    for (i = 0; i < sizeof(bits) / sizeof(bits[0]); i++) {
        if ((flags & bits[i].bit) && len < size)
            len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? ", " : "", bits[i].name);
    }
    if (!len)
        snprintf(buf, size, "none");
    return buf;
}

/* ---- where the missed periods were charged --------------------------- */

/* The charge of one place: a function (with the ELF) or a PC. */
struct charge {
    long fn;     /* function index, -1: none (or no ELF) */
    uint64_t pc; /* the PC when fn is -1 */
    uint64_t n;  /* missed periods, or late samples */
};

static int cmp_place(const void *a, const void *b)
{
    const struct charge *x = a, *y = b;

    if (x->fn != y->fn)
        return x->fn < y->fn ? -1 : 1;
    return x->fn >= 0 ? 0 : x->pc < y->pc ? -1 : x->pc > y->pc;
}

static int cmp_missed_desc(const void *a, const void *b)
{
    const struct charge *x = a, *y = b;

    if (x->n != y->n)
        return x->n < y->n ? 1 : -1;
    return cmp_place(a, b);
}

/* The late entries' missed periods (SAMPLES 0) or late samples
 * (SAMPLES 1), one per function (or PC), most first, places without any
 * left out. Returns how many; -1 on OOM. */
static long charges_by_place(const struct mp_model *m, int samples, struct charge **out)
{
    struct charge *c;
    size_t i, n = 0, k;

    *out = NULL;
    if (!(c = malloc((m->nlate ? m->nlate : 1) * sizeof(*c))))
        return mp_error(m->name, "out of memory naming %zu late-sample places", m->nlate);
    for (i = 0; i < m->nlate; i++) {
        uint64_t v = samples ? m->late[i].samples : m->late[i].missed;

        if (!v)
            continue;
        c[n].fn = m->nfuncs ? mp_model_find_func(m, m->late[i].pc) : -1;
        c[n].pc = c[n].fn >= 0 ? 0 : m->late[i].pc;
        c[n++].n = v;
    }
    mp_sort(c, n, sizeof(*c), cmp_place);
    for (i = 0, k = 0; i < n; i++) {
        if (k && cmp_place(&c[k - 1], &c[i]) == 0)
            c[k - 1].n += c[i].n;
        else
            c[k++] = c[i];
    }
    mp_sort(c, k, sizeof(*c), cmp_missed_desc);
    *out = c;
    return (long)k;
}

static void place_name(const struct mp_model *m, const struct charge *c, struct line *l)
{
    if (c->fn >= 0)
        add(l, "%s", m->funcs[c->fn].name);
    else if (m->nfuncs)
        add(l, "0x%" PRIx64 " (in no function)", c->pc);
    else
        add(l, "0x%" PRIx64, c->pc);
}

/* ": place share, place share, ..." of the late entries' missed periods
 * (SAMPLES 0) or late samples (SAMPLES 1), each as a percentage of
 * WHOLE; then what the table has no room for (UNLISTED of the TOTAL). */
static void list_places(const struct mp_model *m, struct line *l, int samples, uint64_t whole, uint64_t total)
{
    struct charge *c;
    uint64_t listed = 0, rest = 0;
    long n, i;

    if ((n = charges_by_place(m, samples, &c)) < 0)
        return;
    add(l, ":");
    for (i = 0; i < n; i++) {
        listed += c[i].n;
        if (i < CHARGES_SHOWN) {
            add(l, "%s ", i ? "," : "");
            place_name(m, &c[i], l);
            add(l, " %.1f %%", pct((double)c[i].n, (double)whole));
        } else {
            rest += c[i].n;
        }
    }
    if (n > CHARGES_SHOWN)
        add(l, ", %ld more places %.1f %%", n - CHARGES_SHOWN, pct((double)rest, (double)whole));
    if (listed < total)
        add(l, "%s %" PRIu64 " %s at places the late-sample table had no room for", n ? "," : "", total - listed,
            samples ? "samples" : "periods");
    free(c);
}

static void say_charged(const struct mp_model *m, struct line *l, uint64_t periods)
{
    if (!m->has_late) {
        add(l, ", charged to the bins where they came back on (the runtime kept no late-sample table to name"
               " the places)");
        return;
    }
    add(l, ", charged where they came back on");
    list_places(m, l, 0, periods, mp_model_charged(m));
}

/* Every sampler period: samples taken (held off included) and missed. */
static uint64_t all_periods(const struct mp_model *m)
{
    return m->c.samples_taken + m->c.missed_periods;
}

/* The missed periods charged to the bins (or, without that, all of
 * them); those before samples held off are said by say_held. */
static void say_missed(const struct mp_model *m, double warn_pct, mp_timing_say *say, void *ctx)
{
    uint64_t periods = all_periods(m);
    int charged = (m->c.timing_flags & MCUPROF_TIMING_CHARGED) != 0;
    uint64_t masked = charged ? mp_model_charged(m) : m->c.missed_periods;
    double share = pct((double)masked, (double)periods);
    struct line l = {.len = 0};

    /* an older image whose core measured nothing says so elsewhere */
    if (!masked || (m->c.missed_source == MCUPROF_MISSED_NONE && !charged))
        return;
    add(&l, "interrupts masked: %.1f %% of the time (%" PRIu64 " periods of %" PRIu64 "%s)", share, masked, periods,
        m->c.missed_periods >= UINT32_MAX ? ", saturated: at least" : "");
    if (charged)
        say_charged(m, &l, periods);
    else
        add(&l, " passed without a sample and are in no function: code that runs with interrupts masked or in"
                " a handler the sampler cannot preempt is under-counted by that much; shorten those sections or"
                " raise the sampler's priority");
    say(ctx, share > warn_pct, l.s);
}

/* Late samples the late-sample table counts (its lost included): those
 * charged where interrupts were unmasked. The same sum as the context and
 * task totals (context_print.c), written again because each table's rows
 * are a struct of their own. */
static uint64_t late_charged(const struct mp_model *m)
{
    uint64_t n = m->late_lost;
    size_t i;

    for (i = 0; i < m->nlate; i++)
        n += m->late[i].samples;
    return n;
}

static void say_deferred(const struct mp_model *m, double warn_pct, mp_timing_say *say, void *ctx)
{
    double share = pct((double)m->c.deferred_samples, (double)m->c.samples_taken);
    struct line l = {.len = 0};

    if (!(m->c.timing_flags & MCUPROF_TIMING_DEFERRED) || !m->c.deferred_samples)
        return;
    if (!m->has_held) {
        /* an older runtime charged every late sample */
        add(&l, "the sampler was held off at %.1f %% of its samples (%" PRIu64 " of %" PRIu64 " deferred by less"
                " than a period): masked interrupts or a handler it cannot preempt; those samples are charged to"
                " where it could run again",
            share, m->c.deferred_samples, m->c.samples_taken);
    } else {
        add(&l, "the sampler was late at %.1f %% of its samples (%" PRIu64 " of %" PRIu64 " deferred: late"
                " by at least %" PRIu32 " timer ticks, less than a period)",
            share, m->c.deferred_samples, m->c.samples_taken, m->held.threshold);
        if (m->has_late)
            add(&l, "; of all its late samples, deferred or after missed periods, %" PRIu64 " came after"
                    " interrupts were unmasked: charged there, and %" PRIu64 " were held off by a handler it"
                    " cannot preempt: in no function",
                late_charged(m), m->held.samples);
        else
            add(&l, "; of all its late samples, deferred or after missed periods, %" PRIu64 " were held off by a"
                    " handler it cannot preempt (in no function), the others came after interrupts were unmasked:"
                    " charged there",
                m->held.samples);
    }
    /* where: the late samples (deferred, or after missed periods) by
     * place, named where the core cannot count missed periods */
    if (m->has_late && !(m->c.timing_flags & MCUPROF_TIMING_CHARGED)) {
        add(&l, "; late samples, as a share of all samples");
        list_places(m, &l, 1, m->c.samples_taken, 0);
    }
    say(ctx, share > warn_pct, l.s);
}

/* What the core cannot measure, and a clock that had to be dropped. */
static void say_clock(const struct mp_model *m, double warn_pct, mp_timing_say *say, void *ctx)
{
    const char *source = mp_missed_source_name(m->c.missed_source);
    unsigned flags = m->c.timing_flags;
    struct line l = {.len = 0};

    if (m->c.missed_source == MCUPROF_MISSED_NONE && (flags & MCUPROF_TIMING_DEFERRED)) {
        add(&l, "missed periods are not measurable on this core (no clock beside the sampler's timer, as on a"
                " Cortex-M0 with SysTick alone; register one with mcuprof_sampler_set_clock), but deferrals"
                " are: a sample held off by less than a period is counted and charged where the sampler could"
                " run again, a whole period masked passes without a trace, so code masked for longer than a"
                " period is under-counted by an amount nothing measured");
        say(ctx, m->c.deferred_samples && pct((double)m->c.deferred_samples, (double)m->c.samples_taken) > warn_pct,
            l.s);
    }
    if ((flags & MCUPROF_TIMING_CLOCK_STALLED) && m->c.missed_source == MCUPROF_MISSED_NONE) {
        l.len = 0;
        add(&l, "the clock registered to measure the sampler's lateness (mcuprof_sampler_set_clock) did not"
                " advance when the sampler started and was not used: register one that counts at the"
                " sampler timer's rate");
        say(ctx, 1, l.s);
    } else if (flags & (MCUPROF_TIMING_CLOCK_STALLED | MCUPROF_TIMING_CLOCK_JUMPED)) {
        l.len = 0;
        add(&l, "the clock that measured the sampler's lateness (%s) %s and was dropped: missed periods after"
                " that are not counted, and code masked after it is under-counted",
            source ? source : "?",
            flags & MCUPROF_TIMING_CLOCK_STALLED
                ? "stalled (it did not advance between two ticks)"
                : "jumped (it went backwards or ran ahead of the sampler's timer: wrapped, or at another rate)");
        if ((flags & MCUPROF_TIMING_CLOCK_STALLED) && (flags & MCUPROF_TIMING_CLOCK_JUMPED))
            add(&l, " (it had jumped too)");
        say(ctx, 1, l.s);
    }
}

/* The architecture of a blocker's SOURCE: the readers accept no other
 * kind than an architecture's interrupts (timing_read.c, json_read.c). */
static const struct mp_arch *interrupt_arch(uint32_t source)
{
    const struct mp_arch *a = mp_arch_of_interrupt(source);

    return a ? a : mp_arch_at(0);
}

/* "IRQ 5 (exception 21)", "PendSV (exception 14)", "machine external
 * interrupt (mcause 11)". */
static void blocker_name(const struct mp_model *m, uint32_t source, struct line *l)
{
    char name[64];
    unsigned n = source & MCUPROF_CTX_NUMBER_Msk;

    mp_context_name(m->machine, source, name, sizeof(name));
    add(l, "%s (%s %u)", name, interrupt_arch(source)->interrupt_number, n);
}

/* Where the time of a handler the sampler cannot preempt goes. */
static const char *handler_time(const struct mp_model *m)
{
    return m->has_held ? "in no function (the sample after it is held off, binned nowhere)"
                       : "charged to the code it interrupted";
}

/* Its name, why the sampler cannot preempt it and what to do. */
static void say_blocker(const struct mp_model *m, const struct mp_model_blocker *b, struct line *l)
{
    struct mp_arch_blocker ab = {
        .number = b->source & MCUPROF_CTX_NUMBER_Msk,
        .priority = b->priority,
        .sampler_priority = b->sampler_priority,
        .changed = (b->flags & MCUPROF_BLOCKER_SEEN_PREEMPTIBLE) != 0,
        .handler_time = handler_time(m),
    };
    char advice[sizeof(l->s)];

    blocker_name(m, b->source, l);
    interrupt_arch(b->source)->blocker_advice(&ab, advice, sizeof(advice));
    add(l, "%s", advice);
}

/* " (9 looks)": how often the runtime looked for blockers. */
static void add_looks(const struct mp_model *m, struct line *l)
{
    add(l, " (%" PRIu64 " look%s)", m->held.scans, m->held.scans == 1 ? "" : "s");
}

static void say_blockers(const struct mp_model *m, mp_timing_say *say, void *ctx)
{
    struct line l;
    size_t i;

    for (i = 0; i < m->nblockers; i++) {
        const struct mp_model_blocker *b = &m->blockers[i];

        l.len = 0;
        l.s[0] = '\0';
        say_blocker(m, b, &l);
        say(ctx, 1, l.s);
    }
    l.len = 0;
    if (m->blockers_lost) {
        add(&l, "the blocker table was full: %" PRIu64 " more interrupts the sampler cannot preempt were seen and"
                " are not named; give it more entries (MCUPROF_CFG_BLOCKERS)",
            m->blockers_lost);
        say(ctx, 1, l.s);
    } else if (m->has_blockers && !m->nblockers) {
        if (m->held.samples)
            return; /* said with the samples held off (say_held) */
        add(&l, "no interrupt was found enabled at a priority the sampler cannot preempt");
        if (m->has_held)
            add_looks(m, &l);
        say(ctx, 0, l.s);
    }
}

/* The interrupts the sampler cannot preempt, named in a list. */
static void list_blockers(const struct mp_model *m, struct line *l)
{
    size_t i;

    for (i = 0; i < m->nblockers; i++) {
        add(l, "%s", i ? ", " : "");
        blocker_name(m, m->blockers[i].source, l);
    }
}

/* What else holds the sampler off when no blocker was found. */
static void say_other_holders(const struct mp_model *m, struct line *l)
{
    const struct mp_arch *a = mp_arch_of(m->machine);

    /* an unknown machine is described as the table's first, Cortex-M */
    add(l, "%s", (a ? a : mp_arch_at(0))->held_off_by);
    add(l, ", or the sampler's own interrupt when two samples fall due close together (builds with call paths or"
           " contexts at high rates): raise the rate's period (a lower rate) or build without MCUPROF_CFG_PATHS"
           " and MCUPROF_CFG_CONTEXTS");
}

/* The late samples held off by a handler the sampler cannot preempt,
 * binned nowhere, with the periods missed before them: their share of
 * all the time, and who could have held it off. */
static void say_held(const struct mp_model *m, double warn_pct, mp_timing_say *say, void *ctx)
{
    uint64_t periods = all_periods(m), unseen = m->held.samples + m->held.periods;
    double share = pct((double)unseen, (double)periods);
    struct line l = {.len = 0};

    if (!m->has_held || !m->held.samples)
        return;
    add(&l, "held off by a handler the sampler cannot preempt: %.1f %% of the time (%" PRIu64 " samples, %" PRIu64
            " periods, late by at least %" PRIu32 " timer ticks) is in no function; the shares are of the time"
            " the sampler could see",
        share, m->held.samples, m->held.periods, m->held.threshold);
    if (m->nblockers) {
        add(&l, ". Interrupts it cannot preempt: ");
        list_blockers(m, &l);
        if (m->blockers_lost)
            add(&l, " and %" PRIu64 " more", m->blockers_lost);
        add_looks(m, &l);
    } else {
        add(&l, ". No interrupt it cannot preempt was %s",
            m->has_blockers || (m->c.timing_flags & MCUPROF_TIMING_BLOCKERS) ? "found" : "looked for");
        add_looks(m, &l);
        add(&l, ": ");
        if (m->blockers_lost)
            add(&l, "the blocker table was full; ");
        add(&l, "it could be ");
        say_other_holders(m, &l);
    }
    say(ctx, share > warn_pct, l.s);
}

static void say_late_lost(const struct mp_model *m, double warn_pct, mp_timing_say *say, void *ctx)
{
    struct line l = {.len = 0};

    if (!m->late_lost)
        return;
    add(&l, "the late-sample table was full for %" PRIu64 " late samples: where they landed is not listed"
            " (their periods are still charged to their bins); give it more entries (MCUPROF_CFG_LATE)",
        m->late_lost);
    say(ctx, pct((double)m->late_lost, (double)m->c.samples_taken) > warn_pct, l.s);
}

void mp_timing_sentences(const struct mp_model *m, double warn_pct, mp_timing_say *say, void *ctx)
{
    say_missed(m, warn_pct, say, ctx);
    say_deferred(m, warn_pct, say, ctx);
    say_held(m, warn_pct, say, ctx);
    say_clock(m, warn_pct, say, ctx);
    say_blockers(m, say, ctx);
    say_late_lost(m, warn_pct, say, ctx);
}

/* ---- the block of info and report, the warnings ---------------------- */

static void print_sentence(void *ctx, int warn, const char *s)
{
    (void)warn;
    fprintf(ctx, "  - %s\n", mp_esc(s)); /* it names functions */
}

#define LABEL "  %-28s "

void mp_print_timing(FILE *f, const struct mp_model *m)
{
    char flags[96];

    if (!m->c.timing_flags && !m->c.missed_periods && !m->has_late && !m->has_blockers && !m->held.samples)
        return;
    fprintf(f, "sampler timing\n");
    fprintf(f, LABEL "0x%04x (%s)\n", "timing_flags", m->c.timing_flags,
            mp_timing_flag_names(m->c.timing_flags, flags, sizeof(flags)));
    if (m->c.timing_flags & MCUPROF_TIMING_DEFERRED)
        fprintf(f, LABEL "%" PRIu64 " (%.2f %% of samples)\n", "deferred_samples", m->c.deferred_samples,
                pct((double)m->c.deferred_samples, (double)m->c.samples_taken));
    else
        fprintf(f, LABEL "not measured\n", "deferred_samples");
    if (m->has_late)
        fprintf(f, LABEL "%zu place%s, %" PRIu64 " late samples lost (table full)\n", "late samples", m->nlate,
                m->nlate == 1 ? "" : "s",
                m->late_lost);
    if (m->has_held)
        fprintf(f, LABEL "%" PRIu64 " samples, %" PRIu64 " periods (late by at least %" PRIu32 " timer ticks), %" PRIu64
                         " look%s for blockers\n",
                "held off", m->held.samples, m->held.periods, m->held.threshold, m->held.scans,
                m->held.scans == 1 ? "" : "s");
    if (m->has_blockers)
        fprintf(f, LABEL "%zu, %" PRIu64 " lost (table full)\n", "blockers", m->nblockers, m->blockers_lost);
    mp_timing_sentences(m, 100.0, print_sentence, f);
}

static void warn_sentence(void *ctx, int warn, const char *s)
{
    if (warn)
        mp_warn(((const struct mp_model *)ctx)->name, "%s", s);
}

void mp_timing_warn(const struct mp_model *m, double warn_pct)
{
    mp_timing_sentences(m, warn_pct, warn_sentence, (void *)m);
}

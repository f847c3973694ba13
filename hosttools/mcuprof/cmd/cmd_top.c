/*
 * cmd_top.c - `mcuprof top`: a live view of a running target. Every
 * interval it takes a snapshot of the image with the freeze handshake
 * (snapshot.h, as pull does without --reset), subtracts the last one
 * (model_since.h) and shows the functions by their share of that
 * interval and of the whole run, with exact calls per second: on a
 * terminal as a screen redrawn in place (top_screen.c, keys in
 * top_term.c), else as blocks of lines (top_batch.c). The target is
 * never drained unless asked (the r key twice, --reset-first).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "commands.h"
#include "cxx_demangle.h"
#include "diag.h"
#include "elf_funcs.h"
#include "interrupt.h"
#include "model_since.h"
#include "net.h"
#include "snapshot.h"
#include "target_open.h"
#include "top_batch.h"
#include "top_screen.h"
#include "top_term.h"
#include "top_view.h"
#include "trust.h"

#define INTERVAL_MIN 0.1
#define INTERVAL_MAX 3600.0
/* How long the screen says the link is lost before the terminal is
 * given back (a key ends it sooner). */
#define LOST_SHOW_MS 2000u

static void mp_help_top(FILE *f)
{
    fputs("Usage: mcuprof top ", f);
    mp_transports_usage(f);
    fputs(" --elf FILE [options]\n"
          "\n"
          "A live view of a running target: every interval, the functions by their\n"
          "share of the samples of that interval and of the whole run, each with its\n"
          "95 % interval, and their exact calls per second from the arcs. Each interval\n"
          "is one snapshot of the image minus the one before, taken with the freeze\n"
          "handshake pull uses: the target's counts are never drained unless asked.\n"
          "\n",
          f);
    mp_transports_help(f);
    fputs("  -e, --elf FILE           the firmware (required): its functions are the rows;\n"
          "                           the image lies between __mcuprof_start and\n"
          "                           __mcuprof_end, and its build-id must match\n"
          "      --force              despite a build-id or place mismatch, and take over a\n"
          "                           freeze another host holds (warnings)\n"
          "  -a, --address ADDR       the image's address, when the ELF lacks the symbols\n"
          "  -d, --interval SECONDS   the time between two snapshots (0.1 to 3600,\n"
          "                           default 1)\n"
          "  -b, --batch              blocks of lines instead of a screen, as on anything\n"
          "                           but a terminal (docs/top.md, \"Batch form\")\n"
          "      --count N            end after N intervals (default: at q or Ctrl-C)\n"
          "  -n, --lines N            at most N functions a block in the batch form\n"
          "                           (default: all)\n"
          "  -s, --sort KEY           self (default), calls or inclusive (the samples of\n"
          "                           the call paths a function is on: needs a firmware\n"
          "                           that records paths)\n"
          "      --reset-first        drain the target's counts at the first snapshot, so\n"
          "                           that the run starts from zero on the target too\n"
          "      --halt               stop the core for each snapshot instead of freezing\n"
          "                           the tables (a firmware whose sampler does not run)\n"
          "  -t, --timeout SECONDS    how long any one answer may take (0.01 to 3600,\n"
          "                           default 5); and the longest wait for the freeze\n"
          "      --deadline SECONDS   how long the connection, and each snapshot, may take\n"
          "                           (default 10 times --timeout)\n"
          "      --no-demangle        C++ names as the ELF spells them (not demangled)\n"
          MP_GROUP_CLONES_HELP
          "  -h, --help               this text\n"
          "\n"
          "Keys: q quit; s, c, i sort by self samples, calls, inclusive samples; t the\n"
          "rows show the last interval or the whole run; p or space pause (no snapshot\n"
          "is taken, the screen stays; the interval after the pause covers it); r twice\n"
          "drains the target's counts and starts the run over; Ctrl-L redraws.\n"
          "\n"
          "Shares are of the samples the sampler could see in the interval (or the\n"
          "run), as info and report count them, but for those lost while frozen;\n"
          "calls per second are the arcs' calls over the target's own time not\n"
          "frozen (the sampler's periods at its rate; the host's time when the image\n"
          "has no rate). Lost, missed, deferred and held-off samples and lost calls\n"
          "are named in the header, each freeze's own losses (lost_*_frozen)\n"
          "included. A drain or a reset of the target between two snapshots (its\n"
          "generation changed, a count went down) is said, and the interval starts\n"
          "over from the snapshot that found it.\n"
          "\n"
          "The terminal is given back as it was on every way out: q, --count, Ctrl-C,\n"
          "SIGTERM, SIGHUP, a lost link. A link that fails (the target or the server\n"
          "went away) is said on the screen, then in one error line; exit status 1.\n"
          "Ctrl-C, SIGTERM or SIGHUP end top with exit status 0, the target released.\n",
          f);
}

struct top_args {
    struct mp_target_args target;
    double interval;
    unsigned long count;     /* 0: no end */
    unsigned lines;          /* 0: all */
    int batch, reset_first, halt;
    enum top_sort sort;
};

static int parse_count(const char *opt, const char *s, unsigned long max, unsigned long *v)
{
    char *end;

    errno = 0;
    *v = strtoul(s, &end, 10);
    if (end == s || *end || errno || *v == 0 || *v > max || s[0] == '-')
        return mp_error(NULL, "top: %s '%s' is not a number from 1 to %lu", opt, s, max);
    return 0;
}

static int parse_sort(const char *s, enum top_sort *sort)
{
    if (strcmp(s, "self") == 0)
        *sort = TOP_SORT_SELF;
    else if (strcmp(s, "calls") == 0)
        *sort = TOP_SORT_CALLS;
    else if (strcmp(s, "inclusive") == 0 || strcmp(s, "incl") == 0)
        *sort = TOP_SORT_INCL;
    else
        return mp_error(NULL, "top: --sort '%s' is none of self, calls, inclusive", s);
    return 0;
}

static int parse_args(int argc, char **argv, struct top_args *a)
{
    static const struct option fixed[] = {
        {"interval", required_argument, NULL, 'd'},
        {"batch", no_argument, NULL, 'b'},
        {"count", required_argument, NULL, 'C'},
        {"lines", required_argument, NULL, 'n'},
        {"sort", required_argument, NULL, 's'},
        {"reset-first", no_argument, NULL, 'R'},
        {"halt", no_argument, NULL, 'H'},
        MP_NO_DEMANGLE_LONGOPT,
        MP_GROUP_CLONES_LONGOPT,
        {"help", no_argument, NULL, 'h'},
    };
    struct option longopts[sizeof(fixed) / sizeof(fixed[0]) + MP_TARGET_NOPTS + 1];
    char *pos[1], shortopts[40];
    unsigned long v;
    int npos = 0, c, r;

    mp_target_longopts(longopts, fixed, sizeof(fixed) / sizeof(fixed[0]));
    mp_target_shortopts(shortopts, sizeof(shortopts), "e:a:d:bn:s:t:h");
    while ((c = mp_getopt(argc, argv, shortopts, longopts, pos, 1, &npos)) != -1) {
        if ((r = mp_target_option(&a->target, c, optarg)) != 0) {
            if (r < 0)
                return -1;
            continue;
        }
        switch (c) {
        case 'd':
            if (mp_parse_seconds_in("top", "--interval", optarg, INTERVAL_MIN, INTERVAL_MAX, &a->interval) < 0)
                return -1;
            break;
        case 'b': a->batch = 1; break;
        case 'C':
            if (parse_count("--count", optarg, 1000000000ul, &a->count) < 0)
                return -1;
            break;
        case 'n':
            if (parse_count("--lines", optarg, 1000000ul, &v) < 0)
                return -1;
            a->lines = (unsigned)v;
            break;
        case 's':
            if (parse_sort(optarg, &a->sort) < 0)
                return -1;
            break;
        case 'R': a->reset_first = 1; break;
        case 'H': a->halt = 1; break;
        case MP_OPT_NO_DEMANGLE: mp_demangle_enable(0); break;
        case MP_OPT_GROUP_CLONES: mp_model_set_clone_view(1); break;
        case 'h':
            mp_help_top(stdout);
            return 1;
        default:
            return -1;
        }
    }
    if (npos != 0)
        return mp_error(NULL, "top: unexpected argument '%s' (see 'mcuprof help top')", pos[0]);
    if (!a->target.elf)
        return mp_error(NULL, "top: give the firmware: --elf FILE (its functions are the rows)");
    return mp_target_finish(&a->target);
}

/* One run of top: the link, the snapshot the next interval starts
 * from, and what is shown. */
struct top_run {
    const struct top_args *a;
    struct mp_link *l;
    struct mp_target_image t;
    struct mp_functab ft;
    struct mp_model base;     /* the last snapshot (drained: as the drain left it) */
    uint64_t base_ms;         /* when it was taken */
    int has_paths;            /* the image records call paths */
    struct top_view v;
    int tty;
    int quit, drain_asked, redraw;
    int write_errno;          /* standard output failed (batch form) */
};

/* One snapshot into R->t, the core left running; quiet: a failure is
 * said once, by the caller. DRAIN: zero the target's counts after
 * reading (while frozen). */
static int snapshot(struct top_run *r, int drain)
{
    struct mp_pull_opts o = {r->a->halt, drain, r->a->target.timeout_ms, NULL, NULL, r->a->target.force};
    int ret;

    mp_target_start_deadline(&r->a->target);
    mp_diag_quiet(1);
    ret = mp_pull_snapshot(r->l, &r->t, &o);
    /* over the GDB protocol the core was stopped for the last access */
    if (ret == 0 && r->l->was_running && !r->l->running)
        ret = r->l->ops->resume(r->l);
    mp_diag_quiet(0);
    return ret;
}

/* The names of the ELF's functions, from a model of the first snapshot. */
static int first_names(struct top_run *r)
{
    struct mp_model m;
    const char **names;
    size_t i;
    int ret = -1;

    if (mp_model_from_image(&m, &r->t.img) < 0)
        return -1;
    r->has_paths = m.has_paths;
    if (mp_model_attach_functab(&m, &r->ft) == 0 && (names = calloc(m.nfuncs + 1, sizeof(*names)))) {
        for (i = 0; i < m.nfuncs; i++)
            names[i] = m.funcs[i].name;
        ret = top_view_init(&r->v, names, m.nfuncs);
        free(names);
    }
    mp_model_free(&m);
    return ret;
}

/* The next interval starts from the snapshot in R->t. */
static int rebase(struct top_run *r, int drained, uint64_t now)
{
    struct mp_model m;

    if (mp_model_from_image(&m, &r->t.img) < 0)
        return -1;
    if (drained)
        mp_model_drained(&m);
    mp_model_free(&r->base);
    r->base = m;
    r->base_ms = now;
    return 0;
}

/* Drop the last interval and the run: they start over. */
static void run_over(struct top_run *r)
{
    if (r->v.have_last)
        top_span_free(&r->v.last);
    r->v.have_last = 0;
    top_span_clear(&r->v.run);
}

/* The interval from R->base to the snapshot in R->t into the view, or
 * the event that makes it start over (*WHY). */
static int take_interval(struct top_run *r, uint64_t now, const char **why)
{
    static char text[240];
    struct mp_model m;
    struct top_span s;
    int k;

    *why = NULL;
    if (mp_model_from_image(&m, &r->t.img) < 0)
        return -1;
    k = mp_model_since(&m, &r->base);
    if (k == MP_SINCE_OK && mp_model_attach_functab(&m, &r->ft) == 0 &&
        top_span_from(&s, &m, (double)(now - r->base_ms) / 1000.0) == 0) {
        top_span_add(&r->v.run, &s);
        if (r->v.have_last)
            top_span_free(&r->v.last);
        r->v.last = s;
        r->v.have_last = 1;
    } else if (k == MP_SINCE_DRAINED || k == MP_SINCE_WENT_DOWN) {
        if (k == MP_SINCE_DRAINED)
            snprintf(text, sizeof(text),
                     "the target was drained between two snapshots (generation %" PRIu32 " to %" PRIu32
                     "): the interval starts over from this snapshot", r->base.c.generation, m.c.generation);
        else
            snprintf(text, sizeof(text), "counts went down between two snapshots (the firmware restarted, or "
                                         "was reset): the interval starts over from this snapshot");
        snprintf(r->v.event, sizeof(r->v.event), "interval %u: %.240s", r->v.number, text);
        r->v.note[0] = '\0'; /* the line says the newer of the two */
        *why = text;
        if (r->v.have_last)
            top_span_free(&r->v.last);
        r->v.have_last = 0;
    } else {
        mp_model_free(&m);
        return -1;
    }
    mp_model_free(&m);
    return 0;
}

/* A snapshot and its interval (DRAIN: the target drained after it, and
 * the run starts over). -1 when the snapshot failed, -2 when what it
 * read did (out of memory, another image layout: reported, on a
 * terminal only once it is given back). */
static int step(struct top_run *r, int drain)
{
    const char *why;
    uint64_t now;
    int ret;

    if (snapshot(r, drain) < 0)
        return -1;
    now = mp_now_ms();
    r->v.number++;
    r->v.when = time(NULL);
    mp_diag_quiet(r->tty);
    ret = take_interval(r, now, &why);
    mp_diag_quiet(0);
    if (ret < 0)
        return -2;
    if (!r->tty) {
        if (why)
            top_batch_restart(stdout, &r->v, why);
        else
            top_batch_block(stdout, &r->v, r->a->lines);
        /* a reader that went away (top --batch | head) ends the run */
        if (fflush(stdout) != 0 || ferror(stdout))
            r->write_errno = errno ? errno : EIO;
    }
    if (drain) {
        char when[32];

        run_over(r);
        top_time(r->v.when, when, sizeof(when));
        snprintf(r->v.event, sizeof(r->v.event), "drained the target's counts at %s (r): the run starts over",
                 when);
        r->v.note[0] = '\0';
    }
    mp_diag_quiet(r->tty);
    ret = rebase(r, drain, now);
    mp_diag_quiet(0);
    return ret < 0 ? -2 : 0;
}

static void key(struct top_run *r, int k)
{
    struct top_view *v = &r->v;
    int confirm = v->confirm_reset;

    v->confirm_reset = 0;
    v->note[0] = '\0';
    r->redraw = 1;
    switch (k) {
    case 'q': case 'Q': r->quit = 1; break;
    case 's': v->sort = TOP_SORT_SELF; break;
    case 'c': v->sort = TOP_SORT_CALLS; break;
    case 'i':
        if (r->has_paths)
            v->sort = TOP_SORT_INCL;
        else
            snprintf(v->note, sizeof(v->note), "no inclusive figures: this firmware records no call paths "
                                               "(mcuprof_instrument(... PATHS n), docs/paths.md)");
        break;
    case 't': v->show_run = !v->show_run; break;
    case 'p': case ' ': v->paused = !v->paused; break;
    case 'r':
        if (confirm)
            r->drain_asked = 1;
        else
            snprintf(v->note, sizeof(v->note), "r again drains the target's counts and starts the run over; "
                                               "any other key does not");
        v->confirm_reset = !confirm;
        break;
    default: break; /* Ctrl-L and the rest: a redraw */
    }
}

static void draw(struct top_run *r)
{
    unsigned rows, cols;

    top_term_size(&rows, &cols);
    top_screen_draw(&r->v, rows, cols);
    r->redraw = 0;
}

/* Until the next snapshot is due (DUE on mp_now_ms's clock): keys and
 * redraws on a terminal, a sleep otherwise. 1 when a signal or q ends
 * the run. */
static int wait_until(struct top_run *r, uint64_t due)
{
    uint64_t now;

    while ((now = mp_now_ms()) < due || r->v.paused) {
        unsigned ms = now < due ? (unsigned)(due - now) : 1000u;
        int k;

        if (!r->tty) {
            if (mp_sleep_ms(ms))
                return 1;
            continue;
        }
        if (r->redraw || top_term_changed())
            draw(r);
        k = top_term_key(ms);
        if (mp_interrupted())
            return 1;
        if (k < 0) /* standard input is gone: nobody can press q */
            return 1;
        if (k > 0) {
            int was_paused = r->v.paused;

            key(r, k);
            if (r->quit)
                return 1;
            if (r->drain_asked)
                return 0;
            /* the interval after a pause covers it: due again from now */
            if (was_paused && !r->v.paused)
                due = mp_now_ms() + (uint64_t)(r->a->interval * 1000);
        }
    }
    return mp_interrupted() ? 1 : 0;
}

/* The screen says the link is lost, for a moment, before the terminal
 * is given back and the one error line is printed. */
static void show_lost(struct top_run *r, const char *what)
{
    snprintf(r->v.note, sizeof(r->v.note), "LINK LOST: %.380s", what);
    draw(r);
    top_term_key(LOST_SHOW_MS);
}

/* The intervals, until q, --count, a signal or a failure. 0, -1 when
 * the link failed (*WHAT says how), -2 on any other failure (*WHAT
 * says it; reported unless on a terminal). */
static int run(struct top_run *r, char *what, size_t size)
{
    uint64_t period = (uint64_t)(r->a->interval * 1000), due;
    unsigned long n = 0;

    due = mp_now_ms() + period;
    r->redraw = 1;
    for (;;) {
        int drain, k;

        if (wait_until(r, due))
            return 0;
        drain = r->drain_asked;
        r->drain_asked = 0;
        if ((k = step(r, drain)) < 0) {
            if (mp_interrupted())
                return 0;
            snprintf(what, size, "%s", mp_last_error());
            return k;
        }
        r->redraw = 1;
        if (r->write_errno == EPIPE) /* nobody reads on: the end, not a failure */
            return 0;
        if (r->write_errno) {
            mp_error(NULL, "top: cannot write to standard output: %s", strerror(r->write_errno));
            return -2;
        }
        if (r->a->count && ++n >= r->a->count) {
            if (r->tty)
                draw(r);
            return 0;
        }
        /* the next one a period after this one was due; after a
         * snapshot that took longer, a period from now */
        due += period;
        if (drain || due <= mp_now_ms())
            due = mp_now_ms() + period;
    }
}

/* Connect, the first snapshot, the names; the ELF read. */
static int begin(struct top_run *r, struct mp_target_args *ta, struct mp_elf_info *elf)
{
    if (mp_functab_read(&r->ft, ta->elf) < 0)
        return -1;
    if (mp_target_find(ta, elf, &r->t) < 0)
        return -1;
    mp_interrupt_catch();
    mp_target_start_deadline(ta);
    if (!(r->l = mp_target_connect(ta, elf, &r->t)))
        return -1;
    if (snapshot(r, r->a->reset_first) < 0) {
        if (!mp_interrupted())
            mp_error(NULL, "top: the first snapshot failed: %s", mp_last_error());
        return -1;
    }
    if (first_names(r) < 0 || rebase(r, r->a->reset_first, mp_now_ms()) < 0)
        return -1;
    r->v.link = ta->link_name;
    r->v.elf = ta->elf;
    r->v.interval_s = r->a->interval;
    r->v.sort = r->a->sort;
    r->v.when = time(NULL);
    if (r->v.sort == TOP_SORT_INCL && !r->has_paths) {
        mp_warn(ta->elf, "no call paths in this firmware's image: sorted by self samples, not inclusive");
        r->v.sort = TOP_SORT_SELF;
    }
    if (r->a->reset_first)
        snprintf(r->v.event, sizeof(r->v.event), "drained the target's counts at the first snapshot (--reset-first)");
    return 0;
}

static int mp_cmd_top(int argc, char **argv)
{
    struct top_args a;
    struct top_run r;
    struct mp_elf_info elf;
    char what[1024] = "";
    int ok = 0, rc;

    memset(&a, 0, sizeof(a));
    memset(&r, 0, sizeof(r));
    memset(&elf, 0, sizeof(elf));
    mp_target_args_init(&a.target, "top");
    a.interval = 1;
    rc = parse_args(argc, argv, &a);
    if (rc != 0)
        return rc > 0 ? MP_EXIT_OK : MP_EXIT_USAGE;
    r.a = &a;
    r.tty = !a.batch && top_term_usable();
    /* on the screen nothing but the screen: warnings wait for the end */
    if (r.tty)
        mp_diag_hold();
    mp_net_signals_quiet(1);
    if (begin(&r, &a.target, &elf) < 0)
        goto out;
    if (r.tty && top_term_open() < 0)
        goto out;
    rc = run(&r, what, sizeof(what));
    if (r.tty) {
        if (rc == -1)
            show_lost(&r, what);
        top_term_close();
    }
    if (rc == -1)
        mp_error(NULL, "top: the link was lost at interval %u: %s", r.v.number + 1, what);
    else if (rc == -2 && r.tty)
        mp_error(NULL, "%s", what); /* kept quiet while the screen was up */
    ok = rc == 0;
out:
    /* the last snapshot's deadline may be long past (a pause, a long
     * interval): the way out gets one of its own */
    if (r.l)
        mp_target_start_deadline(&a.target);
    if (r.l && mp_target_leave(&a.target, r.l, &r.t) < 0)
        ok = 0;
    mp_pull_free(&r.t);
    if (r.base.arena)
        mp_model_free(&r.base);
    top_view_free(&r.v);
    if (r.ft.f)
        mp_functab_free(&r.ft);
    mp_diag_release(1);
    /* Ctrl-C, SIGTERM, SIGHUP: how a run of top ends, once it runs */
    return ok ? MP_EXIT_OK : mp_target_exit_status(0);
}

const struct mp_command mp_command_top = {
    .name = "top",
    .summary = "a live view of a running target: functions by share, exact calls per second",
    .run = mp_cmd_top,
    .help = mp_help_top,
};

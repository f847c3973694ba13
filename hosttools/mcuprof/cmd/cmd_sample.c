/*
 * cmd_sample.c - `mcuprof sample`: sample the PC of a running core from
 * the host through the debug link (pc_sample.h) for a window of time,
 * bin the samples over the firmware's code (model_probe.h), and with the
 * runtime's image in the firmware, merge them with the exact arcs the
 * target counted during the window; written by every format.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "count_text.h"
#include "diag.h"
#include "elf_code.h"
#include "file_io.h"
#include "interrupt.h"
#include "model_probe.h"
#include "net.h"
#include "output.h"
#include "pc_sample.h"
#include "snapshot.h"
#include "target_cmdline.h"
#include "target_open.h"
#include "trust.h"

#define DURATION_MAX 86400.0
#define RATE_MAX 1000000.0
#define BATCH_DEFAULT 32u

static void mp_help_sample(FILE *f)
{
    fputs("Usage: mcuprof sample ", f);
    mp_transports_usage(f);
    fputs(" --elf FILE [options]\n"
          "\n"
          "Sample the PC of the running core from the host, through the debug link, for\n"
          "a window of time, and write a profile: the histogram of the samples over the\n"
          "firmware's code and, when the firmware has mcuprof's runtime, the exact arcs\n"
          "its call hook counted during the window. No target code takes the samples:\n"
          "they see code run with interrupts masked and interrupt handlers of any\n"
          "priority, which a timer sampler on the target cannot.\n"
          "\n",
          f);
    mp_transports_help(f);
    fputs("  -e, --elf FILE           the firmware (required): its executable sections are\n"
          "                           the histogram's ranges, its symbols name functions\n"
          "  -d, --duration SECONDS   the sampling window (0.01 to 86400, default 5)\n"
          "  -m, --method M           auto (default): pcsr where the core has a PC sample\n"
          "                           register the link reads while it runs, else halt;\n"
          "                           pcsr: read DWT_PCSR (Cortex-M, --openocd), the core\n"
          "                           never stops; halt: stop the core, read its pc, let\n"
          "                           it run (any GDB server, any core)\n"
          "  -r, --rate HZ            samples per second to aim at (1 to 1000000); default:\n"
          "                           as fast as the link answers\n"
          "  -n, --samples N          end the window after N samples, if --duration has\n"
          "                           not ended it first\n"
          "      --batch N            pcsr: reads of DWT_PCSR per exchange (1 to 1024,\n"
          "                           default 32)\n"
          "      --no-arcs            the histogram alone, without the runtime's arcs\n"
          "      --force              sample despite a build-id mismatch, and take over a\n"
          "                           freeze another host holds (warnings)\n"
          "  -a, --address ADDR       the runtime's image address, when the ELF lacks the\n"
          "                           symbols __mcuprof_start and __mcuprof_end\n"
          "  -o, --output OUT         the output of a single format (default gmon.out)\n",
          f);
    mp_outputs_help(f);
    fputs("      --images PREFIX      also write the runtime's images taken at the start and\n"
          "                           at the end of the window: PREFIX.start.img and\n"
          "                           PREFIX.end.img (convert reads them)\n"
          "  -t, --timeout SECONDS    how long any one answer may take (0.01 to 3600,\n"
          "                           default 5); and the longest wait for the freeze\n"
          "      --deadline SECONDS   how long the connection with the first image, and\n"
          "                           the last image with the output, may each take\n"
          "                           (default 10 times --timeout); the window itself is\n"
          "                           --duration, each exchange in it --timeout\n"
          "      --no-demangle        C++ names as the ELF spells them (not demangled)\n"
          MP_GROUP_CLONES_HELP
          "  -q, --quiet              no line per file written, no progress, no notes, no\n"
          "                           summary: warnings and errors only\n"
          "  -h, --help               this text\n"
          "\n"
          "The histogram has 2-byte bins over every executable section of the ELF (code\n"
          "in RAM too): every Thumb or compressed RISC-V instruction starts a bin of its\n"
          "own, so gprof never splits a bin between two functions. A PC outside every\n"
          "section is counted (lost_samples_out_of_range) and reported, not binned; a\n"
          "DWT_PCSR read of 0xFFFFFFFF (core halted or asleep) is no sample: counted\n"
          "apart. The gmon.out's rate is the rate reached.\n"
          "\n"
          "Arcs: with the runtime's image (the ELF's __mcuprof_start), the image is\n"
          "taken at the window's start and end with the freeze handshake pull uses,\n"
          "and the arcs written are the end's counts minus the start's: exactly the\n"
          "calls of the window. If the target was drained (its generation changed) or\n"
          "reset in between, the end's counts are written, with a warning.\n"
          "\n"
          "The cost: pcsr stops nothing; the rate is what the link reaches. halt stops\n"
          "the core for every sample: the summary states the time measured from the\n"
          "stop's report to the resume (over OpenOCD's Tcl port, the whole exchange).\n"
          "\n"
          "Each file written is said on stderr, one line each ('mcuprof: wrote\n"
          "gmon.out: 10,249 samples, 29 arcs, nothing lost'); on a terminal one line\n"
          "shows the samples taken and the time left in the window while it runs.\n"
          "At the end, one line on stderr: samples, rate, method and cost, samples\n"
          "without a PC or outside the code, and whether arcs were merged.\n"
          "Ctrl-C, SIGTERM or SIGHUP end the window early: the last image is taken and\n"
          "the output written as for a full window (a second signal abandons it). A\n"
          "link that fails gives one error line and writes nothing.\n",
          f);
}

struct sample_args {
    struct mp_target_args target;
    struct mp_outputs outs;
    double duration, rate;
    enum mp_pc_method method;
    unsigned batch;
    uint64_t max_samples;     /* --samples: 0 none */
    int no_arcs;
    const char *images;
    char image_path[2][4200];
};

static int parse_unsigned(const char *opt, const char *s, unsigned long lo, unsigned long hi, unsigned long *v)
{
    char *end;

    errno = 0;
    *v = strtoul(s, &end, 10);
    if (end == s || *end || errno || *v < lo || *v > hi)
        return mp_error(NULL, "sample: %s '%s' is not a number from %lu to %lu", opt, s, lo, hi);
    return 0;
}

static int parse_args(int argc, char **argv, struct sample_args *a)
{
    static const struct option own[] = {
        {"duration", required_argument, NULL, 'd'},
        {"method", required_argument, NULL, 'm'},
        {"rate", required_argument, NULL, 'r'},
        {"batch", required_argument, NULL, 'B'},
        {"samples", required_argument, NULL, 'n'},
        {"no-arcs", no_argument, NULL, 'N'},
        {"images", required_argument, NULL, 'I'},
    };
    struct mp_target_cmdline cl;
    unsigned long v;
    int c;

    mp_target_cmdline_init(&cl, &a->target, &a->outs, own, sizeof(own) / sizeof(own[0]), "d:m:r:n:", 0);
    while ((c = mp_target_cmdline_next(&cl, argc, argv)) != -1) {
        switch (c) {
        case 'd':
            if (mp_parse_seconds_in("sample", "--duration", optarg, MP_TIMEOUT_MIN, DURATION_MAX, &a->duration) < 0)
                return -1;
            break;
        case 'm':
            if (mp_pc_method_parse(optarg, &a->method) < 0)
                return -1;
            break;
        case 'r': {
            char *end;

            errno = 0;
            a->rate = strtod(optarg, &end);
            if (end == optarg || *end || errno || !(a->rate >= 1) || a->rate > RATE_MAX)
                return mp_error(NULL, "sample: --rate '%s' is not a rate from 1 to %g Hz", optarg, RATE_MAX);
            break;
        }
        case 'B':
            if (parse_unsigned("--batch", optarg, 1, MP_PC_BATCH_MAX, &v) < 0)
                return -1;
            a->batch = (unsigned)v;
            break;
        case 'n':
            if (parse_unsigned("--samples", optarg, 1, 1000000000ul, &v) < 0)
                return -1;
            a->max_samples = v;
            break;
        case 'N': a->no_arcs = 1; break;
        case 'I': a->images = optarg; break;
        case 'h':
            mp_help_sample(stdout);
            return 1;
        default:
            return -1;
        }
    }
    if (mp_target_cmdline_end(&cl) < 0)
        return -1;
    if (!a->target.elf)
        return mp_error(NULL, "sample: give the firmware: --elf FILE (its code is the histogram's ranges)");
    if (mp_target_finish(&a->target) < 0)
        return -1;
    if ((a->outs.out && a->outs.out[0] == '\0') || (a->images && a->images[0] == '\0'))
        return mp_error(NULL, "sample: empty output name");
    if (a->images && a->no_arcs)
        return mp_error(NULL, "sample: --images keeps the runtime's images, which --no-arcs does not take");
    if (a->images) {
        snprintf(a->image_path[0], sizeof(a->image_path[0]), "%s.start.img", a->images);
        snprintf(a->image_path[1], sizeof(a->image_path[1]), "%s.end.img", a->images);
    }
    return mp_outputs_finish(&a->outs);
}

static int check_outputs(const struct sample_args *a)
{
    unsigned i, k;

    mp_file_note_input(a->target.elf);
    for (k = 0; a->images && k < 2; k++) {
        for (i = 0; i < a->outs.n; i++)
            if (mp_same_file(a->outs.path[i], a->image_path[k]))
                return mp_error(a->outs.path[i], "is both the --format %s output and an image of --images",
                                a->outs.fmt[i]->name);
        if (mp_output_check(a->image_path[k]) < 0)
            return -1;
    }
    return mp_outputs_check(&a->outs);
}

/* What the window took and measured. */
struct window {
    struct mp_pc_sampler s;
    uint64_t samples, outside, elapsed_us;
    int signal;              /* the signal that ended it early, or 0 */
};

/* A draw in [0, 1) from xorshift32, seeded by the clock: the pacing's
 * dither. */
static double uniform(uint32_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 17;
    *x ^= *x << 5;
    return (double)*x / 4294967296.0;
}

/* On a terminal, the samples taken and the time left in the window,
 * four times a second at most (*SHOWN: when last shown). */
static void show_window(const struct window *w, uint64_t now, uint64_t end, uint64_t *shown)
{
    char samples[MP_COUNT_TEXT_MAX];

    if (now - *shown < 250000 || !mp_progress_wanted())
        return;
    *shown = now;
    /* whole seconds left, rounded up: "0 s left" only once it ends */
    mp_progress_show("sample: %s sample%s, %" PRIu64 " s left", mp_count_text(samples, w->samples),
                     w->samples == 1 ? "" : "s", now < end ? (end - now + 999999) / 1000000 : 0);
}

/* Sample until the window ends or a signal ends it. Exchanges never beat
 * with the firmware: each starts at a random point of its slot (the
 * period of --rate, or without it the last exchange's own length), as the
 * target's sampler dithers its timer (docs/design.md, "The sampler").
 * Under an emulator whose host threads share a loaded machine, exchanges
 * back to back locked onto the firmware's rounds (a share of 73 % for
 * 30); and a link that lags is never caught up in a burst. */
static int run_window(const struct sample_args *a, struct mp_model *m, struct window *w)
{
    uint64_t pcs[MP_PC_BATCH_MAX];
    uint64_t t0 = mp_now_us(), end = t0 + (uint64_t)(a->duration * 1e6), slot = t0, now, last = 0;
    uint32_t seed = (uint32_t)t0 | 1u;
    uint64_t shown = 0;
    unsigned n, i;

    /* Each exchange has --timeout; the window ends when it ends. */
    mp_net_deadline(0, 0);
    mp_net_signals_quiet(1);
    /* at once, not held: the window has begun, and a signal now ends it
     * with an output (before, it ends the command without one) */
    mp_say("sample: sampling %s for %g s, method %s (Ctrl-C ends the window)", w->s.l->name, a->duration,
           mp_pc_method_name(w->s.method));
    for (now = t0; now < end && (!a->max_samples || w->samples < a->max_samples); now = mp_now_us()) {
        uint64_t period = a->rate > 0 ? (uint64_t)(1e6 / a->rate) : last, at, t1;

        if (mp_interrupted())
            break;
        at = slot + (uint64_t)(uniform(&seed) * (double)period);
        if (at > now && mp_sleep_us(at - now))
            break;
        t1 = mp_now_us();
        if (mp_pc_sample(&w->s, pcs,
                         a->max_samples && a->max_samples - w->samples < MP_PC_BATCH_MAX
                             ? (unsigned)(a->max_samples - w->samples)
                             : MP_PC_BATCH_MAX,
                         &n) < 0) {
            if (mp_interrupted())
                break;
            mp_net_signals_quiet(0);
            return -1;
        }
        now = mp_now_us();
        last = now - t1;
        for (i = 0; i < n; i++)
            w->outside += !mp_model_probe_add(m, pcs[i]);
        w->samples += n;
        show_window(w, now, end, &shown);
        /* the next slot; behind it, go on from here */
        slot = a->rate > 0 ? slot + (uint64_t)((n ? n : 1) * 1e6 / a->rate) : now;
        if (slot < now - (a->rate > 0 ? period : 0))
            slot = now;
    }
    mp_progress_clear();
    w->elapsed_us = mp_now_us() - t0;
    w->signal = mp_interrupted();
    mp_net_signals_quiet(0);
    if (w->signal) {
        mp_note(w->s.l->name, "%s ended the window after %.2f s of %g", mp_signal_name(w->signal),
                w->elapsed_us / 1e6, a->duration);
        /* the last image and the output are still taken: a second signal stops them */
        mp_interrupt_defer();
    }
    return 0;
}

/* The cost and the rate, in words, for the summary line. */
static void describe_cost(const struct window *w, char *buf, size_t size)
{
    const struct mp_pc_sampler *s = &w->s;
    double rate = w->elapsed_us ? (double)(w->samples + s->no_sample) * 1e6 / (double)w->elapsed_us : 0;
    double per = s->exchanges ? (double)s->exchange_us / (double)s->exchanges : 0;

    if (s->method == MP_PC_PCSR) {
        snprintf(buf, size, "%.0f/s, method pcsr (%s; %u read%s an exchange of %.0f us; the core never stopped)",
                 rate, s->why, s->batch, s->batch == 1 ? "" : "s", per);
    } else if (s->stopped_us) {
        double stopped = (double)s->stopped_us / (double)s->exchanges;

        snprintf(buf, size,
                 "%.0f/s, method halt (%s; the core stopped %.0f us a sample from the stop's report to the "
                 "resume, %.0f us the whole exchange: %.1f %% of the window)",
                 rate, s->why, stopped, per, w->elapsed_us ? 100.0 * (double)s->stopped_us / (double)w->elapsed_us : 0);
    } else {
        snprintf(buf, size, "%.0f/s, method halt (%s; the core stopped within each exchange of %.0f us: at most %.1f %% "
                            "of the window)",
                 rate, s->why, per, w->elapsed_us ? 100.0 * (double)s->exchange_us / (double)w->elapsed_us : 0);
    }
}

struct run {
    struct sample_args *a;
    struct mp_elf_info elf;
    struct mp_target_image t;
    int arcs;                 /* the runtime's image is taken */
    struct mp_model start;    /* its model at the window's start */
    uint8_t *start_data;      /* and its bytes (--images) */
    uint32_t start_size;
    const char *arcs_said;    /* the summary's words on the arcs */
    struct mp_code_range ranges[MP_CODE_RANGES_MAX]; /* the ELF's code */
    size_t nranges;
};

/* The first image: its model (and with --images its bytes) kept. */
static int take_start(struct mp_link *l, struct run *r)
{
    struct mp_pull_opts o = {0, 0, r->a->target.timeout_ms, NULL, NULL, r->a->target.force};

    if (mp_pull_snapshot(l, &r->t, &o) < 0 || mp_model_from_image(&r->start, &r->t.img) < 0)
        return -1;
    if (r->a->images) {
        if (!(r->start_data = malloc(r->t.size)))
            return mp_error(l->name, "out of memory for a %" PRIu32 "-byte image", r->t.size);
        memcpy(r->start_data, r->t.data, r->t.size);
        r->start_size = r->t.size;
    }
    return 0;
}

/* M: the last image's model with the window's arcs, or without arcs a
 * model of the ELF's machine. */
static int model_end(struct mp_link *l, struct run *r, struct mp_model *m)
{
    struct mp_pull_opts o = {0, 0, r->a->target.timeout_ms, NULL, NULL, r->a->target.force};
    int k;

    if (!r->arcs) {
        if (mp_model_init(m, l->name, MP_MODEL_GMON) < 0)
            return -1;
        m->machine = r->elf.machine;
        m->ptr_size = r->elf.ptr_size;
        m->big = r->elf.big;
        return 0;
    }
    if (mp_pull_snapshot(l, &r->t, &o) < 0 || mp_model_from_image(m, &r->t.img) < 0)
        return -1;
    if (m->c.generation != r->start.c.generation) {
        mp_warn(l->name, "the target was drained during the window (generation %" PRIu32 " to %" PRIu32
                         "): the arcs are those counted since, a part of the window",
                r->start.c.generation, m->c.generation);
        r->arcs_said = "arcs since a drain within the window";
        return 0;
    }
    k = mp_model_arcs_since(m, &r->start);
    if (k < 0)
        return -1;
    if (k > 0) {
        mp_warn(l->name, "counts went down during the window (the target was reset): the arcs are those "
                         "counted since, a part of the window");
        r->arcs_said = "arcs since a reset within the window";
        return 0;
    }
    r->arcs_said = "exact arcs of the window merged";
    return 0;
}

static int write_outputs(struct run *r, struct mp_model *m)
{
    const struct sample_args *a = r->a;
    struct mp_raw_output raw[2] = {{a->image_path[0], r->start_data, r->start_size},
                                   {a->image_path[1], r->t.data, r->t.size}};
    unsigned needs = mp_outputs_needs(&a->outs);

    if (mp_model_attach_elf(m, a->target.elf) < 0 || ((needs & MP_WANTS_LINES) && mp_model_attach_lines(m) < 0))
        return -1;
    return mp_outputs_write_raws(&a->outs, m, a->images ? raw : NULL, a->images ? 2 : 0);
}

static struct mp_link *connect(struct run *r)
{
    struct mp_target_args *ta = &r->a->target;
    struct mp_endpoint ep;
    struct mp_link *l;

    if (r->arcs)
        return mp_target_connect(ta, &r->elf, &r->t);
    if (!(l = mp_target_open_bare(ta, r->elf.big, &ep)))
        return NULL;
    snprintf(ta->link_name, sizeof(ta->link_name), "%s", ep.name);
    return l;
}

static int sample(struct run *r, struct mp_link *l)
{
    const struct sample_args *a = r->a;
    const struct mp_code_range *ranges = r->ranges;
    size_t nranges = r->nranges;
    struct window w;
    struct mp_model m;
    char cost[400];
    int ret = -1;

    memset(&w, 0, sizeof(w));
    if (mp_pc_sampler_init(&w.s, l, r->elf.machine, r->elf.ptr_size, a->method, a->batch) < 0)
        return -1;
    if (r->arcs && take_start(l, r) < 0)
        return -1;
    /* The histogram is filled as the samples come, into a model of its own
     * until the last image gives the one written. */
    if (mp_model_init(&m, l->name, MP_MODEL_GMON) < 0)
        return -1;
    m.machine = r->elf.machine;
    if (mp_model_probe_ranges(&m, ranges, nranges, 1) < 0 || run_window(a, &m, &w) < 0)
        goto out;
    mp_target_start_deadline(&a->target);
    {
        struct mp_model out;
        uint32_t rate = w.elapsed_us ? (uint32_t)((double)(w.samples + w.s.no_sample) * 1e6 / w.elapsed_us + 0.5) : 0;

        if (model_end(l, r, &out) < 0)
            goto out;
        /* the histogram moves into the model written */
        if (mp_model_probe_ranges(&out, ranges, nranges, rate ? rate : 1) < 0) {
            mp_model_free(&out);
            goto out;
        }
        for (size_t i = 0; i < nranges; i++) {
            memcpy(out.ranges[i].bins, m.ranges[i].bins, (size_t)m.ranges[i].nbins * sizeof(*m.ranges[i].bins));
            out.ranges[i].samples = m.ranges[i].samples;
            out.ranges[i].max_bin = m.ranges[i].max_bin;
        }
        out.c.samples_taken = m.c.samples_taken;
        out.c.binned = m.c.binned;
        out.c.lost[MP_LOST_SAMPLES_OUT_OF_RANGE] = m.c.lost[MP_LOST_SAMPLES_OUT_OF_RANGE];
        ret = write_outputs(r, &out);
        mp_model_free(&out);
    }
    if (ret < 0)
        goto out;
    if (w.samples == 0)
        mp_warn(l->name, "no sample in the window: the output has an empty histogram");
    if (w.outside)
        mp_warn(l->name, "%" PRIu64 " of %" PRIu64 " samples were outside every executable section of %s: counted "
                         "(lost_samples_out_of_range), not binned",
                w.outside, w.samples, a->target.elf);
    describe_cost(&w, cost, sizeof(cost));
    mp_diag_release(1);
    {
        char nopc[80] = "";

        if (w.s.method == MP_PC_PCSR)
            snprintf(nopc, sizeof(nopc), "%" PRIu64 " reads without a PC (core halted or asleep), ", w.s.no_sample);
        mp_say("sample: %" PRIu64 " samples in %.2f s, %s; %s%" PRIu64 " outside the code; %s",
                w.samples, w.elapsed_us / 1e6, cost, nopc, w.outside,
                r->arcs ? r->arcs_said : "histogram only, no arcs");
    }
out:
    mp_model_free(&m);
    return ret;
}

static int mp_cmd_sample(int argc, char **argv)
{
    struct sample_args a;
    struct run r;
    struct mp_link *l;
    int ret = MP_EXIT_FAIL, ok;

    memset(&a, 0, sizeof(a));
    memset(&r, 0, sizeof(r));
    mp_target_args_init(&a.target, "sample");
    a.duration = 5;
    a.batch = BATCH_DEFAULT;
    ok = parse_args(argc, argv, &a);
    if (ok != 0)
        return ok > 0 ? MP_EXIT_OK : MP_EXIT_USAGE;
    r.a = &a;

    mp_diag_hold();
    if (check_outputs(&a) < 0 || mp_elf_read(&r.elf, a.target.elf) < 0 ||
        mp_elf_code_ranges(a.target.elf, r.ranges, &r.nranges) < 0)
        goto out;
    r.arcs = !a.no_arcs && (r.elf.has_region || a.target.have_address);
    if (!a.no_arcs && !r.arcs) {
        if (a.images)
            goto no_image;
        mp_note(a.target.elf, "no mcuprof runtime (no __mcuprof_start): the histogram alone, without call counts");
    }
    if (r.arcs && mp_target_find(&a.target, &r.elf, &r.t) < 0)
        goto out;
    mp_interrupt_catch();
    mp_target_start_deadline(&a.target);
    if (!(l = connect(&r)))
        goto out;
    ok = sample(&r, l) == 0;
    if (r.arcs) {
        if (mp_target_leave(&a.target, l, &r.t) < 0)
            ok = 0;
        mp_pull_free(&r.t);
    } else {
        l->ops->close(l);
    }
    if (ok)
        ret = MP_EXIT_OK;
    goto out;
no_image:
    mp_error(a.target.elf, "--images: no mcuprof runtime in this firmware (no __mcuprof_start)");
out:
    if (r.start.arena)
        mp_model_free(&r.start);
    free(r.start_data);
    mp_diag_release(1);
    return ret == MP_EXIT_OK ? ret : mp_target_exit_status(0);
}

const struct mp_command mp_command_sample = {
    .name = "sample",
    .summary = "sample the PC through the debug probe; merge with the exact arcs",
    .run = mp_cmd_sample,
    .help = mp_help_sample,
};

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "diag.h"
#include "file_io.h"
#include "interrupt.h"
#include "model.h"
#include "trust.h"
#include "net.h"
#include "output.h"
#include "profile_sum.h"
#include "progress.h"
#include "snapshot.h"
#include "target_cmdline.h"
#include "target_open.h"

static void mp_help_pull(FILE *f)
{
    fputs("Usage: mcuprof pull ", f);
    mp_transports_usage(f);
    fputs("\n"
          "                    (--elf FILE | --address ADDR) [options]\n"
          "\n"
          "Read the profile image from a running target through a debug server and\n"
          "write gmon.out (or any format convert writes, or the raw image).\n"
          "\n",
          f);
    mp_transports_help(f);
    fputs("  -e, --elf FILE           the firmware: the image lies between its symbols\n"
          "                           __mcuprof_start and __mcuprof_end, and its build-id\n"
          "                           must match the image's; the formats take function\n"
          "                           names and source lines from it\n"
          "      --force              pull despite a build-id or place mismatch, and\n"
          "                           take over a freeze another host holds (warnings)\n"
          "  -a, --address ADDR       the image's address (its size comes from its header)\n"
          "  -o, --output OUT         the output of a single format (default gmon.out)\n",
          f);
    mp_outputs_help(f);
    fputs("  -i, --image FILE         write the raw image to FILE (and the formats only if\n"
          "                           -o or --format is given too); with --interval the\n"
          "                           sum, as one image whose counters are the sums\n"
          "      --halt               stop the core while reading, instead of freezing\n"
          "      --reset              drain: zero the target's tables after reading\n"
          "      --interval SECONDS   pull and drain every SECONDS, add everything up on\n"
          "                           the host and rewrite the output with the sum after\n"
          "                           each pull (implies --reset)\n"
          "      --count N            with --interval: stop after N pulls (default: at\n"
          "                           Ctrl-C between pulls)\n"
          "  -t, --timeout SECONDS    how long any one answer may take, from the request\n"
          "                           to its last byte, acknowledgements, noise and\n"
          "                           console output included (also the stop after an\n"
          "                           interrupt); and the longest wait for the freeze\n"
          "                           (0.01 to 3600, default 5)\n"
          "      --deadline SECONDS   how long the connection and the pull may take in\n"
          "                           all (with --interval, each pull); default 10 times\n"
          "                           --timeout; a freeze held then gets two --timeouts\n"
          "                           more to be released\n"
          "      --no-demangle        C++ names as the ELF spells them (not demangled)\n"
          MP_GROUP_CLONES_HELP
          "  -q, --quiet              no line per file written, no progress, no notes:\n"
          "                           warnings and errors only\n"
          "  -h, --help               this text\n"
          "\n"
          "Consistency without halting: mcuprof writes a token to the header's\n"
          "freeze_request and waits until the firmware's sampler tick copies it to\n"
          "freeze_ack; from then until mcuprof writes 0, the hook and the sampler leave\n"
          "the tables alone and count what they skip (lost_calls_frozen,\n"
          "lost_samples_frozen). Without a running sampler timer nothing answers: use\n"
          "--halt, which stops the core instead (a stop can land inside the hook's\n"
          "slow path while it links a new arc; the freeze never does). A\n"
          "freeze_request already set means another host is pulling, or one ended\n"
          "without releasing: pull refuses, as ctl does, unless --force.\n"
          "\n",
          f);
    mp_transports_notes(f);
    fputs("\n"
          "Drain (--reset) zeroes the arc records in use, the buckets, the bins,\n"
          "arcs_used, every lost_* counter and samples_taken, and increments\n"
          "generation, all while frozen. With --interval the sums are 64-bit: counts\n"
          "above 65535 per bin travel as repeated histogram records of the same range,\n"
          "arc counts above 0xfffffffe as repeated arc records; gprof adds both up.\n"
          "\n"
          "Output goes through a temporary file renamed into place: on any failure no\n"
          "output is written. Each file written is said on stderr, one line each\n"
          "('mcuprof: wrote gmon.out: 10,249 samples, 29 arcs, nothing lost'); with\n"
          "--interval each pull's ('mcuprof: pull 3: wrote ...'), and on a terminal\n"
          "one line that counts down to the next pull instead, the last pull's lines\n"
          "printed at the end. The outputs are checked before connecting (a regular\n"
          "file or none, not read-only, not the ELF). With --reset nothing is zeroed\n"
          "before it is safe: the output is written and flushed to disk first, while\n"
          "the target stays frozen (or halted), then the tables are drained; if the\n"
          "drain fails, the output stays and the exit status is 1. With --interval the\n"
          "output is rewritten with the sum after each pull, before its drain, so it\n"
          "always holds everything drained, also after a failed pull.\n"
          "\n"
          "Ctrl-C, SIGTERM or SIGHUP stop a pull at once: the freeze is released (a\n"
          "second signal skips that), nothing is drained, so what it was reading stays\n"
          "on the target, and the exit status is 128 + the signal's number; with\n"
          "--interval, once a pull was saved, the run ends with exit status 0 and the\n"
          "output holds every pull drained. A drain that has begun finishes first.\n"
          "If the freeze cannot be released (the server went away: mcuprof reconnects\n"
          "once to clear it), mcuprof says so: the address of freeze_request, the token\n"
          "it holds, and the `mcuprof ctl release` command that clears it.\n",
          f);
}

struct pull_args {
    struct mp_target_args target; /* the link, --elf, --address, --force, --timeout */
    const char *image;
    struct mp_outputs outs;
    int halt, reset;
    double interval;
    unsigned long count;
};

static int parse_args(int argc, char **argv, struct pull_args *a)
{
    static const struct option own[] = {
        {"image", required_argument, NULL, 'i'},
        {"halt", no_argument, NULL, 'H'},
        {"reset", no_argument, NULL, 'R'},
        {"interval", required_argument, NULL, 'I'},
        {"count", required_argument, NULL, 'C'},
    };
    struct mp_target_cmdline cl;
    char *end;
    int c;

    mp_target_cmdline_init(&cl, &a->target, &a->outs, own, sizeof(own) / sizeof(own[0]), "i:", 0);
    while ((c = mp_target_cmdline_next(&cl, argc, argv)) != -1) {
        switch (c) {
        case 'i': a->image = optarg; break;
        case 'H': a->halt = 1; break;
        case 'R': a->reset = 1; break;
        case 'I':
            if (mp_parse_seconds("pull", "--interval", optarg, 86400, &a->interval) < 0)
                return -1;
            a->reset = 1;
            break;
        case 'C':
            errno = 0;
            a->count = strtoul(optarg, &end, 10);
            if (end == optarg || *end || errno || a->count == 0)
                return mp_error(NULL, "pull: --count '%s' is not a positive number", optarg);
            break;
        case 'h':
            mp_help_pull(stdout);
            return 1;
        default:
            return -1;
        }
    }
    if (mp_target_cmdline_end(&cl) < 0)
        return -1;
    if (mp_target_finish(&a->target) < 0)
        return -1;
    if (a->count && a->interval < 0)
        return mp_error(NULL, "pull: --count needs --interval");
    if ((a->outs.out && a->outs.out[0] == '\0') || (a->image && a->image[0] == '\0'))
        return mp_error(NULL, "pull: empty output name");
    /* --image alone writes the image only */
    if ((!a->image || a->outs.out || a->outs.n) && mp_outputs_finish(&a->outs) < 0)
        return -1;
    if ((mp_outputs_needs(&a->outs) & MP_NEEDS_ELF) && !a->target.elf)
        return mp_error(NULL, "pull: the formats asked for need the firmware's names: give --elf");
    return 0;
}

/* The raw image (--image) and the formats, all or nothing. */
static int write_output(const struct pull_args *a, const struct mp_image *img)
{
    struct mp_raw_output raw = {a->image, img->data, img->image_size};
    struct mp_model m;
    unsigned needs = mp_outputs_needs(&a->outs);
    int ret = -1;

    if (a->outs.n == 0)
        return mp_output_raw(img->data, img->image_size, a->image);
    if (mp_model_from_image(&m, img) < 0)
        return -1;
    if (!a->target.elf || !(needs & (MP_NEEDS_ELF | MP_WANTS_ELF | MP_WANTS_LINES)) ||
        (mp_model_attach_elf(&m, a->target.elf) == 0 && (!(needs & MP_WANTS_LINES) || mp_model_attach_lines(&m) == 0)))
        ret = mp_outputs_write(&a->outs, &m, a->image ? &raw : NULL);
    mp_model_free(&m);
    return ret;
}

/* Before anything is read (and drained), every output must be writable:
 * a regular file or nothing, or a stream (file_io.h), not read-only, not an
 * input, not each other. */
static int check_outputs(const struct pull_args *a)
{
    unsigned i;

    if (a->target.elf)
        mp_file_note_input(a->target.elf);
    for (i = 0; a->image && i < a->outs.n; i++)
        if (mp_same_file(a->outs.path[i], a->image))
            return mp_error(a->outs.path[i], "is both the --format %s output and the raw image (--image)",
                            a->outs.fmt[i]->name);
    if (mp_outputs_check(&a->outs) < 0 || (a->image && mp_output_check(a->image) < 0))
        return -1;
    return 0;
}

/* What is saved before a drain: the snapshot itself, or with --interval
 * the sum of every snapshot so far, so the output always holds all that
 * was drained from the target. */
struct saver {
    const struct pull_args *a;
    struct mp_sum *sum;      /* NULL without --interval */
    unsigned warnings;       /* warnings held before the first write */
    unsigned written;        /* snapshots in the output */
};

static int save_snapshot(void *ctx, const struct mp_image *img)
{
    struct saver *s = ctx;
    struct mp_image total;
    uint8_t *data = NULL;
    size_t len;
    int ret = -1;

    /* Warnings are about the output that stays: the last one written. */
    mp_diag_drop_held(s->warnings);
    if (!s->sum) {
        ret = write_output(s->a, img);
    } else if (mp_sum_add(s->sum, img) == 0 && mp_sum_image(s->sum, &data, &len) == 0 &&
               mp_image_parse(&total, img->name, data, len) == 0) {
        ret = write_output(s->a, &total);
    }
    free(data);
    if (ret == 0)
        s->written++;
    return ret;
}

/* The wait before pull NEXT; on a terminal one line counts down to it,
 * then says what the last pull wrote (the count first: a line longer
 * than the terminal is cut) (mp_say_keep keeps those lines off the
 * screen meanwhile: a run of an hour is one line, not thousands).
 * Non-zero: a signal ended the wait. */
static int wait_next(double interval, unsigned long next)
{
    uint64_t end = mp_now_ms() + (uint64_t)(interval * 1000);

    for (;;) {
        uint64_t now = mp_now_ms(), left = now < end ? end - now : 0;

        if (!left)
            return 0;
        if (!mp_progress_wanted())
            return mp_sleep_ms((unsigned)left);
        mp_progress_show("pull %lu in %" PRIu64 " s; %s", next, (left + 999) / 1000, mp_say_last());
        /* wake when the seconds shown change */
        if (mp_sleep_ms((unsigned)(left % 1000 ? left % 1000 : 1000)))
            return 1;
    }
}

/* Pull, and with --interval pull again and again, summing. */
static int run(struct mp_link *l, const struct pull_args *a, struct mp_target_image *t,
               struct mp_progress *prog)
{
    struct mp_sum sum;
    struct saver saver = {a, NULL, mp_diag_held(), 0};
    struct mp_pull_opts o = {a->halt, a->reset, a->target.timeout_ms, save_snapshot, &saver, a->target.force};
    unsigned long n;
    int failed = 0, ret = -1;

    if (a->interval < 0) {
        mp_progress_begin(prog);
        ret = mp_pull_snapshot(l, t, &o);
        mp_progress_end(prog);
        if (ret < 0)
            return -1;
        return a->reset ? 0 : write_output(a, &t->img);
    }
    mp_sum_init(&sum);
    sum.stop = mp_interrupted; /* a signal while summing: that snapshot is not drained */
    saver.sum = &sum;
    mp_net_signals_quiet(1);
    mp_say_keep(1);
    for (n = 0; !a->count || n < a->count; n++) {
        char pull[32];

        /* A signal between pulls ends the run; one during a pull ends
         * that pull at once (released, not drained). */
        if (n > 0 && (wait_next(a->interval, n + 1) || mp_interrupt_signal()))
            break;
        if (n > 0)
            mp_target_start_deadline(&a->target);
        snprintf(pull, sizeof(pull), "pull %lu", n + 1);
        mp_say_context(pull);
        mp_progress_begin(prog);
        failed = mp_pull_snapshot(l, t, &o) < 0;
        mp_progress_end(prog);
        /* Ctrl-C is how a run ends: cutting a pull short (its exchange
         * or its save) loses nothing: it drained nothing, and the freeze
         * is released on the way out. */
        if (failed && mp_interrupt_signal() && saver.written) {
            mp_note(l->name, "%s stopped pull %lu before it drained anything: the output holds the %u before",
                    mp_signal_name(mp_interrupt_signal()), n + 1, saver.written);
            failed = 0;
            break;
        }
        if (failed && mp_net_signal_stopped())
            mp_error(NULL, "%s", mp_net_signal_text());
        if (failed || mp_interrupt_signal())
            break;
        /* Between pulls the firmware runs: over the GDB protocol it was
         * stopped for the last access. */
        if (l->was_running && !l->running && l->ops->resume(l) < 0) {
            failed = 1;
            break;
        }
    }
    mp_say_keep(0);
    mp_say_context(NULL);
    if (sum.saturated_arcs)
        mp_warn(l->name, "%" PRIu32 " arc count%s saturated in a snapshot: %s a lower bound",
                sum.saturated_arcs, sum.saturated_arcs == 1 ? " was" : "s were",
                sum.saturated_arcs == 1 ? "its sum is" : "their sums are");
    if (failed && saver.written)
        mp_warn(l->name, "the output holds the %u snapshot%s pulled and drained before the failure",
                saver.written, saver.written == 1 ? "" : "s");
    ret = failed ? -1 : 0;
    mp_sum_free(&sum);
    return ret;
}

static int mp_cmd_pull(int argc, char **argv)
{
    struct pull_args a;
    struct mp_elf_info elf;
    struct mp_target_image t;
    struct mp_progress prog;
    struct mp_link *l;
    int r, ret = MP_EXIT_FAIL;

    memset(&a, 0, sizeof(a));
    memset(&elf, 0, sizeof(elf));
    mp_target_args_init(&a.target, "pull");
    a.interval = -1;
    r = parse_args(argc, argv, &a);
    if (r != 0)
        return r > 0 ? MP_EXIT_OK : MP_EXIT_USAGE;

    mp_diag_hold();
    if (check_outputs(&a) < 0 || mp_target_find(&a.target, &elf, &t) < 0)
        goto out_release;
    mp_interrupt_catch();
    /* The deadline covers the connection and the pull (with --interval,
     * each pull has its own). */
    mp_target_start_deadline(&a.target);
    /* The build check comes before anything is written to the target. */
    if (!(l = mp_target_connect(&a.target, &elf, &t)))
        goto out_release;
    mp_progress_init(&prog);
    l->progress = mp_progress_update;
    l->progress_ctx = &prog;
    r = run(l, &a, &t, &prog);
    /* Closes the link; never leaves the target frozen without saying so. */
    if (mp_target_leave(&a.target, l, &t) == 0 && r == 0)
        ret = MP_EXIT_OK;
    mp_pull_free(&t);
out_release:
    mp_diag_release(1);
    return ret == MP_EXIT_OK ? ret : mp_target_exit_status(0);
}

const struct mp_command mp_command_pull = {
    .name = "pull",
    .summary = "read the image from a running target into gmon.out",
    .run = mp_cmd_pull,
    .help = mp_help_pull,
};

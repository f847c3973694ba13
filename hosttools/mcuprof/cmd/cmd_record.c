/*
 * cmd_record.c - `mcuprof record`: from a firmware ELF to a profile in one
 * command. Under QEMU (record_qemu.c) or on a target through a debug
 * server (the link options of pull); then the outputs, all or nothing,
 * one summary line and the top of the flat profile.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "count_text.h"
#include "cxx_demangle.h"
#include "diag.h"
#include "file_io.h"
#include "interrupt.h"
#include "model_load.h"
#include "net.h"
#include "record.h"
#include "report.h"
#include "trust.h"

static void mp_help_record(FILE *f)
{
    fputs("Usage: mcuprof record ELF [--board NAME] [--duration SECONDS] [--console FILE] [options]\n"
          "       mcuprof record ELF ",
          f);
    mp_transports_usage(f);
    fputs(" [--duration SECONDS] [options]\n"
          "\n"
          "Run the firmware and profile it in one command: under QEMU (the default), or\n"
          "on a target through a running debug server (a link option, as pull takes).\n"
          "Writes gmon.out (or any format convert writes), then prints one summary line\n"
          "on standard error and the top of the flat profile on standard output.\n"
          "\n"
          "  -b, --board NAME         QEMU's board (boards/NAME/qemu.conf); default: the\n"
          "                           one the ELF is built for, from its machine, its ARM\n"
          "                           build attributes (architecture, FPU) and where its\n"
          "                           segments lie in each board's memory map\n"
          "      --console FILE       the firmware's console (QEMU's output) to FILE instead\n"
          "                           of the terminal\n"
          "      --print-command      print QEMU's command line (the board chosen) and stop\n",
          f);
    mp_transports_help(f);
    fputs("  -d, --duration SECONDS   under QEMU: stop after SECONDS and pull the image\n"
          "                           through QEMU's gdbstub (firmware that runs forever);\n"
          "                           without it the firmware's own dump at its exit is\n"
          "                           taken (mcuprof_write_semihosting, mcuprof.img). On a\n"
          "                           target: let it run SECONDS (default: until Ctrl-C),\n"
          "                           then pull as pull does and let it run on\n"
          "      --reset              on a target: reset the core first (the server's\n"
          "                           'reset halt', then run), so the profile holds the\n"
          "                           run alone; OpenOCD and GDB servers with a monitor\n"
          "                           reset command (QEMU's gdbstub has none)\n"

          "      --halt               stop the core while reading, instead of freezing\n"
          "  -t, --timeout SECONDS    how long any one answer of the link may take\n"
          "                           (default 5)\n"
          "      --deadline SECONDS   how long the connection and the pull may take in all\n"
          "  -o, --output OUT         the output of a single format (default gmon.out)\n",
          f);
    mp_outputs_help(f);
    fputs("  -i, --image FILE         write the raw image to FILE too\n"
          "      --force              take a profile despite a build-id mismatch (a warning)\n"
          "  -n, --top N              lines of the flat profile printed (default 10; 0: none)\n"
          "  -q, --quiet              no summary, no flat profile, no line per file\n"
          "                           written, no notes: warnings and errors only\n"
          "      --no-demangle        C++ names as the ELF spells them (not demangled)\n"
          MP_GROUP_CLONES_HELP
          "  -h, --help               this text\n"
          "\n"
          "QEMU runs from the board's manifest, as ci/qemu/run.sh runs it: deterministic\n"
          "time (-icount with the board's QEMU_ICOUNT_SHIFT), semihosting on, in a private\n"
          "temporary directory, with its gdbstub on a free port of 127.0.0.1. When the\n"
          "firmware exits, the image it wrote there is taken; at --duration or Ctrl-C the\n"
          "image is pulled through the gdbstub with the freeze handshake (a sampler must\n"
          "run, else --halt). QEMU is always killed and its directory removed. The boards\n"
          "are read from ../share/mcuprof/boards beside the mcuprof executable\n"
          "(MCUPROF_BOARDS_DIR overrides). Two boards that fit the ELF equally are never\n"
          "chosen between: --board names one.\n"
          "\n"
          "On a target the firmware already runs: record waits, then pulls the tables as\n"
          "they are (everything since the runtime started or was last drained).\n"
          "\n"
          "Ctrl-C while the firmware runs ends the run and pulls; a second one stops the\n"
          "pull (nothing written, exit status 128 + the signal). The summary line gives\n"
          "the board or link, the run time, how the run ended (the firmware's exit status\n"
          "under QEMU), the samples, the arcs and what was lost.\n",
          f);
}

static int parse_args(int argc, char **argv, struct record_args *a)
{
    static const struct option fixed[] = {
        {"board", required_argument, NULL, 'b'},
        {"duration", required_argument, NULL, 'd'},
        {"console", required_argument, NULL, 'c'},
        {"output", required_argument, NULL, 'o'},
        {"format", required_argument, NULL, 'f'},
        {"image", required_argument, NULL, 'i'},
        {"halt", no_argument, NULL, 'H'},
        {"print-command", no_argument, NULL, 'P'},
        {"reset", no_argument, NULL, 'R'},
        {"top", required_argument, NULL, 'n'},
        MP_QUIET_LONGOPT,
        MP_NO_DEMANGLE_LONGOPT,
        MP_GROUP_CLONES_LONGOPT,
        {"help", no_argument, NULL, 'h'},
    };
    struct option longopts[sizeof(fixed) / sizeof(fixed[0]) + MP_TARGET_NOPTS + 1];
    char *pos[2], *end, shortopts[48];
    int npos = 0, c, r;

    mp_target_longopts(longopts, fixed, sizeof(fixed) / sizeof(fixed[0]));
    mp_target_shortopts(shortopts, sizeof(shortopts), "b:d:o:f:i:n:qt:h");
    while ((c = mp_getopt(argc, argv, shortopts, longopts, pos, 2, &npos)) != -1) {
        if (c != 'a' && (r = mp_target_option(&a->target, c, optarg)) != 0) {
            if (r < 0)
                return -1;
            continue;
        }
        switch (c) {
        case 'b': a->board = optarg; break;
        case 'c': a->console = optarg; break;
        case 'o': a->outs.out = optarg; break;
        case 'i': a->image = optarg; break;
        case 'H': a->halt = 1; break;
        case 'q':
            a->quiet = 1;
            mp_diag_set_quiet(1);
            break;
        case 'P': a->print_command = 1; break;
        case 'R': a->reset = 1; break;
        case 'd':
            if (mp_parse_seconds_in("record", "--duration", optarg, 0.001, 86400, &a->duration) < 0)
                return -1;
            break;
        case 'f':
            if (mp_outputs_add(&a->outs, optarg) < 0)
                return -1;
            break;
        case 'n':
            errno = 0;
            a->top = strtoull(optarg, &end, 10);
            if (end == optarg || *end || errno || optarg[0] == '-')
                return mp_error(NULL, "record: --top '%s' is not a number", optarg);
            break;
        case MP_OPT_NO_DEMANGLE: mp_demangle_enable(0); break;
        case MP_OPT_GROUP_CLONES: mp_model_set_clone_view(1); break;
        case 'h':
            mp_help_record(stdout);
            return 1;
        case 'a':
            return mp_error(NULL, "record: unknown option --address (the image's place comes from the ELF)");
        default:
            return -1;
        }
    }
    if (npos != 1)
        return mp_error(NULL, "record: expected one ELF, got %s (see 'mcuprof help record')",
                        npos ? "more" : "none");
    a->elf = pos[0];
    if (a->target.elf && strcmp(a->target.elf, a->elf) != 0)
        return mp_error(NULL, "record: --elf %s is not the ELF %s", a->target.elf, a->elf);
    a->target.elf = a->elf;
    a->on_target = a->target.transport != NULL;
    if (!a->on_target && a->reset)
        return mp_error(NULL, "record: --reset is for a target through a link option (QEMU starts from reset)");
    if (a->on_target && (a->board || a->console || a->print_command))
        return mp_error(NULL, "record: --%s is for QEMU, not a target through --%s",
                        a->board ? "board" : a->console ? "console" : "print-command", a->target.transport->name);
    if (mp_target_finish(&a->target) < 0)
        return -1;
    if ((a->outs.out && a->outs.out[0] == '\0') || (a->console && a->console[0] == '\0') ||
        (a->image && a->image[0] == '\0'))
        return mp_error(NULL, "record: empty file name");
    return mp_outputs_finish(&a->outs);
}

/* The outputs are writable, and none is an input or the console. */
static int check_outputs(const struct record_args *a)
{
    struct stat st;
    unsigned i;

    mp_file_note_input(a->elf);
    for (i = 0; a->image && i < a->outs.n; i++)
        if (mp_same_file(a->outs.path[i], a->image))
            return mp_error(a->outs.path[i], "is both the --format %s output and the raw image (--image)",
                            a->outs.fmt[i]->name);
    if (a->image && a->console && mp_same_file(a->image, a->console))
        return mp_error(a->console, "is both the console and the raw image (--image)");
    for (i = 0; a->console && i < a->outs.n; i++)
        if (a->outs.path[i] && mp_same_file(a->outs.path[i], a->console) && stat(a->console, &st) == 0 &&
            S_ISREG(st.st_mode))
            return mp_error(a->console, "is both the console and the --format %s output", a->outs.fmt[i]->name);
    return mp_outputs_check(&a->outs) < 0 || (a->image && mp_output_check(a->image) < 0) ? -1 : 0;
}

/* One line: where, how long, how it ended, what the profile holds (the
 * counts and losses in the words of the line per file written). */
static void summary(const struct record_run *run, const struct mp_model *m)
{
    char lost[512], n1[MP_COUNT_TEXT_MAX], n2[MP_COUNT_TEXT_MAX];
    uint64_t samples = mp_model_samples_total(m);

    mp_trust_losses(m, lost, sizeof(lost));
    mp_say("record: %s, ran %.2f s, %s, %s sample%s, %s arc%s, %s", run->where, run->seconds, run->ended,
           mp_count_text(n1, samples), samples == 1 ? "" : "s", mp_count_text(n2, m->narcs),
           m->narcs == 1 ? "" : "s", lost);
}

int mp_record_finish(const struct record_args *a, const struct record_run *run, const char *name,
                     const uint8_t *data, size_t len)
{
    struct mp_image_elf e = {a->elf, 1, a->target.force, 0};
    struct mp_raw_output raw = {a->image, data, len};
    struct mp_model m;
    int ret = -1;

    if (mp_model_load_image(&m, name, data, len, &e) < 0)
        return -1;
    if ((!(mp_outputs_needs(&a->outs) & MP_WANTS_LINES) || mp_model_attach_lines(&m) == 0) &&
        mp_outputs_write(&a->outs, &m, a->image ? &raw : NULL) == 0)
        ret = 0;
    if (ret == 0 && !a->quiet) {
        summary(run, &m);
        if (a->top && mp_report_flat_top(stdout, &m, a->top) < 0)
            ret = -1;
        if (fflush(stdout) != 0 || ferror(stdout))
            ret = mp_error(NULL, "record: cannot write the flat profile to standard output");
    }
    mp_model_free(&m);
    return ret;
}

/* --reset: the server resets the core, which then runs from its reset
 * vector (the firmware starts its profiling anew). */
static int prepare_target(struct record_args *a)
{
    struct mp_endpoint ep;
    struct mp_link *l;
    int ret = -1;

    mp_target_start_deadline(&a->target);
    if (a->target.transport->parse(a->target.endpoint, &ep) < 0 ||
        !(l = a->target.transport->open(&ep, a->target.timeout_ms)))
        return -1;
    if (!l->ops->reset)
        mp_error(l->name, "the --%s link has no way to reset the core", a->target.transport->name);
    else if (l->ops->reset(l) == 0 && l->ops->resume(l) == 0)
        ret = 0;
    l->ops->close(l);
    return ret;
}

/* On a target: let it run, then pull as `pull` does. */
static int record_target(struct record_args *a, struct record_run *run)
{
    struct mp_elf_info elf;
    struct mp_target_image t;
    uint64_t t0;

    memset(&elf, 0, sizeof(elf));
    if (mp_target_find(&a->target, &elf, &t) < 0)
        return -1;
    snprintf(run->where, sizeof(run->where), "%s %s", a->target.transport->name, a->target.endpoint);
    if (a->reset && prepare_target(a) < 0)
        return -1;
    t0 = mp_now_ms();
    /* The run: a signal ends it early and is dealt with by pulling. */
    if (a->duration > 0) {
        while (!mp_interrupted() && mp_now_ms() - t0 < (uint64_t)(a->duration * 1000))
            mp_sleep_ms(20);
    } else {
        while (!mp_interrupted())
            mp_sleep_ms(100);
    }
    run->seconds = (double)(mp_now_ms() - t0) / 1000.0;
    if (mp_interrupted()) {
        snprintf(run->ended, sizeof(run->ended), "pulled at %s", mp_signal_name(mp_interrupt_signal()));
        mp_interrupt_defer();
    } else {
        snprintf(run->ended, sizeof(run->ended), "pulled after --duration");
    }
    return mp_record_pull(a, &elf, &t, run);
}

int mp_record_pull(struct record_args *a, const struct mp_elf_info *elf, struct mp_target_image *t,
                   const struct record_run *run)
{
    struct mp_pull_opts o = {a->halt, 0, a->target.timeout_ms, NULL, NULL, a->target.force};
    struct mp_link *l;
    int r, ret = -1;

    mp_target_start_deadline(&a->target);
    if (!(l = mp_target_connect(&a->target, elf, t)))
        return -1;
    if (a->qemu_dir) {
        /* what a third signal says of a freeze held: QEMU dies with us */
        char words[sizeof(a->target.release_cmd)];

        snprintf(words, sizeof(words), "nothing (QEMU ends with mcuprof; its working directory %.300s is left)",
                 a->qemu_dir);
        mp_pull_set_release_hint(l->name, "record", words);
    }
    r = mp_pull_snapshot(l, t, &o);
    /* Closes the link: the core runs on, never left frozen unsaid. */
    if (mp_target_leave(&a->target, l, t) == 0 && r == 0)
        ret = mp_record_finish(a, run, t->img.name, t->data, t->size);
    mp_pull_free(t);
    return ret;
}

static int mp_cmd_record(int argc, char **argv)
{
    struct record_args a;
    struct record_run run;
    int r, ret = MP_EXIT_FAIL;

    memset(&a, 0, sizeof(a));
    memset(&run, 0, sizeof(run));
    mp_target_args_init(&a.target, "record");
    a.top = 10;
    r = parse_args(argc, argv, &a);
    if (r != 0)
        return r > 0 ? MP_EXIT_OK : MP_EXIT_USAGE;
    mp_diag_hold();
    mp_interrupt_catch();
    if (check_outputs(&a) == 0) {
        if (a.on_target)
            r = record_target(&a, &run);
        else
            r = mp_record_qemu(&a, &run);
        if (r == 0)
            ret = MP_EXIT_OK;
        else if (r == -2)
            ret = MP_EXIT_USAGE;
    }
    mp_diag_release(1);
    if (ret == MP_EXIT_FAIL)
        ret = mp_target_exit_status(0);
    return ret;
}

const struct mp_command mp_command_record = {
    .name = "record",
    .summary = "run firmware (under QEMU, or on a target) and write its profile",
    .run = mp_cmd_record,
    .help = mp_help_record,
};

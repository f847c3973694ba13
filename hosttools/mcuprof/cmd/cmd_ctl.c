/*
 * cmd_ctl.c - `mcuprof ctl start|stop|reset|status|release`: profile the phase a
 * user chooses, on a running target, without changing its firmware.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <mcuprof/image.h>

#include "commands.h"
#include "diag.h"
#include "hook_syms.h"
#include "interrupt.h"
#include "target_ctl.h"
#include "target_cmdline.h"
#include "target_open.h"

/* The actions by name, in enum mp_ctl_op's order: the one list the
 * parser, the usage and the error take them from. */
static const char *const op_names[] = {"start", "stop", "reset", "status", "release"};
#define NOPS (sizeof(op_names) / sizeof(op_names[0]))
_Static_assert(NOPS == MP_CTL_RELEASE + 1, "an action without a name");

/* The action names joined by SEP into BUF. */
static const char *op_list(const char *sep, char *buf, size_t size)
{
    size_t i, n = 0;

    buf[0] = '\0';
    for (i = 0; i < NOPS && n < size; i++)
        n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? sep : "", op_names[i]);
    return buf;
}

static void mp_help_ctl(FILE *f)
{
    char ops[64];

    fprintf(f, "Usage: mcuprof ctl %s ", op_list("|", ops, sizeof(ops)));
    mp_transports_usage(f);
    fputs("\n"
          "                   (--elf FILE | --address ADDR) [options]\n"
          "\n"
          "Switch profiling on a running target on or off, zero its tables, or show\n"
          "its state, through a debug server, without the firmware's help:\n"
          "  start    set the header's ARCS and SAMPLING state bits: the call hook records\n"
          "           arcs and the sampler fills bins\n"
          "  stop     clear them: the hook returns at once, the sampler counts nothing\n"
          "  reset    zero the tables as `pull --reset` drains them (arc records, buckets,\n"
          "           bins, arcs_used, the lost_* counters, samples_taken; generation + 1)\n"
          "  status   one line (running or stopped, samples, arcs), then the state bits,\n"
          "           generation, samples_taken, arcs_used, freeze_request and freeze_ack,\n"
          "           and whether the sampler answered a freeze\n"
          "  release  withdraw a freeze left behind (a pull or ctl killed, or cut off from\n"
          "           the target, while it held one): write 0 to freeze_request and wait\n"
          "           until freeze_ack is 0\n"
          "\n",
          f);
    mp_transports_help(f);
    fputs("  -e, --elf FILE           the firmware: the image lies between its symbols\n"
          "                           __mcuprof_start and __mcuprof_end, and its build-id\n"
          "                           must match the image's\n"
          "  -a, --address ADDR       the image's address (its size comes from its header)\n"
          "      --halt               stop the core while changing, instead of freezing;\n"
          "                           start and stop then need --elf\n"
          "      --force              take over a freeze another host holds, and go on\n"
          "                           despite a build-id, place or machine mismatch (warnings)\n"
          "  -t, --timeout SECONDS    how long any one answer may take, and the longest\n"
          "                           wait for the freeze (0.01 to 3600, default 5)\n"
          "      --deadline SECONDS   how long the whole command may talk to the target\n"
          "                           (default 10 times --timeout); a freeze held then\n"
          "                           gets two --timeouts more to be released\n"
          "  -h, --help               this text\n"
          "\n"
          "As `pull` does, ctl writes a token to the header's freeze_request and waits\n"
          "until the firmware's sampler tick copies it to freeze_ack; it changes the\n"
          "state bits while frozen and releases. The tick that serves the release\n"
          "switches the call hook to what the bits say, and the sampler reads them at\n"
          "every tick: from that tick on, the change holds exactly. Without a running\n"
          "sampler timer nothing answers: use --halt, which stops the core, writes the\n"
          "bits and the hook's mode pointer (mcuprof_hook_dispatch, hence --elf) and\n"
          "lets it run (a stop can land inside the hook: a call already past its check\n"
          "may add its one count). status asks for a freeze and releases it at once,\n"
          "unless --halt is given or another host holds one; it fails only when the\n"
          "target cannot be read.\n"
          "\n"
          "A freeze_request already set means another host is pulling, or one ended\n"
          "without releasing: ctl refuses to touch the image unless --force; release\n"
          "withdraws it (make sure no pull is running).\n"
          "\n"
          "Ctrl-C, SIGTERM or SIGHUP stop ctl at once; a freeze it holds is released\n"
          "first (a second signal skips that). If the release fails (the server went\n"
          "away), ctl says so: the address of freeze_request, the token it holds, and\n"
          "the `ctl release` command that clears it. Exit status: 0 done, 1 failed,\n"
          "2 usage, 128 + the signal's number when a signal stopped it.\n",
          f);
}

struct ctl_args {
    struct mp_target_args target;
    enum mp_ctl_op op;
    int halt;
};


static int parse_op(const char *s, enum mp_ctl_op *op)
{
    char ops[64];
    size_t i;

    for (i = 0; i < NOPS; i++) {
        if (strcmp(s, op_names[i]) == 0) {
            *op = (enum mp_ctl_op)i;
            return 0;
        }
    }
    return mp_error(NULL, "ctl: unknown action '%s' (actions: %s)", s, op_list(", ", ops, sizeof(ops)));
}

static int parse_args(int argc, char **argv, struct ctl_args *a)
{
    static const struct option own[] = {
        {"halt", no_argument, NULL, 'H'},
    };
    struct mp_target_cmdline cl;
    char ops[64];
    int c;

    mp_target_cmdline_init(&cl, &a->target, NULL, own, sizeof(own) / sizeof(own[0]), "", 1);
    while ((c = mp_target_cmdline_next(&cl, argc, argv)) != -1) {
        switch (c) {
        case 'H': a->halt = 1; break;
        case 'h':
            mp_help_ctl(stdout);
            return 1;
        default:
            return -1;
        }
    }
    if (cl.npos == 0)
        return mp_error(NULL, "ctl: say what to do: %s (see 'mcuprof help ctl')", op_list(", ", ops, sizeof(ops)));
    if (mp_target_cmdline_end(&cl) < 0)
        return -1;
    if (parse_op(cl.pos[0], &a->op) < 0 || mp_target_finish(&a->target) < 0)
        return -1;
    if (a->halt && (a->op == MP_CTL_START || a->op == MP_CTL_STOP) && !a->target.elf)
        return mp_error(NULL, "ctl: %s --halt needs --elf: the call hook's mode pointer "
                              "(mcuprof_hook_dispatch) is found through the firmware's symbols",
                        op_names[a->op]);
    return 0;
}

/* "running, N samples, M arcs", as a user asks "is it on?". */
static void print_line(const struct mp_ctl_header *h)
{
    uint32_t on = h->state & (MCUPROF_STATE_ARCS_Msk | MCUPROF_STATE_SAMPLING_Msk);

    printf("%s%s, %" PRIu32 " sample%s, %" PRIu32 " arc%s\n",
           on == (MCUPROF_STATE_ARCS_Msk | MCUPROF_STATE_SAMPLING_Msk) ? "running"
           : on == 0                                                  ? "stopped"
           : on == MCUPROF_STATE_ARCS_Msk                             ? "recording arcs only (sampling off)"
                                                                      : "sampling only (arcs off)",
           h->state & MCUPROF_STATE_FROZEN_Msk ? " (frozen)" : "", h->samples_taken,
           h->samples_taken == 1 ? "" : "s", h->arcs_used, h->arcs_used == 1 ? "" : "s");
}

/* The labels and layout of `mcuprof info`, so a script reads both alike. */
#define LABEL "  %-28s "

static void print_status(const struct ctl_args *a, const struct mp_target_image *t, const struct mp_ctl_result *r)
{
    const struct mp_ctl_header *h = &r->after;

    print_line(h);
    printf(LABEL "0x%" PRIx64 "\n", "image address", t->addr);
    printf(LABEL "0x%" PRIx32 " (arcs %s, sampling %s%s)\n", "state", h->state,
           h->state & MCUPROF_STATE_ARCS_Msk ? "on" : "off", h->state & MCUPROF_STATE_SAMPLING_Msk ? "on" : "off",
           h->state & MCUPROF_STATE_FROZEN_Msk ? ", frozen" : "");
    printf(LABEL "%" PRIu32 "\n", "generation", h->generation);
    printf(LABEL "%" PRIu32 "\n", "samples_taken", h->samples_taken);
    printf(LABEL "%" PRIu32 "\n", "arcs_used", h->arcs_used);
    printf(LABEL "%" PRIu32 "\n", "freeze_request", h->freeze_request);
    printf(LABEL "%" PRIu32 "\n", "freeze_ack", h->freeze_ack);
    printf(LABEL, "sampler");
    if (r->sampler == MP_CTL_SAMPLER_ANSWERED)
        printf("answered a freeze in %u ms\n", r->answer_ms);
    else if (r->sampler == MP_CTL_SAMPLER_SILENT)
        printf("did not answer: %s\n", r->why);
    else if (a->halt)
        printf("not asked (--halt)\n");
    else if (r->core_halted)
        printf("not asked: the core is halted\n");
    else
        printf("not asked: another host holds a freeze\n");
}

static int mp_cmd_ctl(int argc, char **argv)
{
    struct ctl_args a;
    struct mp_elf_info elf;
    struct mp_hook_syms hook;
    struct mp_target_image t;
    struct mp_ctl_opts o;
    struct mp_ctl_result res;
    struct mp_link *l;
    int r, ret = MP_EXIT_FAIL;

    memset(&a, 0, sizeof(a));
    memset(&elf, 0, sizeof(elf));
    mp_target_args_init(&a.target, "ctl");
    r = parse_args(argc, argv, &a);
    if (r != 0)
        return r > 0 ? MP_EXIT_OK : MP_EXIT_USAGE;

    memset(&o, 0, sizeof(o));
    o.halt = a.halt;
    o.force = a.target.force;
    o.timeout_ms = a.target.timeout_ms;
    mp_diag_hold();
    if (mp_target_find(&a.target, &elf, &t) < 0)
        goto out_release;
    mp_interrupt_catch();
    mp_target_start_deadline(&a.target);
    if (a.halt && (a.op == MP_CTL_START || a.op == MP_CTL_STOP)) {
        if (mp_hook_syms_read(&hook, a.target.elf) < 0)
            goto out_release;
        o.hook = &hook;
    } else if (a.target.elf && (a.op == MP_CTL_START || a.op == MP_CTL_STOP)) {
        /* for a core found halted (mp_ctl_run): there only */
        mp_diag_quiet(1);
        if (mp_hook_syms_read(&hook, a.target.elf) == 0)
            o.hook = &hook;
        mp_diag_quiet(0);
    }
    if (!(l = mp_target_connect(&a.target, &elf, &t)))
        goto out_release;
    r = mp_ctl_run(l, &t, a.op, &o, &res);
    /* Closes the link; never leaves the target frozen without saying so. */
    if (mp_target_leave(&a.target, l, &t) < 0)
        r = -1;
    if (r == 0) {
        ret = MP_EXIT_OK;
        if (a.op == MP_CTL_STATUS) {
            print_status(&a, &t, &res);
        } else {
            if (a.op == MP_CTL_RESET)
                printf("zeroed %" PRIu32 " samples and %" PRIu32 " arcs (%" PRIu64 " calls); generation %" PRIu32
                       " -> %" PRIu32 "\n",
                       res.before.samples_taken, res.before.arcs_used, res.zeroed_calls, res.before.generation,
                       res.after.generation);
            if (a.op == MP_CTL_RELEASE && res.before.freeze_request == 0)
                printf("no freeze to release\n");
            else if (a.op == MP_CTL_RELEASE)
                printf("released the freeze 0x%08" PRIx32 " (freeze_ack was 0x%08" PRIx32 ")\n",
                       res.before.freeze_request, res.before.freeze_ack);
            print_line(&res.after);
        }
    }
    mp_pull_free(&t);
out_release:
    mp_diag_release(1);
    return ret == MP_EXIT_OK ? ret : mp_target_exit_status(0);
}

const struct mp_command mp_command_ctl = {
    .name = "ctl",
    .summary = "start, stop, reset or show profiling on a running target",
    .run = mp_cmd_ctl,
    .help = mp_help_ctl,
};

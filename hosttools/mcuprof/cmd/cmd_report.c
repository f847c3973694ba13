/*
 * cmd_report.c - `mcuprof report`: a flat profile, a call graph and the
 * hottest source lines, read from the profile model without gprof. This
 * file loads the model and chooses what is printed; report_*.c print.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "callgraph.h"
#include "commands.h"
#include "diag.h"
#include "file_io.h"
#include "input_kind.h"
#include "model.h"
#include "model_load.h"
#include "no_calls_warn.h"
#include "report.h"
#include "timing.h"
#include "trust.h"

static void mp_help_report(FILE *f)
{
    fputs("Usage: mcuprof report FILE --elf ELF [--top N] [--function REGEX] [--lines]\n"
          "                      [--no-graph] [--force] [--warn PCT] [--shared-threshold PCT]\n"
          "                      [--min-samples N] [--task NAME] [--no-demangle]\n"
          "\n"
          "Print a profile image (or a gmon.out) as gprof would, without gprof: what\n"
          "was counted and lost, a flat profile, a compact call graph and, with\n"
          "--lines, the hottest source lines of each function. A gmon.out has no\n"
          "build-id to check against the ELF and no loss counters.\n"
          "\n"
          "  -e, --elf ELF          the firmware's ELF (its build-id must match the image's)\n"
          "  -n, --top N            only the N functions with the most self time (flat\n"
          "                         profile, lines) and inclusive time (call graph);\n"
          "                         0: all (the default)\n"
          "  -F, --function REGEX   only functions whose name matches REGEX (POSIX\n"
          "                         extended, unanchored: '^work' for a prefix); a\n"
          "                         C++ name in either form, 'Filter::step' or\n"
          "                         '_ZN6Filter4step'\n"
          "  -l, --lines            source lines from the ELF's DWARF (build with -g)\n"
          "      --no-graph         leave the call graph out\n"
          "      --task NAME        instead of the flat profile and call graph, the flat\n"
          "                         profile of RTOS task NAME from the call paths recorded\n"
          "                         in it (a runtime built with PATHS and TASKS)\n"
          "      --force            report despite a build-id or place mismatch (a warning)\n"
          MP_TRUST_HELP
          "      --no-demangle      C++ names as the ELF spells them (not demangled)\n"
          "  -h, --help             this text\n"
          "\n"
          "Every percentage is of gprof's total: the samples in functions gprof shows\n"
          "(binned samples less those outside every function and those in functions\n"
          "gprof hides, such as mcount), so '% time' is the number gprof's flat profile\n"
          "prints, but for GCC's clones (foo.constprop.0, foo.isra.0, foo.part.0, foo.cold),\n"
          "each its own function here, where gprof charges most of them to the function\n"
          "before them ('mcuprof check' lists those). The header gives that total against every sample taken. The 95 %\n"
          "interval is Wilson's, for the share of that total.\n"
          "\n"
          "calls: as gprof counts them, calls from another function; recursive calls and\n"
          "calls from outside code (an interrupt entry) are listed in the call graph.\n"
          "Inclusive time is gprof's estimate: a callee's time shared among its callers\n"
          "in proportion to their calls, which is wrong when one caller's calls cost more\n"
          "than another's. A runtime built with PATHS records the call path of every\n"
          "sample: 'incl % (paths)' and the call graph's '(paths)' column are then the\n"
          "measured inclusive time, a share of the samples the path table counted.\n"
          "\n"
          "Source lines: each bin's samples are split among the lines its bytes hold, as\n"
          "gprof splits bins among functions; code no line describes is listed apart.\n",
          f);
}

struct report_opts {
    const char *elf;
    uint64_t top; /* 0: every function */
    struct mp_name_regex *re; /* --function, or NULL */
    int lines, graph, force;
    const char *task; /* --task NAME, or NULL */
    struct mp_trust_opts trust;
};

/* --task NAME names a task whose paths M holds: else one error line,
 * listing the names it knows. */
static int check_task(const struct mp_model *m, const char *name)
{
    char names[512];

    if (!mp_task_profile_possible(m))
        return mp_error(m->name, "report --task needs call paths that record their task, and the image has %s: build"
                                 " the runtime with PATHS and TASKS (MCUPROF_CFG_PATHS, MCUPROF_CFG_TASKS)",
                        !m->has_paths ? "no path table" : !m->has_tasks ? "no task table" : "paths without tasks");
    if (mp_task_profile_known(m, name))
        return 0;
    mp_task_profile_names(m, names, sizeof(names));
    return mp_error(m->name, "report --task: no task named '%s'; the image's tasks: %s", name,
                    names[0] ? names : "none");
}

/* The header, then task NAME's flat profile. */
static int print_task(const struct mp_report *r, const struct report_opts *o)
{
    struct mp_task_profile tp;
    int ret;

    if (mp_task_profile_compute(&tp, r->m, o->task) < 0)
        return -1;
    mp_report_header(stdout, r);
    ret = mp_report_task(stdout, r, &tp, o->task, o->re, o->top);
    mp_task_profile_free(&tp);
    return ret;
}

/* Print the report of model M (with ELF functions). */
static int print_report(const struct mp_model *m, const struct report_opts *o)
{
    struct mp_callgraph g;
    struct mp_path_incl pi;
    struct mp_report r;
    int ret = -1;

    if (o->task && check_task(m, o->task) < 0)
        return -1;
    if (mp_report_begin(&r, &g, &pi, m) < 0)
        return -1;
    if (o->task) {
        ret = print_task(&r, o);
    } else if (mp_report_select(&r, o->re, o->top) == 0) {
        mp_report_header(stdout, &r);
        mp_report_flat(stdout, &r);
        if (!o->graph || mp_report_graph(stdout, &r) == 0) {
            if (o->lines)
                mp_report_lines(stdout, &r);
            ret = 0;
        }
    }
    mp_report_end(&r, &g, &pi);
    if (fflush(stdout) != 0 || ferror(stdout))
        ret = mp_error(NULL, "report: cannot write the report to standard output");
    return ret;
}

/* The model's source lines when asked for, then the report. */
static int lines_and_print(struct mp_model *m, const struct report_opts *o)
{
    if (o->lines && mp_model_attach_lines(m) < 0)
        return -1;
    return print_report(m, o);
}

/* The ELF belongs to the image: the build-id check convert makes, then
 * its functions, which must be the image's machine's even with --force. */
static int report_image(const char *in, const uint8_t *data, size_t len, const struct report_opts *o)
{
    struct mp_image_elf e = {o->elf, 1, o->force, 0};
    struct mp_model m;
    int ret = MP_EXIT_FAIL;

    if (mp_model_load_image(&m, in, data, len, &e) < 0)
        return MP_EXIT_FAIL;
    if (lines_and_print(&m, o) == 0) {
        mp_trust_warn(&m, &o->trust);
        mp_warn_no_calls(&m);
        mp_timing_warn(&m, o->trust.warn_pct);
        ret = MP_EXIT_OK;
    }
    mp_model_free(&m);
    return ret;
}

/* A gmon.out has no build-id to check and no loss counters to warn
 * about: the header says so. Its functions must be the ELF's
 * (mp_model_check_fit), as diff and info ask. */
static int report_gmon(const char *in, const uint8_t *data, size_t len, const struct report_opts *o)
{
    enum mp_input_kind kind;
    struct mp_model m;
    int ret = MP_EXIT_FAIL;

    if (mp_model_load_bytes(&m, in, data, len, o->elf, &kind) < 0)
        return MP_EXIT_FAIL;
    if (lines_and_print(&m, o) == 0)
        ret = MP_EXIT_OK;
    mp_model_free(&m);
    return ret;
}

static int report(const char *in, const struct report_opts *o)
{
    uint8_t *data = NULL;
    size_t len;
    int ret = MP_EXIT_FAIL;

    mp_diag_hold();
    mp_file_note_input(o->elf);
    if (mp_read_file(in, MP_IMAGE_MAX, &data, &len) == 0) {
        /* an image by its magic (an empty file too: the image reader
         * names what is wrong); anything else is read as a gmon.out */
        if (len < 4 || mp_input_kind(data, len) == MP_INPUT_IMAGE)
            ret = report_image(in, data, len, o);
        else
            ret = report_gmon(in, data, len, o);
        free(data);
    }
    mp_diag_release(ret == MP_EXIT_OK);
    return ret;
}

static int usage_error(const char *what, const char *arg)
{
    mp_error(NULL, "report: %s%s%s (see 'mcuprof help report')", what, arg ? " " : "", arg ? arg : "");
    return MP_EXIT_USAGE;
}

/* A bad REGEX is a usage error naming it and regcomp's reason. */
static int compile_regex(struct report_opts *o, const char *arg)
{
    char why[160];

    mp_name_regex_free(o->re);
    if (mp_name_regex_compile(&o->re, arg, why, sizeof(why)) != 0) {
        mp_error(NULL, "report: --function '%s' is not a regular expression: %s", arg, why);
        return -1;
    }
    return 0;
}

static int parse(int argc, char **argv, struct report_opts *o, char **pos, int *npos)
{
    static const struct option longopts[] = {
        /* Each command lists its own options, as getopt_long wants them:
         * only the trust options are common, and they come in as one macro. */
        {"elf", required_argument, NULL, 'e'},
        {"top", required_argument, NULL, 'n'},
        {"function", required_argument, NULL, 'F'},
        {"lines", no_argument, NULL, 'l'},
        {"no-graph", no_argument, NULL, 'G'},
        {"task", required_argument, NULL, 'T'},
        {"force", no_argument, NULL, 'f'},
        MP_TRUST_LONGOPTS,
        MP_NO_DEMANGLE_LONGOPT,
        MP_GROUP_CLONES_LONGOPT,
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int c, ret;

    while ((c = mp_getopt(argc, argv, "e:n:F:lh", longopts, pos, 1, npos)) != -1) {
        switch (c) {
        case 'e':
            o->elf = optarg;
            break;
        case 'n':
            if (mp_trust_parse_count("--top", optarg, &o->top) < 0)
                return MP_EXIT_USAGE;
            break;
        case 'F':
            if (compile_regex(o, optarg) < 0)
                return MP_EXIT_USAGE;
            break;
        case 'l':
            /* refused before anything is read: the one line says why */
            if (!mp_have_source_lines()) {
                mp_error(NULL, "report --lines: " MP_NO_LIBDW);
                return MP_EXIT_FAIL;
            }
            o->lines = 1;
            break;
        case 'G':
            o->graph = 0;
            break;
        case 'T':
            o->task = optarg;
            break;
        case 'f':
            o->force = 1;
            break;
        default:
            if ((ret = mp_trust_or_help(c, optarg, &o->trust, mp_help_report)) != MP_OPTION_TAKEN)
                return ret == MP_EXIT_OK ? -1 : ret; /* -1: the help was printed */
            break;
        }
    }
    if (*npos != 1)
        return usage_error("expected one FILE, got", *npos ? "more" : "none");
    if (!o->elf)
        return usage_error("needs the firmware's ELF for function names: give --elf ELF", NULL);
    return MP_EXIT_OK;
}

static int mp_cmd_report(int argc, char **argv)
{
    struct report_opts o;
    struct mp_trust_opts trust = MP_TRUST_DEFAULTS;
    char *pos[1];
    int npos = 0, ret;

    memset(&o, 0, sizeof(o));
    o.graph = 1;
    o.trust = trust;
    ret = parse(argc, argv, &o, pos, &npos);
    if (ret == MP_EXIT_OK)
        ret = report(pos[0], &o);
    else if (ret < 0)
        ret = MP_EXIT_OK; /* --help */
    mp_name_regex_free(o.re);
    return ret;
}

const struct mp_command mp_command_report = {
    .name = "report",
    .summary = "print a flat profile and call graph, without gprof",
    .run = mp_cmd_report,
    .help = mp_help_report,
};

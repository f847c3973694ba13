/*
 * mcuprof - turn a profile image from the target into gmon.out for gprof.
 *
 * main() only dispatches: each command lives in its own file with its
 * entry (commands.h), and the table here is made of those entries.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "commands.h"
#include "diag.h"
#include "text_wrap.h"

#define MP_COMMAND_FILE(name) &mp_command_##name,
static const struct mp_command *const commands[] = {
#include "command_files.h"
};
#undef MP_COMMAND_FILE

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))
/* Where a summary's second line starts, and the width summaries are
 * wrapped to. */
#define SUMMARY_COL 13
#define USAGE_WIDTH 76

static void usage(FILE *f)
{
    size_t i;

    fputs("Usage: mcuprof COMMAND [ARGS]\n"
          "       mcuprof help COMMAND\n"
          "       mcuprof --help | --version\n"
          "\n"
          "Commands:\n",
          f);
    for (i = 0; i < NCOMMANDS; i++) {
        char summary[256];
        int col;

        if (commands[i]->describe)
            commands[i]->describe(summary, sizeof(summary));
        else
            snprintf(summary, sizeof(summary), "%s", commands[i]->summary);
        col = fprintf(f, "  %-10s ", commands[i]->name);
        mp_wrap(f, summary, col > 0 ? (unsigned)col : 0, SUMMARY_COL, USAGE_WIDTH);
    }
    fputs("\nExit status: 0 on success, 1 on failure, 2 on a usage error.\n", f);
}

static const struct mp_command *find_command(const char *name)
{
    size_t i;

    for (i = 0; i < NCOMMANDS; i++) {
        if (strcmp(commands[i]->name, name) == 0)
            return commands[i];
    }
    return NULL;
}

static int unknown_command(const char *name)
{
    char names[128];
    size_t i, n = 0;

    names[0] = '\0';
    for (i = 0; i < NCOMMANDS && n < sizeof(names); i++)
        n += (size_t)snprintf(names + n, sizeof(names) - n, "%s%s", i ? ", " : "", commands[i]->name);
    mp_error(NULL, "unknown command '%s' (commands: %s; see 'mcuprof --help')", name, names);
    return MP_EXIT_USAGE;
}

static int help(int argc, char **argv)
{
    const struct mp_command *cmd;

    if (argc < 2) {
        usage(stdout);
        return MP_EXIT_OK;
    }
    cmd = find_command(argv[1]);
    if (!cmd)
        return unknown_command(argv[1]);
    cmd->help(stdout);
    return MP_EXIT_OK;
}

int mp_getopt(int argc, char **argv, const char *shortopts, const struct option *longopts,
              char **pos, int maxpos, int *npos)
{
    /* '+': stop at the first non-option instead of permuting (the portable
     * behaviour), ':': report a missing argument as ':' */
    char opts[64];
    int c;

    snprintf(opts, sizeof(opts), "+:%s", shortopts);
    opterr = 0;
    for (;;) {
        if (optind < argc && strcmp(argv[optind], "--") == 0) {
            for (optind++; optind < argc; optind++) {
                if (*npos < maxpos)
                    pos[*npos] = argv[optind];
                (*npos)++;
            }
            return -1;
        }
        c = getopt_long(argc, argv, opts, longopts, NULL);
        if (c == '?') {
            if (optopt)
                mp_error(NULL, "%s: unknown option -%c", argv[0], optopt);
            else
                mp_error(NULL, "%s: unknown option %s", argv[0], argv[optind - 1]);
            return '?';
        }
        if (c == ':') {
            mp_error(NULL, "%s: option %s needs an argument", argv[0], argv[optind - 1]);
            return '?';
        }
        if (c != -1)
            return c;
        if (optind >= argc)
            return -1;
        if (*npos < maxpos)
            pos[*npos] = argv[optind];
        (*npos)++;
        optind++;
    }
}

int main(int argc, char **argv)
{
    const struct mp_command *cmd;

    mp_args_start(&argc, &argv);
    if (argc < 2) {
        usage(stderr);
        return MP_EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)
        return help(1, argv + 1);
    /* the version command's own code, so that `mcuprof version` and
     * `mcuprof --version` print the same line */
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0)
        return mp_command_version.run(argc - 1, argv + 1);
    if (strcmp(argv[1], "help") == 0)
        return help(argc - 1, argv + 1);
    cmd = find_command(argv[1]);
    if (!cmd)
        return unknown_command(argv[1]);
    optind = 1;
    return cmd->run(argc - 1, argv + 1);
}

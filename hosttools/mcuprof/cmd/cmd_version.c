/*
 * mcuprof version - print the tool's version, the line `mcuprof --version`
 * prints (main.c sends --version and -V here, so the two cannot differ).
 */
#include <string.h>

#include "build_lacks.h"
#include "commands.h"
#include "diag.h"

#ifndef MCUPROF_VERSION
#error "MCUPROF_VERSION must be defined by the build (the CMake project version)"
#endif

static void mp_help_version(FILE *f)
{
    fputs("Usage: mcuprof version\n"
          "       mcuprof --version | -V\n"
          "\n"
          "Print 'mcuprof' and the tool's version (the CMake project version) on\n"
          "one line; then, for a build that lacks a feature a full build has\n"
          "(source lines without libdw, say), one line 'this build lacks: ...' each.\n"
          "\n"
          "  -h, --help  this text\n",
          f);
}

static int mp_cmd_version(int argc, char **argv)
{
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        mp_help_version(stdout);
        return MP_EXIT_OK;
    }
    if (argc > 1) {
        mp_error(NULL, "%s: takes no arguments, got '%s'", argv[0], argv[1]);
        return MP_EXIT_USAGE;
    }
    printf("mcuprof %s\n", MCUPROF_VERSION);
    mp_print_build_lacks(stdout, NULL);
    return MP_EXIT_OK;
}

const struct mp_command mp_command_version = {
    .name = "version",
    .summary = "print the tool's version, as --version does",
    .run = mp_cmd_version,
    .help = mp_help_version,
};

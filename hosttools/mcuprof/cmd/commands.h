/*
 * commands.h - the subcommands of `mcuprof`. Each lives in its own file
 * with its own help text; main.c only dispatches.
 *
 * A command returns the process exit status: 0 on success, 1 on failure,
 * 2 on a usage error. Only main() exits.
 */
#ifndef MCUPROF_COMMANDS_H
#define MCUPROF_COMMANDS_H

#include <stdio.h>

#define MP_EXIT_OK 0
#define MP_EXIT_FAIL 1
#define MP_EXIT_USAGE 2

/* Largest image the tool reads: image_size is a uint32. */
#define MP_IMAGE_MAX ((size_t)UINT32_MAX)

struct mp_command {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv);
    void (*help)(FILE *f);
};

int mp_cmd_check(int argc, char **argv);
void mp_help_check(FILE *f);
int mp_cmd_convert(int argc, char **argv);
void mp_help_convert(FILE *f);
int mp_cmd_info(int argc, char **argv);
void mp_help_info(FILE *f);
int mp_cmd_pull(int argc, char **argv);
void mp_help_pull(FILE *f);
int mp_cmd_report(int argc, char **argv);
void mp_help_report(FILE *f);
int mp_cmd_diff(int argc, char **argv);
void mp_help_diff(FILE *f);
int mp_cmd_ctl(int argc, char **argv);
void mp_help_ctl(FILE *f);

/* Collect the positional arguments of a command while getopt_long parses
 * its options anywhere on the line (some getopt implementations stop at
 * the first non-option). Returns the option character like getopt_long, or
 * -1 when all arguments are consumed; positional ones are stored in POS
 * (up to MAXPOS, the count in *NPOS; extra ones are counted too). */
struct option;
int mp_getopt(int argc, char **argv, const char *shortopts, const struct option *longopts,
              char **pos, int maxpos, int *npos);

/* The end of the option switch of a command that takes the trust options
 * (trust.h MP_TRUST_LONGOPTS) and --help: option C taken into O
 * (MP_OPTION_TAKEN), HELP printed (MP_EXIT_OK), or a usage error. */
#define MP_OPTION_TAKEN (-1)
struct mp_trust_opts;
int mp_trust_or_help(int c, const char *arg, struct mp_trust_opts *o, void (*help)(FILE *f));

#endif /* MCUPROF_COMMANDS_H */

/* PLACEHOLDER: being written. */
#include "commands.h"
#include "diag.h"

void mp_help_diff(FILE *f)
{
    fputs("mcuprof diff: not available yet\n", f);
}

int mp_cmd_diff(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    mp_error(NULL, "diff: not available yet");
    return MP_EXIT_FAIL;
}

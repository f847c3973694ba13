/* PLACEHOLDER: being written. */
#include "commands.h"
#include "diag.h"

void mp_help_report(FILE *f)
{
    fputs("mcuprof report: not available yet\n", f);
}

int mp_cmd_report(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    mp_error(NULL, "report: not available yet");
    return MP_EXIT_FAIL;
}

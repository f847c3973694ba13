/*
 * args_posix.c - the arguments are the bytes given (args.h).
 */
#include "args.h"

void mp_args_start(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
}

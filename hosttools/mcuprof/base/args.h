/*
 * args.h - the command line and the standard streams as the tool expects
 * them on every host, set once at the start of main.
 *
 * POSIX hosts: nothing to do, the arguments are the bytes given. Windows:
 * main's argv is in the ANSI code page, which cannot hold every file
 * name; the arguments are read again from GetCommandLineW and converted
 * to UTF-8, the console shows UTF-8 (its code page restored at exit), and
 * stdout and stderr are binary, so outputs end lines with LF as on Linux.
 */
#ifndef MCUPROF_ARGS_H
#define MCUPROF_ARGS_H

/* *ARGC and *ARGV replaced by the UTF-8 arguments where the host gives
 * another encoding (kept for the whole run); on failure they stay. */
void mp_args_start(int *argc, char ***argv);

#endif /* MCUPROF_ARGS_H */

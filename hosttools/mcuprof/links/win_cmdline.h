/*
 * win_cmdline.h - an argument vector as one Windows command line.
 *
 * A Windows program gets one string and splits it itself; the C runtimes
 * and CommandLineToArgvW split it by one set of rules, which this quotes
 * for: an argument with a blank or a '"' (or an empty one) is put in
 * quotes, a '"' in it is written \", and the backslashes before a '"' or
 * before the closing quote are doubled (elsewhere a backslash is itself).
 * The program's name (argv[0]) is split by a rule of its own: up to the
 * next quote, no escapes, so it is quoted when it holds a blank and
 * refused when it holds a '"' (no file name does).
 *
 * Plain C, no Windows API: built and tested on every host.
 */
#ifndef MCUPROF_WIN_CMDLINE_H
#define MCUPROF_WIN_CMDLINE_H

#include <stddef.h>

/* ARGV (NULL-terminated, UTF-8) as one command line into BUF: its length,
 * or -1 when it does not fit in SIZE bytes or ARGV[0] holds a '"'. */
long mp_win_cmdline(char *const argv[], char *buf, size_t size);

#endif /* MCUPROF_WIN_CMDLINE_H */

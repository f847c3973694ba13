/*
 * wide_name.h - UTF-8 and UTF-16 names for Windows' wide calls (only the
 * _win32.c files use it).
 */
#ifndef MCUPROF_WIDE_NAME_H
#define MCUPROF_WIDE_NAME_H

#include <wchar.h>

/* S (UTF-8) as UTF-16, malloc'd; NULL with errno set (EILSEQ: not
 * UTF-8, ENOMEM). */
wchar_t *mp_wide(const char *s);

/* W (UTF-16) as UTF-8, malloc'd; NULL with errno set. */
char *mp_narrow(const wchar_t *w);

#endif /* MCUPROF_WIDE_NAME_H */

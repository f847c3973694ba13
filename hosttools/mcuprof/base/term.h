/*
 * term.h - what the tool asks of a terminal: whether stderr is one, its
 * width, whether it acts on escape sequences, and UTF-8 on Windows'
 * console (term_posix.c, term_win32.c).
 */
#ifndef MCUPROF_TERM_H
#define MCUPROF_TERM_H

#include <stddef.h>
#include <stdio.h>

/* Whether F is a terminal (a console on Windows). */
int mp_term_is(FILE *f);

/* F's width in columns, 0 when unknown. */
size_t mp_term_columns(FILE *f);

/* Whether F acts on "ESC [ K" (erase to the end of the line): always on
 * POSIX hosts; on Windows once virtual terminal processing could be
 * turned on for the console. */
int mp_term_vt(FILE *f);

/* Windows: the console shows UTF-8 (SetConsoleOutputCP) until the tool
 * ends, its code page then restored (at exit, or by mp_term_restore when
 * the tool is ended at once). POSIX hosts: nothing to do. */
void mp_term_utf8(void);
void mp_term_restore(void);

#endif /* MCUPROF_TERM_H */

/*
 * term.h - what diag.c asks of a terminal: whether stderr is one, its
 * width, and whether it acts on escape sequences (term_posix.c,
 * term_win32.c).
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

#endif /* MCUPROF_TERM_H */

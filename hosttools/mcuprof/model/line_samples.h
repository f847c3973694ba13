/*
 * line_samples.h - a model's self samples per source line (model.h
 * lines), from its bins and its line-table rows.
 */
#ifndef MCUPROF_LINE_SAMPLES_H
#define MCUPROF_LINE_SAMPLES_H

#include "model.h"

/* The file name of code no line-table row covers (alignment padding,
 * code without -g, rows of line 0), with line 0: addr2line's "??". */
#define MP_LINE_UNKNOWN_FILE "??"

/* Fill m->lines from m->ranges, m->funcs and m->linerows. Returns -1 on
 * out of memory (reported). */
int mp_line_samples(struct mp_model *m);

#endif /* MCUPROF_LINE_SAMPLES_H */

/*
 * folded.h - the folded-stack writer (format_folded.c), shared by the two
 * formats that write it: `folded` (stacks as recorded) and `folded-task`
 * (format_folded_task.c: rooted at the task each path ran in).
 */
#ifndef MCUPROF_FOLDED_H
#define MCUPROF_FOLDED_H

#include <stdio.h>

#include "model.h"

/* The paths of M as folded stacks to F; BY_TASK: each rooted at
 * `[task NAME]` (and `[CONTEXT]` but for a thread sample). */
int mp_folded_write(const struct mp_model *m, FILE *f, int by_task);

/* M has paths, else one error naming FORMAT. */
int mp_folded_check(const struct mp_model *m, const char *format);

#endif /* MCUPROF_FOLDED_H */

/*
 * context_print.h - print a model's samples by context and by task.
 */
#ifndef MCUPROF_CONTEXT_PRINT_H
#define MCUPROF_CONTEXT_PRINT_H

#include <stdio.h>

#include "model.h"

void mp_print_contexts(FILE *f, const struct mp_model *m);

#endif /* MCUPROF_CONTEXT_PRINT_H */

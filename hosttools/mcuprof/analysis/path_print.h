/*
 * path_print.h - the call-path table of a profile as `info` prints it.
 */
#ifndef MCUPROF_PATH_PRINT_H
#define MCUPROF_PATH_PRINT_H

#include <stdio.h>

#include "model.h"

/* The path table of M, when it has one: entries in use, what it lost and
 * truncated, and the paths with the most samples, named from M's
 * functions (addresses without them). Nothing when M has no path table. */
void mp_print_paths(FILE *f, const struct mp_model *m);

#endif /* MCUPROF_PATH_PRINT_H */

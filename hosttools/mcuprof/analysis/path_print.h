/*
 * path_print.h - the call-path table of an image as `info` prints it.
 */
#ifndef MCUPROF_PATH_PRINT_H
#define MCUPROF_PATH_PRINT_H

#include <stdio.h>

#include "elf_funcs.h"
#include "image_read.h"

/* The path table of IMG, when it has one: entries in use, what it lost
 * and truncated, and the paths with the most samples, named from TAB
 * (NULL: addresses). Nothing when IMG has no path table. */
void mp_print_paths(FILE *f, const struct mp_image *img, const struct mp_functab *tab);

#endif /* MCUPROF_PATH_PRINT_H */

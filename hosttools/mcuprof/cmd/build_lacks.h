/*
 * build_lacks.h - what this build of the tool lacks that a full Linux
 * build has (a library not found at build time, or none for the host),
 * said by `--version` and at the end of `--help`, so a missing feature is
 * known before it is asked for (using it is one error or warning too).
 */
#ifndef MCUPROF_BUILD_LACKS_H
#define MCUPROF_BUILD_LACKS_H

#include <stdio.h>

/* One line "this build lacks: ..." to F per missing feature, BEFORE
 * written first when there is one; nothing for a full build. */
void mp_print_build_lacks(FILE *f, const char *before);

#endif /* MCUPROF_BUILD_LACKS_H */

/* build_lacks.c - what this build lacks (build_lacks.h). */
#include "build_lacks.h"

#include "cxx_demangler.h"
#include "model.h"

void mp_print_build_lacks(FILE *f, const char *before)
{
    if ((!mp_have_source_lines() || mp_demangler_lacks) && before)
        fputs(before, f);
    if (!mp_have_source_lines())
        fputs("this build lacks: source lines (built without elfutils' libdw): report --lines "
              "is refused; pprof, callgrind and JSON have functions without lines; diff matches static "
              "functions of one name by address order\n",
              f);
    if (mp_demangler_lacks)
        fprintf(f, "this build lacks: %s\n", mp_demangler_lacks);
}

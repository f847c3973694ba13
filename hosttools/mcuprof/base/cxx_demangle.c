/*
 * cxx_demangle.c - C++ names through libiberty's cplus_demangle
 * (cxx_demangle.h).
 */
#include <stdlib.h>

#include <libiberty/demangle.h> /* Debian libiberty-dev (hosttools/CMakeLists.txt) */

#include "cxx_demangle.h"

/* The process's choice: one run of the tool shows one kind of name. */
static int demangle_on = 1;

int mp_demangle_enabled(void)
{
    return demangle_on;
}

void mp_demangle_enable(int on)
{
    demangle_on = on != 0;
}

char *mp_demangle(const char *sym)
{
    /* gprof's options (print_name_only in gprof/sym_ids.c): parameter
     * types and cv-qualifiers, so overloads stay apart */
    return demangle_on && sym ? cplus_demangle(sym, DMGL_ANSI | DMGL_PARAMS) : NULL;
}

/*
 * cxx_demangle_posix.c - C++ names through libiberty's cplus_demangle
 * (cxx_demangler.h).
 */
#include <libiberty/demangle.h> /* Debian libiberty-dev (hosttools/CMakeLists.txt) */

#include "cxx_demangler.h"

char *mp_demangle_name(const char *sym)
{
    /* gprof's options (print_name_only in gprof/sym_ids.c): parameter
     * types and cv-qualifiers, so overloads stay apart */
    return cplus_demangle(sym, DMGL_ANSI | DMGL_PARAMS);
}

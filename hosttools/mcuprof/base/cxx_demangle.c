/*
 * cxx_demangle.c - C++ names through libiberty's cplus_demangle
 * (cxx_demangle.h).
 */
#include <stdlib.h>
#include <string.h>

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
    /* Longer names are shown as they are, without asking libiberty: its
     * C++ demangler gives up on them anyway (it refuses a name needing
     * more than DEMANGLE_RECURSION_LIMIT components, two per character,
     * rather than size its stack arrays by it: GCC PR 87675), and the
     * Rust and D demanglers cplus_demangle tries first then work on at
     * most this much. DMGL_NO_RECURSE_LIMIT is never passed: libiberty
     * keeps its recursion limits. */
    if (!demangle_on || !sym || !memchr(sym, '\0', MP_DEMANGLE_MAX + 1))
        return NULL;
    /* gprof's options (print_name_only in gprof/sym_ids.c): parameter
     * types and cv-qualifiers, so overloads stay apart */
    return cplus_demangle(sym, DMGL_ANSI | DMGL_PARAMS);
}

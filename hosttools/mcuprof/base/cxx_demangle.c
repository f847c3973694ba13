/*
 * cxx_demangle.c - the --no-demangle switch and the length cap
 * (cxx_demangle.h); the demangler itself is cxx_demangle_posix.c
 * (libiberty) or cxx_demangle_win32.c (__cxa_demangle).
 */
#include <string.h>

#include "cxx_demangle.h"
#include "cxx_demangler.h"

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
    /* Longer names are shown as they are, without asking the demangler:
     * libiberty's C++ demangler (which __cxa_demangle is too) gives up
     * on them anyway (it refuses a name needing more than
     * DEMANGLE_RECURSION_LIMIT components, two per character, rather
     * than size its stack arrays by it: GCC PR 87675), and the Rust and
     * D demanglers cplus_demangle tries first then work on at most this
     * much. DMGL_NO_RECURSE_LIMIT is never passed: the demangler keeps
     * its recursion limits. */
    if (!demangle_on || !sym || !memchr(sym, '\0', MP_DEMANGLE_MAX + 1))
        return NULL;
    return mp_demangle_name(sym);
}

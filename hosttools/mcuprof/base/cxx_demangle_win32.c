/*
 * cxx_demangle_win32.c - C++ names through __cxa_demangle
 * (cxx_demangler.h), linked from the mingw g++'s static libsupc++: its
 * demangler object needs only the C library.
 *
 * __cxa_demangle is libiberty's d_demangle with DMGL_PARAMS | DMGL_TYPES,
 * cplus_demangle(DMGL_ANSI | DMGL_PARAMS) is the same call without
 * DMGL_TYPES (DMGL_ANSI means nothing to the C++ demangler): for a name
 * beginning `_Z` (a clone's `.constprop.0` suffix included) or naming a
 * global constructor or destructor (`_GLOBAL__I_main`) both give the
 * same text. Anything else would be read as a type ("i" as "int", a C
 * function `v` as "void"): cplus_demangle leaves it alone, so does this.
 * What differs: cplus_demangle tries Rust first, so a Rust legacy name
 * (`_ZN3foo3bar17h0123456789abcdefE`) reads "foo::bar" there and
 * "foo::bar::h0123456789abcdef" here, and a Rust v0 name (`_R...`) is
 * shown as it is here.
 */
#include <stddef.h>
#include <string.h>

#include "cxx_demangler.h"

/* The C++ ABI's entry point (cxxabi.h, a C++ header): extern "C". */
char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

/* What libiberty's d_demangle_callback takes for a name rather than a
 * type: `_Z...`, or `_GLOBAL_` then `.`, `_` or `$`, then `I` or `D`,
 * then `_`. */
static int is_mangled_name(const char *s)
{
    if (s[0] == '_' && s[1] == 'Z')
        return 1;
    return strncmp(s, "_GLOBAL_", 8) == 0 && (s[8] == '.' || s[8] == '_' || s[8] == '$') &&
           (s[9] == 'I' || s[9] == 'D') && s[10] == '_';
}

char *mp_demangle_name(const char *sym)
{
    int status = 0;
    char *out;

    if (!is_mangled_name(sym))
        return NULL;
    out = __cxa_demangle(sym, NULL, NULL, &status);
    return status == 0 ? out : NULL;
}

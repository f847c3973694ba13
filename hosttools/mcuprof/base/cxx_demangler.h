/*
 * cxx_demangler.h - the demangler behind mp_demangle (cxx_demangle.h),
 * one file a host: libiberty's cplus_demangle on POSIX hosts
 * (cxx_demangle_posix.c), __cxa_demangle from the mingw g++'s static
 * libsupc++ on Windows (cxx_demangle_win32.c), where Debian builds no
 * libiberty. Both are libiberty's cp-demangle.c: C++ names read the same.
 */
#ifndef MCUPROF_CXX_DEMANGLER_H
#define MCUPROF_CXX_DEMANGLER_H

/* SYM demangled as gprof prints it (cplus_demangle with DMGL_ANSI |
 * DMGL_PARAMS), allocated, or NULL: not a mangled name, or out of
 * memory. SYM is at most MP_DEMANGLE_MAX bytes. */
char *mp_demangle_name(const char *sym);

#endif /* MCUPROF_CXX_DEMANGLER_H */

/*
 * cxx_demangle.h - C++ symbol names as C++ users read them, and the one switch
 * (`--no-demangle`, as gprof has it) that shows the symbols as they are.
 *
 * The demangler is libiberty's cplus_demangle (Debian libiberty-dev), the
 * one binutils itself uses, called with gprof's options (DMGL_ANSI |
 * DMGL_PARAMS): `_ZN5motor6Filter4stepEm` reads
 * `motor::Filter::step(unsigned long)`, exactly as gprof prints it, and a
 * GCC clone `_Z3fooi.constprop.0` reads `foo(int) [clone .constprop.0]`.
 * Windows has no libiberty build: there the same code is reached through
 * __cxa_demangle, linked from the static libsupc++ of the mingw g++
 * (cxx_demangle_win32.c says which names then differ: Rust's).
 */
#ifndef MCUPROF_CXX_DEMANGLE_H
#define MCUPROF_CXX_DEMANGLE_H

/* Names longer than this many bytes are not demangled (cxx_demangle.c). */
#define MP_DEMANGLE_MAX 4096

/* The readable name of SYM, allocated (free() it), or NULL when SYM is
 * not a mangled name (every C name), is longer than MP_DEMANGLE_MAX or
 * memory ran out: the caller then shows SYM itself. Demangles whatever
 * the switch says. */
char *mp_demangle(const char *sym);

/* Whether names are shown demangled: on unless a command's --no-demangle
 * turned it off. Read when names are made, so set it before reading an
 * input. */
int mp_demangle_enabled(void);
void mp_demangle_enable(int on);

#endif /* MCUPROF_CXX_DEMANGLE_H */

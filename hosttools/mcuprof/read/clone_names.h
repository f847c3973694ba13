/*
 * clone_names.h - the names GCC gives the functions it makes out of one
 * source function: foo.constprop.N (a copy specialised for constant
 * arguments, -fipa-cp), foo.isra.N (arguments passed by value instead of
 * by reference, -fipa-sra), foo.part.N (the outlined part of a partially
 * inlined function, -fpartial-inlining), foo.cold (the blocks it expects
 * never to run, -freorder-blocks-and-partition), foo.lto_priv.N (a static
 * function renamed by -flto), foo.localalias, and older GCC's foo.clone.N;
 * combined in any order (foo.isra.0.constprop.0.cold). Each is a symbol
 * of its own with its own code; the origin is the source function's name
 * (foo).
 */
#ifndef MCUPROF_CLONE_NAMES_H
#define MCUPROF_CLONE_NAMES_H

#include <stddef.h>

/* Length of NAME's origin: the part before its first clone suffix, or
 * strlen(NAME) when NAME has none (it is no clone). */
size_t mp_clone_origin_len(const char *name);

/* Length of the clone suffix component at S (".word" or ".word.N"), 0 when
 * S does not start one. */
size_t mp_clone_component_len(const char *s);

/* Non-zero when NAME is a piece of its origin's own body rather than a
 * copy of it: a .part (called from the origin itself) or a .cold part
 * (jumped to, never called). A call from the origin into such a piece is
 * no call of the source function. */
int mp_clone_is_piece(const char *name);

#endif /* MCUPROF_CLONE_NAMES_H */

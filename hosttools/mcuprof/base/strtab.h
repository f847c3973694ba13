/*
 * strtab.h - a table of distinct strings, each with its index in order of
 * first use: what formats that refer to names by number need (pprof's
 * string_table, name compression in callgrind).
 */
#ifndef MCUPROF_STRTAB_H
#define MCUPROF_STRTAB_H

#include <stddef.h>
#include <stdint.h>

struct mp_strtab {
    char **s;        /* s[0 .. n-1]: copies, in order of first use */
    size_t n, cap;
    uint32_t *slot;  /* open addressing: index + 1, 0 empty */
    size_t nslots;   /* a power of two, at least twice n */
};

void mp_strtab_init(struct mp_strtab *t);
void mp_strtab_free(struct mp_strtab *t);

/* The index of S, added (copied) when new. Returns -1 when out of memory
 * (not reported: the caller names its output). */
int64_t mp_strtab_add(struct mp_strtab *t, const char *s);

#endif /* MCUPROF_STRTAB_H */

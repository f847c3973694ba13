/*
 * calls.h - the code whose calls are measured, built twice from
 * calls_body.h: with -pg (names pg_*) and without (plain_*, the baseline).
 * Each *_loop and *_set function is itself never instrumented, so every
 * measured call adds exactly one hooked call over the baseline.
 */
#ifndef CALLS_H
#define CALLS_H
#include <stdint.h>

/* Calls per measured loop: SysTick counts 16-25 instructions a tick, so
 * the rounding error is below 0.01 instruction per call. */
#define LOOP_CALLS 20000u
/* Distinct functions (and call sites) per generated set: a, b and c. */
#define SET_SIZE 64u

#define CALLS_DECLARE(p)                                                                           \
    void p##_leaf(void);          /* an empty leaf */                                              \
    void p##_loop(void);          /* LOOP_CALLS calls of p##_leaf, one call site */                \
    void p##_nest_loop(void);     /* the same from a profiled caller of a profiled function */    \
    void p##_ptr_loop(void);      /* LOOP_CALLS calls, one site, 3 callees in turn */             \
    void p##_pair_loop(void);     /* LOOP_CALLS calls from two adjacent sites */                  \
    void p##_arg1_loop(void);     /* LOOP_CALLS calls of a 1-argument function */                 \
    void p##_arg2_loop(void);     /* ... 2 arguments */                                           \
    void p##_arg4_loop(void);     /* ... 4 arguments */                                           \
    void p##_set_a(void);         /* one call each of SET_SIZE functions, SET_SIZE sites */       \
    void p##_set_b(void);                                                                          \
    void p##_set_c(void);                                                                          \
    void p##_spin(uint32_t n);    /* 2 n instructions, no call */                                 \
    void p##_deep(uint32_t n, uint32_t reps); /* reps x 2 n instructions, 7 calls deep */
CALLS_DECLARE(pg)
CALLS_DECLARE(plain)
#endif

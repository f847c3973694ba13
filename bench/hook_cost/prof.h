/*
 * prof.h - what the benchmark asks of a call-graph runtime, so that one
 * main.c measures mcuprof (prof_ours.c) and the classic BSD tables
 * (prof_classic.c) alike.
 */
#ifndef BENCH_PROF_H
#define BENCH_PROF_H
#include <stdint.h>

/* Arc records the table holds; the same for both runtimes (the build sets
 * it, for mcuprof through mcuprof_instrument(ARCS)). */
#ifndef BENCH_ARCS
#error "BENCH_ARCS must be set by the build"
#endif

void bench_prof_init(void);  /* tables empty, recording off */
void bench_prof_on(void);
void bench_prof_off(void);
void bench_prof_reset(void); /* forget every arc; the same work whatever was recorded */
uint32_t bench_prof_arcs_used(void);
uint32_t bench_prof_lost(void); /* calls of new arcs not recorded (table full) */
uint32_t bench_prof_ram(void);  /* bytes of RAM of the tables */
const char *bench_prof_name(void);
#endif

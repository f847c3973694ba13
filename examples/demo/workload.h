/*
 * workload.h - a program whose every call count and time share is known,
 * so a profile of it can be checked number by number.
 */
#ifndef WORKLOAD_H
#define WORKLOAD_H

#include <stdint.h>

/* Runs every kind of call gprof must get right; prints, on the console,
 * one "EXPECT ..." line per fact the profile must show. */
void workload_run(void);
void workload_print_expectations(void);
/* Sampler ticks that found an FPU exception frame. */
uint32_t workload_fpu_ticks(void);

#endif

/*
 * diff_other.c - a second static step() for diff_work.c: two static
 * functions of one name, which `mcuprof diff` tells apart by file. It
 * spins N units of work twice (2 units in all per round).
 */
#include <stdint.h>

#include "spin.h"

void other_work(uint32_t n);

__attribute__((noinline, noclone)) static void step(uint32_t n) { SPIN_LOOP(n); }

__attribute__((noinline)) void other_work(uint32_t n)
{
    step(n);
    step(n);
}

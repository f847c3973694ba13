/* calls_pg.c - compiled with -pg: each call of pg_leaf runs the hook. */
#include "calls.h"

__attribute__((noinline)) void pg_leaf(void)
{
    __asm__ volatile("" ::: "memory");
}

/* The loop itself is not instrumented, so each iteration adds exactly one
 * hooked call to the baseline. */
__attribute__((noinline, no_instrument_function)) void pg_loop(uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        pg_leaf();
}

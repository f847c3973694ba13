/* calls_plain.c - the same functions as calls_pg.c, compiled without -pg:
 * the baseline every hook cost is measured against. */
#include "calls.h"

__attribute__((noinline)) void plain_leaf(void)
{
    __asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void plain_loop(uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        plain_leaf();
}

/*
 * tiny_fw.c - the smallest firmware the ELF and DWARF seeds are built from
 * (make_corpus.sh): a vector table, functions compiled with -pg calling a
 * stub of the runtime's hook, a loop, a branch to another function and a
 * profile image region, with -g line tables. Not meant to run.
 */
#include <stdint.h>

#define HOT __attribute__((noinline))

uint32_t profile_ram[64] __attribute__((section(".mcuprof"), aligned(8)));
volatile uint32_t sink;

HOT static uint32_t leaf(uint32_t x)
{
    uint32_t i, s = 0;

    for (i = 0; i < x; i++)
        s += i * i;
    return s;
}

HOT uint32_t middle(uint32_t x)
{
    if (x & 1)
        return leaf(x) + 1;
    return leaf(x / 2);
}

HOT int main(void)
{
    for (;;)
        sink = middle(sink + 3);
}

void reset_handler(void) { main(); }
void systick_handler(void) { sink++; }

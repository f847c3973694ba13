/*
 * autostart.c - profiling from reset (mcuprof_instrument(... AUTOSTART)):
 * the runtime initialises and starts itself from .preinit_array, so calls
 * made by constructors, before main, are recorded too. main never calls
 * mcuprof_init or mcuprof_start.
 */
#include <stdint.h>

#include "board.h"
#include "mcuprof.h"

volatile uint32_t sink;

__attribute__((noinline)) void leaf(void)
{
    sink++;
}

__attribute__((constructor)) void early_init(void)
{
    for (int i = 0; i < 5; i++)
        leaf();
}

int main(void)
{
    for (int i = 0; i < 10; i++)
        leaf();
    mcuprof_stop();

    board_puts("EXPECT arc early_init leaf 5\n");
    board_puts("EXPECT arc main leaf 10\n");
    board_puts("EXPECT calls leaf 15\n");
    return mcuprof_write_semihosting("mcuprof.img") == 0 ? 0 : 1;
}

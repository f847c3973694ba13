/*
 * system.c - CMSIS's SystemInit and SystemCoreClock for the MPS2 AN385:
 * the core runs at 25 MHz. SystemInit runs from Reset_Handler before .data
 * is initialised, so it must not call the profiling hook.
 */
#include <stdint.h>

uint32_t SystemCoreClock = 25000000u;

__attribute__((no_instrument_function)) void SystemInit(void)
{
    /* clocks, flash wait states, FPU access: nothing to do on this model */
}

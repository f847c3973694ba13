/*
 * port.c - RISC-V: switching the call hook on and off.
 */
#include "mcuprof_port.h"

/* Read by _mcount on every call; small, so the linker can place it in
 * .sbss and relax the access to one gp-relative load. */
volatile uint8_t mcuprof_hook_on;

MCUPROF_NOINSTR void mcuprof_port_hook_enable(int on)
{
    mcuprof_hook_on = (uint8_t)(on != 0);
    mcuprof_port_barrier();
}

/*
 * ram_code.c - code that runs from RAM is profiled too: the firmware is
 * linked with a second text range over .data (where the RAM functions live,
 * copied there at boot), so the image has two histogram ranges, flash and
 * RAM, and the GNU gmon.out two histogram records that gprof merges.
 *
 *   main -> ram_work (in RAM) -> flash_leaf (in flash), 300 times
 *   flash_spin: 1.0 M loop iterations in flash
 *   ram_spin:   1.0 M loop iterations in RAM: the same time as flash_spin
 *
 * On Cortex-M the calls between RAM and flash are too far for a direct
 * branch: the linker inserts veneers (long-branch stubs), which the
 * profile shows; the counts stay exact. Built with 4-byte bins.
 */
#include <stdint.h>

#include "board.h"
#include "mcuprof.h"
#include "spin.h"

#define LEAF_CALLS 300u
#define LOOPS 1000000u
#define RAM_CODE __attribute__((section(".data.ram_code"), noinline))

volatile uint32_t sink;

__attribute__((noinline)) void flash_leaf(void)
{
    sink++;
}

RAM_CODE void ram_work(void)
{
    for (uint32_t i = 0; i < LEAF_CALLS; i++)
        flash_leaf();
}

RAM_CODE void ram_spin(uint32_t n)
{
    SPIN_LOOP(n);
}

__attribute__((noinline)) void flash_spin(uint32_t n)
{
    SPIN_LOOP(n);
}

int main(void)
{
    mcuprof_init();
    if (mcuprof_sampler_start(BOARD_TIMER_HZ, 10000u) != 0)
        return 2;
    mcuprof_start();
    ram_work();
    flash_spin(LOOPS);
    ram_spin(LOOPS);
    mcuprof_stop();
    mcuprof_sampler_stop();

    board_puts("EXPECT arc main ram_work 1\n");
    board_puts("EXPECT arc ram_work flash_leaf 300\n");
    board_puts("EXPECT share flash_spin 50 3\n");
    board_puts("EXPECT share ram_spin 50 3\n");
    board_puts("EXPECT-INFO lost_samples_out_of_range 0\n");
    board_puts("EXPECT-INFO ranges 2\n");
    return mcuprof_write_semihosting("mcuprof.img") == 0 ? 0 : 1;
}

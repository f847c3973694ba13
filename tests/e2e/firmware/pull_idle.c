/*
 * pull_idle.c - a known, deterministic amount of profiled work, written
 * out through semihosting; then the firmware keeps running with the
 * sampler on and makes no profiled call, so an image pulled from the
 * running core must hold exactly the arcs of the semihosting dump.
 *
 * Arcs: main -> work 1, work -> leaf_a 300, work -> leaf_b 200,
 * work -> mid 7, mid -> leaf_c 7 x 11 = 77.
 */
#include <stdint.h>

#include "board.h"
#include "mcuprof.h"

volatile uint32_t sink;

__attribute__((noinline)) void leaf_a(void) { sink += 1u; }
__attribute__((noinline)) void leaf_b(void) { sink += 2u; }
__attribute__((noinline)) void leaf_c(void) { sink += 3u; }

__attribute__((noinline)) void mid(void)
{
    for (uint32_t i = 0; i < 11u; i++)
        leaf_c();
}

__attribute__((noinline)) void work(void)
{
    for (uint32_t i = 0; i < 300u; i++)
        leaf_a();
    for (uint32_t i = 0; i < 200u; i++)
        leaf_b();
    for (uint32_t i = 0; i < 7u; i++)
        mid();
}

int main(void)
{
    mcuprof_init();
    /* The sampler's tick also answers a host's freeze request. */
    if (mcuprof_sampler_start(BOARD_TIMER_HZ, 10000u) != 0) {
        board_puts("pull_idle: cannot start the sampler\n");
        return 1;
    }
    mcuprof_start();
    work();
    if (mcuprof_write_semihosting("mcuprof.img") != 0) {
        board_puts("pull_idle: semihosting write failed\n");
        return 1;
    }
    board_puts("pull_idle: ready\n");
    /* Idle with the profile on: samples go on, arcs stay as written. */
    for (;;)
        __asm volatile("wfi" ::: "memory");
}

/*
 * main.c - accuracy of the profile against a workload whose every count
 * is known (examples/demo/workload.c):
 *   1. arcs.img: the whole demo workload (calls, recursion, pointers, tail
 *      calls, interrupts), its EXPECT lines on the console, for a check of
 *      every arc count in gprof's call graph;
 *   2. acc_K.img, K = 0..NRUNS-1: hot_a, hot_b, hot_c alone, 3 : 2 : 1 in
 *      instructions (spin.h: 2 per iteration), longer each time, at one
 *      sample rate, so the number of samples grows while the truth stays.
 * Prints "acc K ITERATIONS" per run: hot_a ran 3x, hot_b 2x, hot_c 1x.
 */
#include "board.h"
#include "mcuprof.h"
#include "workload.h"

/* One sample every 20,000 instructions at -icount shift=0 (SysTick's
 * dithered periods need at least twice its 128-tick minimum gap: 500
 * here at 25 MHz). */
#define SAMPLE_HZ 50000u
#define NRUNS 7u

void hot_a(uint32_t n);
void hot_b(uint32_t n);
void hot_c(uint32_t n);

/* 12 * ITER instructions per run: about 10, 30, ... 10000 samples. */
static const uint32_t iterations[NRUNS] = {8340, 25000, 83400, 250000, 834000, 2500000, 8340000};

static int fail(const char *what)
{
    board_puts("accuracy: ");
    board_puts(what);
    board_putc('\n');
    return 1;
}

int main(void)
{
    static char name[] = "acc_0.img";

    mcuprof_init();
    if (mcuprof_sampler_start(BOARD_TIMER_HZ, SAMPLE_HZ) != 0)
        return fail("cannot start the sampler");
    mcuprof_start();
    workload_run();
    mcuprof_stop();
    workload_print_expectations();
    if (mcuprof_write_semihosting("arcs.img") != 0)
        return fail("semihosting write failed");

    for (uint32_t k = 0; k < NRUNS; k++) {
        uint32_t n = iterations[k];
        mcuprof_reset();
        mcuprof_start();
        hot_a(3u * n);
        hot_b(2u * n);
        hot_c(n);
        mcuprof_stop();
        name[4] = (char)('0' + k);
        if (mcuprof_write_semihosting(name) != 0)
            return fail("semihosting write failed");
        board_puts("acc ");
        board_put_u32(k);
        board_putc(' ');
        board_put_u32(n);
        board_putc('\n');
    }
    mcuprof_sampler_stop();
    return 0;
}

/*
 * main.c - the mcuprof demo: profile a known workload, then write the
 * profile image to the host through semihosting.
 */
#include "board.h"
#include "mcuprof.h"
#include "workload.h"

/* 10 kHz: one sample every 100 us of CPU time. */
#define SAMPLE_RATE_HZ 10000u

int main(void)
{
    mcuprof_init();
    /* A free-running timer, so periods the sampler misses while interrupts
     * are masked can be counted (RISC-V's mtime does that by itself; a
     * Cortex-M without a cycle counter needs one). */
    (void)mcuprof_sampler_set_clock(board_clock_now);
    if (mcuprof_sampler_start(BOARD_TIMER_HZ, SAMPLE_RATE_HZ) != MCUPROF_OK) {
        board_puts("demo: cannot start the sampler timer\n");
        return 1;
    }
    mcuprof_start();
    workload_run();
    mcuprof_stop();
    mcuprof_sampler_stop();

    workload_print_expectations();
#if defined(__ARM_FP)
    /* On a core with an FPU the workload runs floating-point code, so the
     * sampler must have met FPU frames; the time shares then prove it read
     * the PC from them correctly. */
    if (workload_fpu_ticks() == 0u) {
        board_puts("demo: no sample interrupted FPU code\n");
        return 1;
    }
    board_puts("demo: samples taken over FPU frames: ");
    board_put_u32(workload_fpu_ticks());
    board_putc('\n');
#endif
    if (mcuprof_write_semihosting("mcuprof.img") != 0) {
        board_puts("demo: semihosting write failed: no debugger attached?\n");
        return 1;
    }
    board_puts("demo: profile image written to mcuprof.img\n");
    return 0;
}

/*
 * main.c - instructions per instrumented call, measured under QEMU
 * -icount shift=0.
 *   Cortex-M: QEMU models no cycle counter, but under -icount shift=0 every
 *   instruction advances virtual time by exactly 1 ns, so SysTick
 *   (free-running, no interrupt) counts instructions with a resolution of
 *   1e9 / BOARD_SYSTICK_HZ; N = 200000 calls make that error negligible.
 *   RISC-V: minstret, which QEMU derives from the instruction count under
 *   -icount.
 *
 * Prints one line per case: extra instructions per call over the same
 * call without -pg, to two decimals.
 */
#include "board.h"
#include "calls.h"
#include "mcuprof.h"

#define N 200000u

#if defined(__arm__)
#define SYST_CSR (*(volatile uint32_t *)0xE000E010u)
#define SYST_RVR (*(volatile uint32_t *)0xE000E014u)
#define SYST_CVR (*(volatile uint32_t *)0xE000E018u)

/* Virtual nanoseconds (= instructions at shift 0) taken by loop(N). */
static uint64_t measure(void (*loop)(uint32_t))
{
    SYST_CSR = 0;
    SYST_RVR = 0x00FFFFFFu;
    SYST_CVR = 0;
    SYST_CSR = 5u; /* processor clock, enabled, no interrupt */
    uint32_t start = SYST_CVR;
    loop(N);
    uint32_t end = SYST_CVR;
    SYST_CSR = 0;
    uint32_t ticks = (start - end) & 0x00FFFFFFu; /* counts down */
    return (uint64_t)ticks * 1000000000u / BOARD_SYSTICK_HZ;
}
#elif defined(__riscv)
static uintptr_t instret(void)
{
    uintptr_t n;
    __asm__ volatile("csrr %0, minstret" : "=r"(n));
    return n;
}

/* Instructions taken by loop(N) (the low word is enough: N calls take far
 * fewer than 2^32). */
static uint64_t measure(void (*loop)(uint32_t))
{
    uintptr_t start = instret();
    loop(N);
    return (uint32_t)(instret() - start);
}
#endif

static void report(const char *what, uint64_t ns, uint64_t base_ns)
{
    uint64_t extra100 = (ns - base_ns) * 100u / N;
    board_puts(BOARD_NAME);
    board_puts(" ");
    board_puts(what);
    board_puts(" ");
    board_put_u32((uint32_t)(extra100 / 100u));
    board_putc('.');
    board_putc((char)('0' + (extra100 / 10u) % 10u));
    board_putc((char)('0' + extra100 % 10u));
    board_putc('\n');
}

int main(void)
{
    mcuprof_init();
    uint64_t base = measure(plain_loop);

    uint64_t off = measure(pg_loop); /* profiling compiled in, switched off */
    mcuprof_start();
    pg_leaf();                       /* records the arc: later calls hit it */
    uint64_t hit = measure(pg_loop);
    mcuprof_stop();

    report("hook-off", off, base);
    report("arc-hit", hit, base);
    return 0;
}

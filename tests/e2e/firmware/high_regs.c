/*
 * high_regs.c - exact callers from functions that keep r8-r11 live.
 *
 * On ARMv6-M, GCC 12 saves the high registers of a function that uses them
 * through lr (`push {r4-r7, lr}; mov lr, r11; ... push {lr}; bl
 * __gnu_mcount_nc`), so the hook would receive r11 as the caller and the
 * arc would land outside the code. mcuprof_instrument() compiles v6-M and
 * v8-M Baseline code with -ffixed-r8..r11, which keeps those registers out
 * of the prologue. partition() below keeps many values live across its
 * calls, which needs every high register without that flag.
 *
 * Call counts are counted here and printed as EXPECT lines; the firmware
 * also prints the sort's cost in timer ticks ("ticks N").
 */
#include <stdint.h>

#include "board.h"
#include "expect_lines.h"
#include "mcuprof.h"

/* (bench/v6m_fixed_regs builds it bigger, with profiling switched off) */
#ifndef N
#define N 64u
#endif
#ifndef ROUNDS
#define ROUNDS 4u
#endif

volatile uint32_t sink;
static uint32_t values[N];
static uint32_t rng = 12345u;
static uint32_t n_less, n_swap, n_partition, n_quicksort;

__attribute__((noinline)) uint32_t next_rand(void)
{
    rng = rng * 1664525u + 1013904223u;
    return rng >> 8;
}

__attribute__((noinline)) int less(uint32_t a, uint32_t b)
{
    n_less++;
    return a < b;
}

__attribute__((noinline)) void swap(uint32_t *a, uint32_t *b)
{
    uint32_t t = *a;

    n_swap++;
    *a = *b;
    *b = t;
}

/* Lomuto partition with running checksums that stay live across the calls
 * of less() and swap(): more live values than r4-r7 can hold. */
__attribute__((noinline)) int partition(uint32_t *v, int lo, int hi, uint32_t k0,
                                        uint32_t k1, uint32_t k2)
{
    uint32_t pivot = v[hi] ^ k0;
    uint32_t acc0 = k1, acc1 = k2, acc2 = k0 + k1, acc3 = k1 * k2;
    uint32_t acc4 = k0 ^ k2, acc5 = k1 + 7u;
    int i = lo - 1;

    n_partition++;
    for (int j = lo; j < hi; j++) {
        acc0 += v[j];
        acc1 ^= v[j] << 1;
        acc2 += acc0 * 3u;
        acc3 ^= acc1 + (uint32_t)j;
        acc4 += acc3 >> 2;
        acc5 ^= acc4 + acc2;
        if (less(v[j] ^ k0, pivot)) {
            i++;
            swap(&v[i], &v[j]);
        }
    }
    swap(&v[i + 1], &v[hi]);
    sink = acc0 + acc1 + acc2 + acc3 + acc4 + acc5 + k2;
    return i + 1;
}

__attribute__((noinline)) void quicksort(uint32_t *v, int lo, int hi, uint32_t k0,
                                         uint32_t k1, uint32_t k2)
{
    n_quicksort++;
    if (lo < hi) {
        int p = partition(v, lo, hi, k0, k1, k2);

        quicksort(v, lo, p - 1, k0, k1 + 1u, k2 ^ k1);
        quicksort(v, p + 1, hi, k0, k1 ^ k2, k2 + 3u);
    }
}

int main(void)
{
    uint32_t top_calls = 0, t0, t1;

    mcuprof_init();
#ifndef HIGH_REGS_PROFILING_OFF
    mcuprof_start();
#endif
    t0 = board_clock_now();
    for (uint32_t r = 0; r < ROUNDS; r++) {
        for (uint32_t k = 0; k < N; k++)
            values[k] = next_rand();
        quicksort(values, 0, (int)N - 1, 0x5a5a5a5au, r, r * 7u);
        top_calls++;
        for (uint32_t k = 1; k < N; k++)
            if ((values[k - 1] ^ 0x5a5a5a5au) > (values[k] ^ 0x5a5a5a5au))
                board_exit(2);
    }
    t1 = board_clock_now();
    mcuprof_stop();

    board_puts("ticks ");
    board_put_u32(t1 - t0);
    board_putc('\n');
    expect_arc("main", "next_rand", ROUNDS * N);
    expect_arc("main", "quicksort", top_calls);
    expect_arc("quicksort", "partition", n_partition);
    /* every call of quicksort but the top ones is recursion */
    board_puts("EXPECT calls quicksort ");
    board_put_u32(n_quicksort);
    board_putc('\n');
    expect_arc("partition", "less", n_less);
    expect_arc("partition", "swap", n_swap);
    board_puts("EXPECT noarc <spontaneous> partition\n");
    board_puts("EXPECT-INFO lost_arcs_table_full 0\n");
    return mcuprof_write_semihosting("mcuprof.img") == 0 ? 0 : 1;
}

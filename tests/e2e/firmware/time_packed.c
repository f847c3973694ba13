/*
 * time_packed.c - four tiny functions packed one after the other (no
 * alignment of their own), burning 59, 30, 10 and 1 % of the time. With
 * 16-byte bins a function of a dozen bytes shares a bin with its
 * neighbour unless the build aligns it; gprof then splits the bin's
 * samples by bytes and the hottest one comes out tens of points off.
 * mcuprof_instrument() aligns every profiled function to the bin size.
 */
#include "time_common.h"

/* Iterations per round (two instructions each); 25 rounds make 62.5 M
 * instructions: 20,000 samples at 10 kHz on a 31 MHz core, 40,000 on a
 * 16 MHz one, and no bin near its 65535 limit. */
#define UNIT 12500u
#define ROUNDS 25u
#define A_UNITS 59u
#define B_UNITS 30u
#define C_UNITS 10u
#define D_UNITS 1u

__attribute__((noinline)) void tiny_a(uint32_t n) { SPIN_LOOP(n); }
__attribute__((noinline)) void tiny_b(uint32_t n) { SPIN_LOOP(n); }
__attribute__((noinline)) void tiny_c(uint32_t n) { SPIN_LOOP(n); }
__attribute__((noinline)) void tiny_d(uint32_t n) { SPIN_LOOP(n); }

int main(void)
{
    tc_start();
    /* Interleaved, so no function owns one stretch of the run. */
    for (uint32_t r = 0; r < ROUNDS; r++) {
        tiny_a(A_UNITS * UNIT);
        tiny_b(B_UNITS * UNIT);
        tiny_c(C_UNITS * UNIT);
        tiny_d(D_UNITS * UNIT);
    }
    tc_finish();

    static const struct tc_share shares[] = {
        {"tiny_a", A_UNITS}, {"tiny_b", B_UNITS}, {"tiny_c", C_UNITS}, {"tiny_d", D_UNITS}};
    tc_expect_shares(shares, sizeof(shares) / sizeof(shares[0]));
    return 0;
}

/*
 * time_cold.c - code GCC considers cold at -O2, which is hot here. GCC
 * puts functions marked cold in .text.unlikely.NAME and ignores
 * -falign-functions for them, so they lie packed:
 *   cold_a       45   __attribute__((cold)), a few bytes
 *   cold_b       25   __attribute__((cold)), a few bytes
 *   split_work   20   10 in its body and 10 in the branch it expects never
 *                     to take (it calls a cold function), which GCC moves
 *                     out of line
 *   plain_d      10   an ordinary function
 * GCC 12 splits such a branch into a split_work.cold function of its own
 * only with -freorder-blocks-and-partition, which it does not support on
 * ARM and leaves off by default on RISC-V; the section alignment covers
 * that .text.unlikely.split_work too (cmake/mcuprof_align.cmake), but
 * binutils 2.40 gprof does not list .cold symbols and charges their
 * samples to the symbol before them. Only mcuprof_instrument()'s section
 * alignment keeps each function here in bins of its own.
 */
#include "time_common.h"

/* Iterations per unit (two instructions each); 25 rounds of 100 units
 * make 62.5 M instructions, as time_packed.c. */
#define UNIT 12500u
#define ROUNDS 25u
#define A_UNITS 45u
#define B_UNITS 25u
#define SPLIT_BODY_UNITS 10u
#define SPLIT_COLD_UNITS 10u
#define D_UNITS 10u

volatile uint32_t cold_events;

__attribute__((noinline, cold)) void cold_a(uint32_t n) { SPIN_LOOP(n); }
__attribute__((noinline, cold)) void cold_b(uint32_t n) { SPIN_LOOP(n); }
__attribute__((noinline, cold)) void cold_note(void) { cold_events++; }

__attribute__((noinline)) void split_work(uint32_t n, uint32_t rare_n)
{
    SPIN_LOOP(n);
    if (__builtin_expect(rare_n != 0, 0)) {
        cold_note();
        SPIN_LOOP(rare_n);
    }
}

__attribute__((noinline)) void plain_d(uint32_t n) { SPIN_LOOP(n); }

int main(void)
{
    tc_start();
    for (uint32_t r = 0; r < ROUNDS; r++) {
        cold_a(A_UNITS * UNIT);
        cold_b(B_UNITS * UNIT);
        split_work(SPLIT_BODY_UNITS * UNIT, SPLIT_COLD_UNITS * UNIT);
        plain_d(D_UNITS * UNIT);
    }
    tc_finish();

    static const struct tc_share shares[] = {{"cold_a", A_UNITS},
                                             {"cold_b", B_UNITS},
                                             {"split_work", SPLIT_BODY_UNITS + SPLIT_COLD_UNITS},
                                             {"plain_d", D_UNITS}};
    tc_expect_shares(shares, sizeof(shares) / sizeof(shares[0]));
    return 0;
}

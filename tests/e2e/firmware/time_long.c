/*
 * time_long.c - a run long enough that histogram bins pass 65535 samples:
 * three functions burning 60, 30 and 10 % of 750 M instructions at the
 * default 10 kHz, 24 s of virtual time on a 31 MHz core (240,000 samples;
 * twice that at -icount shift 6). Each loop sits in one 16-byte bin, so
 * long_a's bin takes 144,000 samples or more and long_b's 72,000 or more:
 * both wrap (the spill table counts the carries) and nothing may be lost
 * (lost_samples_saturated 0) while the shares stay within a point of the
 * truth from the instruction counts. 16-bit bins that saturated used to
 * give 55.6 / 33.3 / 10 for 60 / 30 / 10 in such a run.
 */
#include "time_common.h"

/* Iterations per unit (two instructions each); 60 + 30 + 10 units a round,
 * 25 rounds: 750 M instructions. */
#define UNIT 150000u
#define ROUNDS 25u
#define A_UNITS 60u
#define B_UNITS 30u
#define C_UNITS 10u

/* The loop starts on a 16-byte boundary and is 4 to 8 bytes long: one bin. */
__attribute__((noinline)) void long_a(uint32_t n) { SPIN_LOOP_ALIGNED(n); }
__attribute__((noinline)) void long_b(uint32_t n) { SPIN_LOOP_ALIGNED(n); }
__attribute__((noinline)) void long_c(uint32_t n) { SPIN_LOOP_ALIGNED(n); }

int main(void)
{
    tc_start();
    for (uint32_t r = 0; r < ROUNDS; r++) {
        long_a(A_UNITS * UNIT);
        long_b(B_UNITS * UNIT);
        long_c(C_UNITS * UNIT);
    }
    tc_finish();

    /* The bins of long_a and long_b wrapped: two entries, each carrying. */
    const struct mcuprof_ext *spill = tc_ext(MCUPROF_EXT_SPILL);
    if (!spill)
        tc_fail("no spill table in the image");
    const struct mcuprof_spill *s = (const struct mcuprof_spill *)(const void *)(spill + 1);
    if (spill->used != 2 || s[0].carries < 2 || s[1].carries < 1)
        tc_fail("the spill table does not hold the two hot bins' carries");

    const uint64_t all = A_UNITS + B_UNITS + C_UNITS;
    tc_expect_share("long_a", A_UNITS, all);
    tc_expect_share("long_b", B_UNITS, all);
    tc_expect_share("long_c", C_UNITS, all);
    tc_expect_info("lost_samples_saturated", 0);
    tc_expect_info("saturated-bins", 0);
    board_puts("EXPECT-INFO samples-accounted yes\n");
    return 0;
}

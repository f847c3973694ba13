/*
 * time_os.c - a firmware built the way firmware ships: every file at -Os
 * (the runtime too), C and C++. Small functions of different sizes lie
 * packed one after the other (GCC ignores -falign-functions at -Os, so
 * they start on 2 bytes), and do 60 / 30 / 10 % of the work:
 *   os_tiny         60   C, a few bytes (under one 16-byte bin)
 *   Filter::step    30   C++, a class member: a COMDAT section of its own
 *   os_small         6   C, under one bin
 *   Scale<3>::run    4   C++, a template instance (COMDAT)
 * and os_sized, a larger C function whose spin is the same as os_tiny's
 * but whose size comes from a branch the test never takes, sits among
 * them doing nothing measurable. Only mcuprof_instrument()'s section
 * alignment keeps each in bins of its own; without it gprof splits the
 * shared bins by bytes and the hottest comes out tens of points off.
 */
#include "time_common.h"
#include "time_os.h"

/* Iterations per unit (two instructions each); 25 rounds of 100 units
 * make 62.5 M instructions, as time_packed.c. */
#define UNIT 12500u
#define ROUNDS 25u
#define TINY_UNITS 60u
#define FILTER_UNITS 30u
#define SMALL_UNITS 6u
#define SCALE_UNITS 4u

volatile uint32_t os_sink;

__attribute__((noinline)) void os_tiny(uint32_t n) { SPIN_LOOP(n); }

/* Larger than a bin: the rare branch (never taken here) is code between
 * its neighbours, not work. */
__attribute__((noinline)) void os_sized(uint32_t n, uint32_t rare)
{
    if (rare == 0x5a5a5a5au) {
        os_sink = os_sink * 7u + n;
        os_sink ^= os_sink >> 3;
        os_sink += rare;
    }
    SPIN_LOOP(n);
}

__attribute__((noinline)) void os_small(uint32_t n) { SPIN_LOOP(n); }

int main(void)
{
    tc_start();
    for (uint32_t r = 0; r < ROUNDS; r++) {
        os_tiny(TINY_UNITS * UNIT);
        os_sized(1u, r);
        os_cxx_work((int)(FILTER_UNITS * UNIT), (int)(SCALE_UNITS * UNIT));
        os_small(SMALL_UNITS * UNIT);
    }
    tc_finish();

    static const struct tc_share shares[] = {{"os_tiny", TINY_UNITS},
                                             {"Filter::step(int)", FILTER_UNITS},
                                             {"os_small", SMALL_UNITS},
                                             {"Scale<3>::run(int)", SCALE_UNITS}};
    tc_expect_shares(shares, sizeof(shares) / sizeof(shares[0]));
    return 0;
}

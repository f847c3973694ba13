/*
 * diff_work.c - one workload, built in three variants for `mcuprof diff`
 * (tests/diff/CMakeLists.txt):
 *
 *   A   a(), b() and c() spin 40, 30 and 20 units per round, two static
 *       step()s (this file's and diff_other.c's) 3 and 2 units, and d()
 *       is called 5 times a round;
 *   B   c() spins 30 units (C_UNITS, 50 % more) and d() is called 6 times
 *       a round (D_CALLS): 100 calls become 120; nothing else changes;
 *   A2  A with one more function, never called, ahead of the others
 *       (DIFF_PAD): the same work at other addresses.
 *
 * A unit is UNIT iterations of spin.h's two-instruction loop, so every
 * function's time is known from its units: 95 units in A, 105 in B. With
 * 20 rounds a unit is 700,000 instructions: about 21,000 samples of A at
 * the 10 kHz default on a 31.25 MHz core. d() spins 200 iterations a
 * call, a few samples in all.
 */
#include <stdint.h>

#include "time_common.h"

#ifndef C_UNITS
#define C_UNITS 20u
#endif
#ifndef D_CALLS
#define D_CALLS 5u
#endif
#define A_UNITS 40u
#define B_UNITS 30u
#define STEP_UNITS 3u
#define UNIT 17500u
#define ROUNDS 20u
#define D_SPIN 200u

void other_work(uint32_t n); /* diff_other.c: its own static step() */

#ifdef DIFF_PAD
/* Never called: it only moves every function after it. */
__attribute__((noinline, used)) void pad(uint32_t n) { SPIN_LOOP(n); SPIN_LOOP(n); }
#endif

__attribute__((noinline)) void a(uint32_t n) { SPIN_LOOP(n); }
__attribute__((noinline)) void b(uint32_t n) { SPIN_LOOP(n); }
__attribute__((noinline)) void c(uint32_t n) { SPIN_LOOP(n); }

__attribute__((noinline)) void d(void)
{
    uint32_t n = D_SPIN;

    SPIN_LOOP(n);
}

/* The same name as diff_other.c's: told apart by file. noclone: a
 * clone (step.constprop.0) would be a name gprof does not count. */
__attribute__((noinline, noclone)) static void step(uint32_t n) { SPIN_LOOP(n); }

int main(void)
{
    tc_start();
    for (uint32_t r = 0; r < ROUNDS; r++) {
        a(A_UNITS * UNIT);
        b(B_UNITS * UNIT);
        c(C_UNITS * UNIT);
        step(STEP_UNITS * UNIT);
        other_work(UNIT);
        for (uint32_t i = 0; i < D_CALLS; i++)
            d();
    }
    tc_finish();
    return 0;
}

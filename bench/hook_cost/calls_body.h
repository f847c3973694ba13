/*
 * calls_body.h - the measured code; CALLS(x) names it pg_x or plain_x (see
 * calls.h). noipa everywhere: GCC must neither inline, clone nor merge the
 * identical empty functions (identical code folding would give many call
 * sites one callee), nor drop a call to a function it can see is empty.
 */
#include "calls.h"
#include "spin.h"

#define CALLS_CAT2(a, b) a##_##b
#define CALLS_CAT(a, b) CALLS_CAT2(a, b)
#define CALLS(x) CALLS_CAT(CALLS_PREFIX, x)
#define NOIPA __attribute__((noipa))
#define DRIVER __attribute__((noipa, no_instrument_function))

NOIPA void CALLS(leaf)(void)
{
    __asm__ volatile("" ::: "memory");
}

DRIVER void CALLS(loop)(void)
{
    for (uint32_t i = 0; i < LOOP_CALLS; i++)
        CALLS(leaf)();
}

/* The same calls from a profiled function, itself called by one: with
 * call paths each call finds its caller on the shadow stack, with the
 * top of the caller's frame known, the common case (the drivers have no
 * hook). Two more hooked calls per LOOP_CALLS. */
NOIPA void CALLS(nest_inner)(void)
{
    for (uint32_t i = 0; i < LOOP_CALLS; i++)
        CALLS(leaf)();
}
NOIPA void CALLS(nest_outer)(void)
{
    CALLS(nest_inner)();
    __asm__ volatile("" ::: "memory"); /* not a tail call */
}
DRIVER void CALLS(nest_loop)(void)
{
    CALLS(nest_outer)();
}

/* A call path 8 frames deep for the sampler: the root (the function that
 * started recording) and deep1 to deep7, whose innermost frame spins.
 * deep6 calls deep7 REPS times, N spin iterations each: with REPS 1 the
 * samples all find the stack as the last one left it, with more, calls
 * come and go between samples and each finds the same path again. */
NOIPA void CALLS(deep7)(uint32_t n, uint32_t reps)
{
    (void)reps;
    SPIN_LOOP(n);
}
NOIPA void CALLS(deep6)(uint32_t n, uint32_t reps)
{
    for (uint32_t r = 0; r < reps; r++)
        CALLS(deep7)(n, reps);
}
#define DEEP_LEVEL(k, next)                                                                        \
    NOIPA void CALLS(deep##k)(uint32_t n, uint32_t reps)                                           \
    {                                                                                              \
        CALLS(deep##next)(n, reps);                                                                \
        __asm__ volatile("" ::: "memory"); /* not a tail call */                                  \
    }
DEEP_LEVEL(5, 6)
DEEP_LEVEL(4, 5)
DEEP_LEVEL(3, 4)
DEEP_LEVEL(2, 3)
DEEP_LEVEL(1, 2)
DRIVER void CALLS(deep)(uint32_t n, uint32_t reps)
{
    CALLS(deep1)(n, reps);
}

NOIPA void CALLS(op0)(void) { __asm__ volatile("" ::: "memory"); }
NOIPA void CALLS(op1)(void) { __asm__ volatile("" ::: "memory"); }
NOIPA void CALLS(op2)(void) { __asm__ volatile("" ::: "memory"); }
static void (*const CALLS(ops)[3])(void) = {CALLS(op0), CALLS(op1), CALLS(op2)};

/* Round robin over three callees from one call site: after move-to-front
 * the callee due next is always the last of the three in the chain. */
DRIVER void CALLS(ptr_loop)(void)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < LOOP_CALLS; i++) {
        CALLS(ops)[k]();
        k = k == 2u ? 0u : k + 1u;
    }
}

/* Two call sites next to each other, each calling its own callee: with
 * compressed RISC-V code two `c.jal` 2 bytes apart. */
DRIVER void CALLS(pair_loop)(void)
{
    for (uint32_t i = 0; i < LOOP_CALLS / 2u; i++) {
        CALLS(leaf)();
        CALLS(op1)();
    }
}

/* Callees with 1, 2 and 4 arguments, used after the hook's call: what the
 * compiler adds around the call for them (RISC-V's _mcount is an ordinary
 * call, so live argument registers are kept in saved registers across it;
 * ARM's __gnu_mcount_nc keeps r0-r3 itself). */
NOIPA uint32_t CALLS(arg1)(uint32_t a)
{
    __asm__ volatile("" ::"r"(a) : "memory");
    return a;
}
NOIPA uint32_t CALLS(arg2)(uint32_t a, uint32_t b)
{
    __asm__ volatile("" ::"r"(a), "r"(b) : "memory");
    return a + b;
}
NOIPA uint32_t CALLS(arg4)(uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
    __asm__ volatile("" ::"r"(a), "r"(b), "r"(c), "r"(d) : "memory");
    return a + b + c + d;
}
DRIVER void CALLS(arg1_loop)(void)
{
    for (uint32_t i = 0; i < LOOP_CALLS; i++)
        CALLS(arg1)(i);
}
DRIVER void CALLS(arg2_loop)(void)
{
    for (uint32_t i = 0; i < LOOP_CALLS; i++)
        CALLS(arg2)(i, 2u);
}
DRIVER void CALLS(arg4_loop)(void)
{
    for (uint32_t i = 0; i < LOOP_CALLS; i++)
        CALLS(arg4)(i, 2u, 3u, 4u);
}

DRIVER void CALLS(spin)(uint32_t n)
{
    SPIN_LOOP(n);
}

/* SET_SIZE (64) distinct functions per set, named by the binary digits the
 * repetition macros paste on. */
#define REP2(m, p) m(p##0) m(p##1)
#define REP4(m, p) REP2(m, p##0) REP2(m, p##1)
#define REP8(m, p) REP4(m, p##0) REP4(m, p##1)
#define REP16(m, p) REP8(m, p##0) REP8(m, p##1)
#define REP32(m, p) REP16(m, p##0) REP16(m, p##1)
#define REP64(m, p) REP32(m, p##0) REP32(m, p##1)
#define DEFINE_FN(name) NOIPA void CALLS(name)(void) { __asm__ volatile("" ::: "memory"); }
#define CALL_FN(name) CALLS(name)();

REP64(DEFINE_FN, fa)
REP64(DEFINE_FN, fb)
REP64(DEFINE_FN, fc)
DRIVER void CALLS(set_a)(void) { REP64(CALL_FN, fa) }
DRIVER void CALLS(set_b)(void) { REP64(CALL_FN, fb) }
DRIVER void CALLS(set_c)(void) { REP64(CALL_FN, fc) }
_Static_assert(SET_SIZE == 64, "REP64 makes the sets");

/*
 * cxx_shapes.cpp - C++ as firmware writes it (-fno-exceptions -fno-rtti,
 * built at -O2 and at -Os): a class hierarchy called through a virtual
 * function, two instances of a function template, a lambda, a function
 * in an anonymous namespace, a free and a member operator. Each function
 * counts its calls and spins a known number of iterations, so it has
 * both calls and samples; the EXPECT lines name them as the ELF spells
 * them (gprof --no-demangle reads them so: a demangled name has spaces,
 * which an EXPECT line cannot hold) and tests/e2e/check_cxx.sh checks
 * that every output of mcuprof shows them as C++ users read them.
 *
 * Every function is noipa: without it, GCC at -O2 turns a by-reference
 * parameter into a clone (`operator+(Vec const&, Vec const&) [clone
 * .isra.0]`), a name this test does not set out to check. Arguments are
 * int so the mangled names are the same on every target (uint32_t is
 * unsigned long on arm-none-eabi, unsigned int on RISC-V).
 */
#include <stdint.h>

extern "C" {
#include "board.h"
#include "expect_lines.h"
#include "mcuprof.h"
#include "spin.h"
}

#define ROUNDS 600
#define SPIN 200
#define SAMPLE_RATE_HZ 10000u

#define PROFILED __attribute__((noipa))

static uint32_t n_filter, n_gain, n_plus, n_plus_assign, n_scale, n_lambda, n_round;

namespace motor {

/* The base has a body of its own: a pure virtual function would pull
 * __cxa_pure_virtual from the C++ runtime into a C link. */
class Stage {
  public:
    PROFILED virtual int step(int n) { return n; }
};

class Filter : public Stage {
  public:
    PROFILED int step(int n) override
    {
        int k = SPIN;
        SPIN_LOOP(k);
        n_filter++;
        return n + 1;
    }
};

class Gain : public Stage {
  public:
    PROFILED int step(int n) override
    {
        int k = 2 * SPIN;
        SPIN_LOOP(k);
        n_gain++;
        return 2 * n;
    }
};

} // namespace motor

template <typename T> uint32_t n_accumulate;

template <typename T> PROFILED T accumulate(T a, T b)
{
    int k = SPIN;
    SPIN_LOOP(k);
    n_accumulate<T>++;
    return a + b;
}

struct Vec {
    int x, y;
    PROFILED Vec &operator+=(const Vec &o)
    {
        int k = SPIN;
        SPIN_LOOP(k);
        n_plus_assign++;
        x += o.x;
        y += o.y;
        return *this;
    }
};

PROFILED Vec operator+(const Vec &a, const Vec &b)
{
    int k = SPIN;
    SPIN_LOOP(k);
    n_plus++;
    return Vec{a.x + b.x, a.y + b.y};
}

namespace {
PROFILED int scale(int v)
{
    int k = SPIN;
    SPIN_LOOP(k);
    n_scale++;
    return 3 * v;
}
} // namespace

volatile int sink;

namespace motor {

/* One round: every stage through its virtual step, the gain stage every
 * other round only; the unsigned accumulate every third round. */
PROFILED void run_round(Stage **stages, int r)
{
    auto twice = [r](int v) __attribute__((noipa)) {
        int k = SPIN;
        SPIN_LOOP(k);
        n_lambda++;
        return 2 * v + r;
    };
    int v = stages[0]->step(r);

    if (r % 2 == 0)
        v = stages[1]->step(v);
    v = accumulate<int>(v, r);
    if (r % 3 == 0)
        v += (int)accumulate<unsigned>((unsigned)v, 1u);
    Vec a{v, r}, b{r, v};
    Vec c = a + b;
    c += a;
    sink = scale(c.x) + twice(c.y);
    n_round++;
}

} // namespace motor

int main(void)
{
    motor::Filter filter;
    motor::Gain gain;
    motor::Stage *stages[2] = {&filter, &gain};

    mcuprof_init();
    if (mcuprof_sampler_start(BOARD_TIMER_HZ, SAMPLE_RATE_HZ) != MCUPROF_OK) {
        board_puts("cxx_shapes: the sampler did not start\n");
        return 1;
    }
    mcuprof_start();
    for (int r = 0; r < ROUNDS; r++)
        motor::run_round(stages, r);
    mcuprof_stop();

    /* The names as the ELF spells them (c++filt reads each one back). */
    expect_arc("main", "_ZN5motor9run_roundEPPNS_5StageEi", n_round);
    expect_arc("_ZN5motor9run_roundEPPNS_5StageEi", "_ZN5motor6Filter4stepEi", n_filter);
    expect_arc("_ZN5motor9run_roundEPPNS_5StageEi", "_ZN5motor4Gain4stepEi", n_gain);
    expect_arc("_ZN5motor9run_roundEPPNS_5StageEi", "_Z10accumulateIiET_S0_S0_", n_accumulate<int>);
    expect_arc("_ZN5motor9run_roundEPPNS_5StageEi", "_Z10accumulateIjET_S0_S0_", n_accumulate<unsigned>);
    expect_arc("_ZN5motor9run_roundEPPNS_5StageEi", "_ZplRK3VecS1_", n_plus);
    expect_arc("_ZN5motor9run_roundEPPNS_5StageEi", "_ZN3VecpLERKS_", n_plus_assign);
    expect_arc("_ZN5motor9run_roundEPPNS_5StageEi", "_ZN12_GLOBAL__N_15scaleEi", n_scale);
    expect_arc("_ZN5motor9run_roundEPPNS_5StageEi", "_ZZN5motor9run_roundEPPNS_5StageEiENKUliE_clEi", n_lambda);
    board_puts("EXPECT-INFO lost_arcs_table_full 0\n");
    return mcuprof_write_semihosting("mcuprof.img") == 0 ? 0 : 1;
}

/*
 * time_os_cxx.cpp - time_os.c's C++ functions: a member function defined
 * in its class and a template instance, which GCC emits in COMDAT
 * sections (.text._ZN6Filter4stepEi, .text._ZN5ScaleILi3EE3runEi), each
 * aligned like any other code section. Their arguments are ints so that
 * gprof names them the same on every target (uint32_t is unsigned long
 * on arm-none-eabi, unsigned int on RISC-V).
 */
#include "spin.h"
#include "time_os.h"

/* (steps_ keeps `this` in use: without it GCC would make the call an
 * .isra clone, a name gprof 2.40 does not list) */
class Filter {
  public:
    __attribute__((noinline)) void step(int n)
    {
        SPIN_LOOP(n);
        steps_++;
    }
    unsigned steps() const { return steps_; }

  private:
    unsigned steps_ = 0;
};

volatile unsigned os_filter_steps;

template <int K> struct Scale {
    __attribute__((noinline)) static void run(int n) { SPIN_LOOP(n); }
};

extern "C" void os_cxx_work(int filter_n, int scale_n)
{
    Filter f;
    f.step(filter_n);
    os_filter_steps = os_filter_steps + f.steps();
    Scale<3>::run(scale_n);
}

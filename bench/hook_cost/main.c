/*
 * main.c - instructions per instrumented call and per sample, measured
 * under QEMU -icount shift=0, for whichever runtime prof.h is built on.
 *
 *   Cortex-M: QEMU models no cycle counter, but under -icount shift=0 every
 *   instruction advances virtual time by exactly 1 ns, so SysTick counts
 *   instructions (1e9 / BOARD_SYSTICK_HZ of them per tick).
 *   RISC-V: minstret, which QEMU derives from the instruction count.
 *
 * Every case is the difference between the -pg code and the same code
 * without -pg (calls.h), divided by the number of calls. Prints
 *   hook BOARD RUNTIME CASE EXTRA_INSTRUCTIONS_PER_CALL
 *   sampler BOARD ours INSTRUCTIONS_PER_SAMPLE SAMPLES
 * (RUNTIME "paths" with call paths, BENCH_PATHS: the case "nest" and the
 * line "sampler-calls", a sampler that finds a new path each time, too;
 * and "sampler-deep" and "sampler-deep-calls", a path 8 frames deep found
 * as the last sample left it, or again after calls came and went)
 *   ram BOARD RUNTIME BYTES ARCS
 * and a "check" line for anything that did not behave as the case needs.
 * Nothing here is instrumented: only the calls in calls_pg.c are.
 */
#include "board.h"
#include "calls.h"
#include "prof.h"

#if defined(BENCH_OURS)
#include "mcuprof.h"
#include "mcuprof/image.h"
#endif

#define NOPROF __attribute__((no_instrument_function))
/* Repetitions of a set of new arcs; each needs a reset of the tables,
 * whose cost cancels out (the baseline resets just the same). */
#define REPS 16u
/* Sampler case: spin 2 * SPIN_N instructions at SAMPLE_HZ. At 50 kHz a
 * sample every 20 us = 20000 instructions, 2000 samples in all (at 100 kHz
 * SysTick's periods, 160 to 320 ticks, leave no room for the dither above
 * its 128-tick minimum gap on the 16 and 20 MHz boards). */
#define SPIN_N 20000000u
#ifndef SAMPLE_HZ
#define SAMPLE_HZ 50000u
#endif

static int failures;

#if defined(__arm__)
#define SYST_CSR (*(volatile uint32_t *)0xE000E010u)
#define SYST_RVR (*(volatile uint32_t *)0xE000E014u)
#define SYST_CVR (*(volatile uint32_t *)0xE000E018u)

NOPROF static uint64_t ticks_to_insns(uint64_t ticks)
{
    return ticks * 1000000000u / BOARD_SYSTICK_HZ;
}

/* Instructions taken by run(arg): SysTick free-running, no interrupt. */
NOPROF static uint64_t count(void (*run)(uintptr_t), uintptr_t arg)
{
    SYST_CSR = 0;
    SYST_RVR = 0x00FFFFFFu;
    SYST_CVR = 0;
    SYST_CSR = 5u; /* processor clock, enabled, no interrupt */
    uint32_t start = SYST_CVR;
    run(arg);
    uint32_t end = SYST_CVR;
    SYST_CSR = 0;
    return ticks_to_insns((start - end) & 0x00FFFFFFu); /* counts down */
}
#elif defined(__riscv)
NOPROF static uint32_t instret(void)
{
    uintptr_t n;
    __asm__ volatile("csrr %0, minstret" : "=r"(n));
    return (uint32_t)n; /* every measurement takes far fewer than 2^32 */
}

NOPROF static uint64_t count(void (*run)(uintptr_t), uintptr_t arg)
{
    uint32_t start = instret();
    run(arg);
    return (uint32_t)(instret() - start);
}
#endif

/* Adapters: count() takes one argument. */
NOPROF static void run_void(uintptr_t fn)
{
    ((void (*)(void))(uintptr_t)fn)();
}
NOPROF static uint64_t count_fn(void (*fn)(void))
{
    return count(run_void, (uintptr_t)fn);
}
NOPROF static void reset_then(uintptr_t fn)
{
    for (uint32_t r = 0; r < REPS; r++) {
        bench_prof_reset();
        ((void (*)(void))(uintptr_t)fn)();
    }
}
NOPROF static void repeat(uintptr_t fn)
{
    for (uint32_t r = 0; r < REPS; r++)
        ((void (*)(void))(uintptr_t)fn)();
}

NOPROF static void put_fixed2(int64_t v100)
{
    if (v100 < 0) {
        board_putc('-');
        v100 = -v100;
    }
    board_put_u32((uint32_t)(v100 / 100));
    board_putc('.');
    board_putc((char)('0' + (v100 / 10) % 10));
    board_putc((char)('0' + v100 % 10));
}

NOPROF static void report(const char *what, uint64_t with, uint64_t without, uint32_t calls)
{
    board_puts("hook " BOARD_NAME " ");
    board_puts(bench_prof_name());
    board_putc(' ');
    board_puts(what);
    board_putc(' ');
    /* rounded to the nearest hundredth */
    put_fixed2(((int64_t)(with - without) * 100 + (int64_t)calls / 2) / (int64_t)calls);
    board_putc('\n');
}

NOPROF static void check(int ok, const char *what, uint32_t value)
{
    if (ok)
        return;
    failures++;
    board_puts("check " BOARD_NAME " ");
    board_puts(bench_prof_name());
    board_putc(' ');
    board_puts(what);
    board_putc(' ');
    board_put_u32(value);
    board_putc('\n');
}

#if defined(BENCH_OURS)
NOPROF static void spin(uintptr_t n)
{
    plain_spin((uint32_t)n);
}

NOPROF static uint32_t samples_taken(void)
{
    return ((const volatile struct mcuprof_header *)mcuprof_image())->samples_taken;
}

#if defined(BENCH_PATHS)
/* Spin iterations per call of the innermost frame of the deep path with
 * calls between samples: about 60 calls a sample. */
#define DEEP_SPIN 100u

/* SPIN_N iterations in the innermost of 8 frames, entered once. */
NOPROF static void deep_same(uintptr_t n)
{
    pg_deep((uint32_t)n, 1u);
}

/* The same in calls of DEEP_SPIN iterations from the 7th frame. */
NOPROF static void deep_calls(uintptr_t n)
{
    pg_deep(DEEP_SPIN, (uint32_t)n / DEEP_SPIN);
}

/* SPIN_N instructions' worth of calls of a profiled leaf from a profiled
 * caller: every sample finds a call path other than the last one. */
NOPROF static void nest(uintptr_t n)
{
    for (uintptr_t r = 0; r < n / (LOOP_CALLS * 8u); r++)
        pg_nest_loop();
}
#endif

/* Instructions per sampler interrupt, vector to exception return: the
 * same run of RUN(ARG) with and without the sampler, profiling on; the
 * samples it took are the image's samples_taken. */
#if defined(BENCH_TASKS)
/* BENCH_TASKS: a kernel's current-task variable that holds one task all
 * along, as while a task runs for many sampler periods. */
static uint32_t bench_task;
static void *volatile bench_current = &bench_task;
#endif

NOPROF static void measure_sampler(const char *what, void (*run)(uintptr_t), uintptr_t arg)
{
    uint32_t s0, s1;
    uint64_t with;

#if defined(BENCH_TASKS)
    if (mcuprof_tasks_watch((void *const volatile *)&bench_current, 0, 0, 0) != MCUPROF_OK)
        check(0, "tasks_watch", 0);
#endif

    bench_prof_on();
    uint64_t base = count(run, arg);
#if defined(__arm__) && defined(BENCH_CLOCK_NONE)
    /* SysTick alone (mcuprof_systick_tick), as on a part with no clock
     * registered and no CYCCNT: QEMU's models have none */
    (void)mcuprof_sampler_set_clock(0);
#elif defined(__arm__) && defined(BENCH_CLOCK_BOARD)
    /* the board's timer as the sampler's clock (mcuprof_systick_tick_clock),
     * the same path as a part's CYCCNT */
    (void)mcuprof_sampler_set_clock(board_clock_now);
#endif
    int err = mcuprof_sampler_start(BOARD_TIMER_HZ, SAMPLE_HZ);
    if (err != 0) {
        check(0, "sampler_start", SAMPLE_HZ);
        return;
    }
    s0 = samples_taken();
    while (samples_taken() == s0) {
        /* start just after a sample */
    }
#if defined(__arm__)
    /* SysTick is the sampler now, and its periods are dithered: time the
     * spin with the board's clock, which counts at SysTick's rate. */
    (void)board_clock_now(); /* started before the measurement */
    s0 = samples_taken();
    uint32_t c0 = board_clock_now();
    run(arg);
    uint32_t c1 = board_clock_now();
    s1 = samples_taken();
    with = ticks_to_insns(c1 - c0);
#else
    s0 = samples_taken();
    uint32_t i0 = instret();
    run(arg);
    uint32_t i1 = instret();
    s1 = samples_taken();
    with = (uint32_t)(i1 - i0);
#endif
    mcuprof_sampler_stop();
    bench_prof_off();
    check(s1 - s0 > 1000u, "samples", s1 - s0);
    board_puts(what);
    board_puts(" " BOARD_NAME " ");
    board_puts(bench_prof_name());
    board_putc(' ');
    put_fixed2(((int64_t)(with - base) * 100 + (s1 - s0) / 2) / (int64_t)(s1 - s0));
    board_putc(' ');
    board_put_u32(s1 - s0);
    board_putc('\n');
}
#endif

NOPROF int main(void)
{
    const uint32_t loop_calls = LOOP_CALLS, set_calls = REPS * SET_SIZE;

    bench_prof_init();
    check(bench_prof_ram() != 0u, "tables do not fit in RAM", 0);

    /* profiling compiled in, switched off */
    uint64_t plain = count_fn(plain_loop);
    report("off", count_fn(pg_loop), plain, loop_calls);

    /* arc at the head of its chain: recorded once, then every call hits */
    bench_prof_on();
    pg_leaf();
    report("hit", count_fn(pg_loop), plain, loop_calls);

    /* two adjacent call sites, each with its own arc: both hit */
    pg_pair_loop();
    report("pair", count_fn(pg_pair_loop), count_fn(plain_pair_loop), loop_calls);

    /* hits of callees with arguments: what the compiler adds around the
     * hook's call for them, over the hit without */
    pg_arg1_loop();
    report("arg1", count_fn(pg_arg1_loop), count_fn(plain_arg1_loop), loop_calls);
    pg_arg2_loop();
    report("arg2", count_fn(pg_arg2_loop), count_fn(plain_arg2_loop), loop_calls);
    pg_arg4_loop();
    report("arg4", count_fn(pg_arg4_loop), count_fn(plain_arg4_loop), loop_calls);

#if defined(BENCH_PATHS)
    /* call paths: hits whose caller is profiled too, the common case
     * (the loops above have no hook, so their callee finds no caller) */
    pg_nest_loop();
    report("nest", count_fn(pg_nest_loop), count_fn(plain_nest_loop), loop_calls);
#endif

    /* one call site, three callees in turn: each call walks its chain */
    pg_ptr_loop();
    report("chain", count_fn(pg_ptr_loop), count_fn(plain_ptr_loop), loop_calls);

    /* first calls: SET_SIZE new arcs from SET_SIZE call sites */
    uint64_t fresh = count(reset_then, (uintptr_t)pg_set_a);
    check(bench_prof_arcs_used() == SET_SIZE, "new arcs recorded", bench_prof_arcs_used());
    report("new", fresh, count(reset_then, (uintptr_t)plain_set_a), set_calls);

    /* table full: sets a and b fill it, set c finds no record free */
    bench_prof_reset();
    pg_set_a();
    pg_set_b();
    check(bench_prof_arcs_used() == BENCH_ARCS, "table filled", bench_prof_arcs_used());
    uint64_t full = count(repeat, (uintptr_t)pg_set_c);
    report("full", full, count(repeat, (uintptr_t)plain_set_c), set_calls);
    check(bench_prof_lost() != 0u, "lost calls counted", bench_prof_lost());
    bench_prof_off();

    board_puts("ram " BOARD_NAME " ");
    board_puts(bench_prof_name());
    board_putc(' ');
    board_put_u32(bench_prof_ram());
    board_putc(' ');
    board_put_u32(BENCH_ARCS);
    board_putc('\n');

#if defined(BENCH_OURS)
    measure_sampler("sampler", spin, SPIN_N);
#if defined(BENCH_PATHS)
    measure_sampler("sampler-calls", nest, SPIN_N);
    measure_sampler("sampler-deep", deep_same, SPIN_N);
    measure_sampler("sampler-deep-calls", deep_calls, SPIN_N);
#endif
#endif
    return failures ? 1 : 0;
}

/*
 * workload.c - the demo and test workload. Built with -pg like any user
 * code. Each part exercises one thing a call graph can get wrong:
 *
 *   direct calls in loops     run_calls -> leaf_add
 *   self recursion            fib
 *   mutual recursion          is_even <-> is_odd (a gprof cycle)
 *   one call site, 3 callees  apply_ops -> op_add / op_sub / op_mul
 *   tail calls                tail_caller -> tail_target (return f(x))
 *   an interrupt handler      the software IRQ handler -> isr_work -> shared_mid
 *   the sampler's timer       mcuprof_sample_isr_chain -> shared_mid, at any
 *                             instruction, inside the hook too
 *   known time shares         hot_a : hot_b : hot_c = 3 : 2 : 1 in instructions
 *
 * The counts below are the program's own constants; the interrupt counts
 * are counted here, outside the profile, and printed with the rest.
 */
#include "workload.h"

#include "board.h"
#include "mcuprof.h"
#include "spin.h"

#define LEAF_CALLS 1000u
#define FIB_N 12        /* fib(12) makes 465 calls: 1 from outside, 464 recursive */
#define FIB_CALLS 465u
#define EVEN_N 20       /* is_even(20) -> is_odd(19) -> ... -> is_even(0) */
#define EVEN_ROUNDS 5u
#define OPS_ROUNDS 100u /* each of the 3 ops is called OPS_ROUNDS times */
#define TAIL_CALLS 50u
#define SWI_COUNT 40u
#define SHARED_MAIN_CALLS 200u
/* Spin loop iterations: 2 instructions each (subs, bne); 30 M instructions
 * in all, about 10,000 samples at 10 kHz on a 31 MHz core (QEMU's default
 * for the MPS2 and RISC-V boards), which puts a share's 95 % interval
 * within +-1 point. */
#define HOT_A_LOOPS 7500000u
#define HOT_B_LOOPS 5000000u
#define HOT_C_LOOPS 2500000u

volatile uint32_t workload_sink;
static volatile uint32_t swi_seen;   /* software interrupts taken */
static volatile uint32_t ticks_seen; /* sampler ticks that called shared_mid */
static volatile uint8_t ticks_call;  /* 1 while the tick may call shared_mid */
static volatile uint32_t ticks_fpu;  /* ticks that interrupted FPU code */
/* Read through volatile so the compiler cannot see that is_even() is a pure
 * function of a constant and call it once for all rounds. */
static volatile uint32_t even_n = EVEN_N;

__attribute__((noinline)) void leaf_add(uint32_t x)
{
    workload_sink += x;
}

__attribute__((noinline)) void run_calls(void)
{
    for (uint32_t i = 0; i < LEAF_CALLS; i++)
        leaf_add(i);
}

__attribute__((noinline)) uint32_t fib(uint32_t n)
{
    return n < 2u ? n : fib(n - 1u) + fib(n - 2u);
}

int is_odd(uint32_t n);
__attribute__((noinline)) int is_even(uint32_t n)
{
    return n == 0u ? 1 : is_odd(n - 1u);
}
__attribute__((noinline)) int is_odd(uint32_t n)
{
    return n == 0u ? 0 : is_even(n - 1u);
}

__attribute__((noinline)) uint32_t op_add(uint32_t x) { return x + 3u; }
__attribute__((noinline)) uint32_t op_sub(uint32_t x) { return x - 1u; }
__attribute__((noinline)) uint32_t op_mul(uint32_t x) { return x * 5u; }

typedef uint32_t (*op_fn)(uint32_t);
static op_fn const ops[3] = {op_add, op_sub, op_mul};

__attribute__((noinline)) void apply_ops(void)
{
    uint32_t x = 1;
    for (uint32_t i = 0; i < 3u * OPS_ROUNDS; i++)
        x = ops[i % 3u](x); /* one call site, three callees */
    workload_sink += x;
}

__attribute__((noinline)) uint32_t tail_target(uint32_t x)
{
    return x ^ 0x5Au;
}
__attribute__((noinline)) uint32_t tail_caller(uint32_t x)
{
    return tail_target(x + 1u); /* a sibling call without -fno-optimize-sibling-calls */
}

__attribute__((noinline)) void shared_leaf(void)
{
    workload_sink++;
}
/* Called from thread mode and from two interrupt handlers: the arc
 * shared_mid -> shared_leaf collects calls from all three contexts. */
__attribute__((noinline)) void shared_mid(void)
{
    shared_leaf();
}

__attribute__((noinline)) void isr_work(void)
{
    shared_mid();
}

/* The software interrupt: the board calls this from its handler. */
void board_swi_handler(void)
{
    swi_seen++;
    isr_work();
}

/* Runs in the sampler's timer interrupt after every sample. */
void mcuprof_sample_isr_chain(void)
{
    if (ticks_call) {
        ticks_seen++;
#if defined(__arm__)
        /* lr still holds EXC_RETURN here; bit 4 clear: the hardware pushed
         * an extended (FPU) frame, the case where a sampler that reads the
         * stacked PC at the wrong offset goes wrong. */
        if (!((uintptr_t)__builtin_return_address(0) & 0x10u))
            ticks_fpu++;
#endif
        shared_mid();
    }
}

uint32_t workload_fpu_ticks(void)
{
    return ticks_fpu;
}

/* Spin loops of a known instruction count (spin.h). Same code in each, so
 * their time shares are their iteration shares. Each starts on a 32-byte
 * boundary: a histogram bin that straddles two functions is split between
 * them by gprof in proportion to the bytes each covers, which would blur
 * functions this small (a dozen bytes) with their neighbours; the function
 * after them (workload_run) is aligned for the same reason. */
#define HOT __attribute__((noinline, aligned(32)))
HOT void hot_a(uint32_t n) { SPIN_LOOP(n); }
HOT void hot_b(uint32_t n) { SPIN_LOOP(n); }
HOT void hot_c(uint32_t n) { SPIN_LOOP(n); }

HOT void workload_run(void)
{
    board_swi_enable();
    ticks_call = 1;
#if defined(__ARM_FP)
    /* One floating-point instruction sets CONTROL.FPCA: from then on every
     * exception taken from thread mode stacks an FPU frame. */
    static volatile float f = 1.5f;
    f = f * 3.0f;
#endif

    run_calls();
    workload_sink += fib(FIB_N);
    for (uint32_t i = 0; i < EVEN_ROUNDS; i++)
        workload_sink += (uint32_t)is_even(even_n);
    apply_ops();
    for (uint32_t i = 0; i < TAIL_CALLS; i++)
        workload_sink += tail_caller(i);
    for (uint32_t i = 0; i < SWI_COUNT; i++)
        board_swi_trigger(); /* the handler has run when this returns */
    for (uint32_t i = 0; i < SHARED_MAIN_CALLS; i++)
        shared_mid();
    hot_a(HOT_A_LOOPS);
    hot_b(HOT_B_LOOPS);
    hot_c(HOT_C_LOOPS);

    ticks_call = 0;
}

static void expect(const char *kind, const char *a, const char *b, uint32_t n)
{
    board_puts("EXPECT ");
    board_puts(kind);
    board_putc(' ');
    board_puts(a);
    board_putc(' ');
    if (b) {
        board_puts(b);
        board_putc(' ');
    }
    if (n != UINT32_MAX)
        board_put_u32(n);
    board_putc('\n');
}

void workload_print_expectations(void)
{
    expect("arc", "run_calls", "leaf_add", LEAF_CALLS);
    expect("arc", "workload_run", "fib", 1);
    expect("calls", "fib", 0, FIB_CALLS);
    expect("arc", "fib", "fib", FIB_CALLS - 1u);
    expect("arc", "workload_run", "is_even", EVEN_ROUNDS);
    expect("arc", "is_even", "is_odd", EVEN_ROUNDS * (EVEN_N / 2u));
    expect("arc", "is_odd", "is_even", EVEN_ROUNDS * (EVEN_N / 2u));
    expect("arc", "apply_ops", "op_add", OPS_ROUNDS);
    expect("arc", "apply_ops", "op_sub", OPS_ROUNDS);
    expect("arc", "apply_ops", "op_mul", OPS_ROUNDS);
    expect("arc", "workload_run", "tail_caller", TAIL_CALLS);
    expect("arc", "tail_caller", "tail_target", TAIL_CALLS);
    expect("noarc", "workload_run", "tail_target", UINT32_MAX);
    expect("arc", "isr_work", "shared_mid", swi_seen);
    expect("arc", "mcuprof_sample_isr_chain", "shared_mid", ticks_seen);
    expect("arc", "workload_run", "shared_mid", SHARED_MAIN_CALLS);
    expect("arc", "shared_mid", "shared_leaf", SHARED_MAIN_CALLS + swi_seen + ticks_seen);
    /* hot_a : hot_b : hot_c = 3 : 2 : 1, everything else is a few
     * thousand instructions against 30 million */
    board_puts("EXPECT share hot_a 50.0 3\n");
    board_puts("EXPECT share hot_b 33.3 3\n");
    board_puts("EXPECT share hot_c 16.7 3\n");
}

/*
 * paths_callers.c - inclusive time by caller, measured: caller_a() calls
 * work(1) 100 times, caller_b() calls work(9) 100 times. work's time is
 * 10 % caller_a's and 90 % caller_b's (instruction counts, spin.h); gprof
 * splits it by call counts, 50/50, as it cannot know better. The path
 * table must say 10/90 within 1 point, from at least 10,000 samples.
 *
 * Every path must also be one the program can have: the root in main,
 * then a caller, then work.
 */
#include <stdint.h>

/* The profiled functions, which name the frames (paths_common.h). */
void work(uint32_t units);
void caller_a(void);
void caller_b(void);
int main(void);
#define PC_FUNCTIONS (const void *)caller_a, (const void *)caller_b, (const void *)work, \
    (const void *)main
#include "paths_common.h"

#define ROUNDS 5u
#define CALLS 20u /* per round and caller: 100 calls each */
/* spin iterations of work(1): 100 * (1 + 9) * 20,000 * 2 = 40 M
 * instructions, 12,800 samples at 10 kHz on a 31 MHz core */
#define UNIT 20000u

__attribute__((noinline)) void work(uint32_t units)
{
    uint32_t n = units * UNIT;
    SPIN_LOOP(n);
}

__attribute__((noinline)) void caller_a(void)
{
    for (uint32_t i = 0; i < CALLS; i++)
        work(1);
}

__attribute__((noinline)) void caller_b(void)
{
    for (uint32_t i = 0; i < CALLS; i++)
        work(9);
}

int main(void)
{
    PC_START();
    for (uint32_t r = 0; r < ROUNDS; r++) {
        caller_a();
        caller_b();
    }
    tc_finish();

    const struct mcuprof_ext *e = pc_table();
    const void *const in_a[] = {0, (const void *)caller_a, (const void *)work};
    const void *const in_b[] = {0, (const void *)caller_b, (const void *)work};
    uint32_t via_a = 0, via_b = 0, other = 0, total = pc_check_accounted(e);
    for (uint32_t i = 0; i < e->used; i++) {
        const struct mcuprof_task_path *p = pc_path(e, i);
        if (p->flags)
            tc_fail("a path is truncated or cut: nothing here is deep, and there are no tasks");
        if (pc_path_is(p, (const void *)main, in_a, 3))
            via_a += p->samples;
        else if (pc_path_is(p, (const void *)main, in_b, 3))
            via_b += p->samples;
        else if (!pc_path_is(p, (const void *)main, in_a, 1) && !pc_path_is(p, (const void *)main, in_a, 2) &&
                 !pc_path_is(p, (const void *)main, in_b, 2)) {
            pc_fail_path(p);
        } else {
            other += p->samples;
        }
    }
    pc_print("samples taken", tc_header()->samples_taken);
    pc_print("paths [main, caller_a, work]", via_a);
    pc_print("paths [main, caller_b, work]", via_b);
    pc_print("paths [main], [main, caller_x]", other);
    if (total < 10000u)
        tc_fail("fewer than 10,000 samples");

    uint32_t got = pc_hundredths(via_a, (uint64_t)via_a + via_b);
    uint32_t truth = pc_hundredths(1u, 1u + 9u);
    board_puts("work via caller_a: paths ");
    pc_put_pct(got);
    board_puts(", truth ");
    pc_put_pct(truth);
    board_puts(", gprof (by calls) ");
    pc_put_pct(pc_hundredths(ROUNDS * CALLS, 2u * ROUNDS * CALLS));
    board_puts("\nwork via caller_b: paths ");
    pc_put_pct(10000u - got);
    board_puts(", truth ");
    pc_put_pct(10000u - truth);
    board_puts(", gprof (by calls) ");
    pc_put_pct(pc_hundredths(ROUNDS * CALLS, 2u * ROUNDS * CALLS));
    board_putc('\n');
    if (got > truth + 100u || truth > got + 100u)
        tc_fail("work's time via caller_a is more than 1 point from the truth");

    /* gprof sees the same calls */
    board_puts("EXPECT arc caller_a work 100\n");
    board_puts("EXPECT arc caller_b work 100\n");
    board_puts("EXPECT calls work 200\n");
    board_puts("EXPECT-INFO samples-accounted yes\n");
    return 0;
}

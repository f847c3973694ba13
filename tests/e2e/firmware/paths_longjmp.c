/*
 * paths_longjmp.c - a longjmp out of a deep call. jumper() sets a jump
 * buffer (__builtin_setjmp: no C library), dives 6 calls deep, spins in
 * deep_spin(), then jumps straight back into jumper(), which goes on to
 * call after(). The dive's frames never return: the hook and the sampler
 * must drop them by the stack pointer alone. Every path with after() must
 * be main, jumper, after; the dive's paths main, jumper, dive repeated,
 * deep_spin; and after()'s share of the samples is its share of the
 * work (40 %).
 */
#include <stdint.h>

/* The profiled functions, which name the frames (paths_common.h). */
void deep_spin(uint32_t n);
void dive(uint32_t d);
void after(uint32_t n);
void jumper(void);
int main(void);
#define PC_FUNCTIONS (const void *)deep_spin, (const void *)dive, (const void *)after, \
    (const void *)jumper, (const void *)main
#include "paths_common.h"

#define ROUNDS 200u
#define DIVE 5u
#define DEEP_LOOPS 60000u  /* 60 % */
#define AFTER_LOOPS 40000u /* 40 % */

static void *jump_buffer[5];

__attribute__((noinline)) void deep_spin(uint32_t n)
{
    SPIN_LOOP(n);
}

__attribute__((noinline)) void dive(uint32_t d)
{
    if (d == 0u) {
        deep_spin(DEEP_LOOPS);
        __builtin_longjmp(jump_buffer, 1);
    }
    dive(d - 1u);
    __asm__ volatile("" ::: "memory"); /* not a tail call */
}

__attribute__((noinline)) void after(uint32_t n)
{
    SPIN_LOOP(n);
}

__attribute__((noinline)) void jumper(void)
{
    if (__builtin_setjmp(jump_buffer) == 0)
        dive(DIVE);
    after(AFTER_LOOPS);
}

int main(void)
{
    PC_START();
    for (uint32_t r = 0; r < ROUNDS; r++)
        jumper();
    tc_finish();

    const struct mcuprof_ext *e = pc_table();
    uint32_t in_after = 0, in_deep = 0, other = 0;
    pc_check_accounted(e);
    for (uint32_t i = 0; i < e->used; i++) {
        const struct mcuprof_task_path *p = pc_path(e, i);
        uint32_t k = p->depth < 2u ? p->depth : 2u, dives = 0, ok;
        if (p->flags)
            tc_fail("a path is truncated or cut: nothing here is deeper than the stack, and there are no tasks");
        ok = p->depth >= 1u && pc_is_main(pc_frame(p, 0), (const void *)main) &&
             (p->depth == 1u || pc_is(pc_frame(p, 1), (const void *)jumper));
        if (ok && p->depth == 3u && pc_is(pc_frame(p, 2), (const void *)after)) {
            in_after += p->samples;
            continue;
        }
        for (; ok && k < p->depth && pc_is(pc_frame(p, k), (const void *)dive); k++)
            dives++;
        if (ok && k < p->depth && pc_is(pc_frame(p, k), (const void *)deep_spin) && dives == DIVE + 1u) {
            in_deep += p->samples;
            k++;
        } else {
            other += p->samples;
        }
        if (!ok || k != p->depth) {
            pc_fail_path(p);
        }
    }
    pc_print("samples taken", tc_header()->samples_taken);
    pc_print("paths [main, jumper, after]", in_after);
    pc_print("paths [main, jumper, dive x6, deep_spin]", in_deep);
    pc_print("other paths: [main], [main, jumper], [main, jumper, dive ...]", other);
    uint32_t got = pc_hundredths(in_after, (uint64_t)in_after + in_deep);
    uint32_t truth = pc_hundredths(AFTER_LOOPS, AFTER_LOOPS + DEEP_LOOPS);
    board_puts("after: paths ");
    pc_put_pct(got);
    board_puts(", truth ");
    pc_put_pct(truth);
    board_putc('\n');
    if (got > truth + 100u || truth > got + 100u)
        tc_fail("after()'s share is more than 1 point from the truth");

    board_puts("EXPECT arc jumper after 200\n");
    board_puts("EXPECT calls deep_spin 200\n");
    board_puts("EXPECT-INFO samples-accounted yes\n");
    return 0;
}

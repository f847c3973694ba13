/*
 * paths_shapes.c - callees of every shape the pruning has to tell apart,
 * called one after the other so that each finds the frames of the last
 * one under it: a leaf that keeps no frame (Cortex-M3 and up: it shares
 * its caller's sp), functions with a small and a large frame, and the
 * same four through one call site (a pointer). No path may ever show a
 * callee that has returned: each is main, then sequence or dispatch, then
 * one callee, then (for the framed ones) bare.
 *
 * Not here, as docs/paths.md says: on Cortex-M3 and up, a leaf that keeps
 * locals on the stack but does not save lr may show a sibling with a
 * smaller frame that returned before it.
 */
#include <stdint.h>

/* The profiled functions, which name the frames (paths_common.h). */
void bare(uint32_t n);
void small(uint32_t n);
void large(uint32_t n);
void sequence(uint32_t n);
void dispatch(uint32_t n);
int main(void);
#define PC_FUNCTIONS                                                                                 \
    (const void *)bare, (const void *)small, (const void *)large, (const void *)sequence,          \
        (const void *)dispatch, (const void *)main
#include "paths_common.h"

#define ROUNDS 200u
#define LOOPS 10000u

/* no frame (on ARMv7-M and up): nothing to save, nothing on the stack */
__attribute__((noinline)) void bare(uint32_t n)
{
    SPIN_LOOP(n);
}

/* a frame of a few words: it calls */
__attribute__((noinline)) void small(uint32_t n)
{
    bare(n);
    __asm__ volatile("" ::: "memory"); /* not a tail call */
}

/* a frame of 40 words: it calls, and keeps an array */
__attribute__((noinline)) void large(uint32_t n)
{
    volatile uint32_t buffer[40];
    buffer[n % 40u] = n;
    bare(n);
    __asm__ volatile("" ::"r"(buffer[0]) : "memory");
}

__attribute__((noinline)) void sequence(uint32_t n)
{
    bare(n);
    large(n);
    bare(n);
    small(n);
    large(n);
    small(n);
    bare(n);
}

typedef void (*callee_t)(uint32_t);
static callee_t volatile callees[] = {bare, large, small, bare, small, large};

/* the same callees, from one call site */
__attribute__((noinline)) void dispatch(uint32_t n)
{
    for (uint32_t i = 0; i < sizeof callees / sizeof callees[0]; i++)
        callees[i](n);
}

int main(void)
{
    PC_START();
    for (uint32_t r = 0; r < ROUNDS; r++) {
        sequence(LOOPS);
        dispatch(LOOPS);
    }
    tc_finish();

    const struct mcuprof_ext *e = pc_table();
    const void *const callers[] = {(const void *)sequence, (const void *)dispatch};
    const void *const callees_by_name[] = {(const void *)bare, (const void *)small, (const void *)large};
    static uint32_t in_bare[2][3]; /* (static: no memset without a C library) */
    uint32_t other = 0;
    pc_check_accounted(e);
    for (uint32_t i = 0; i < e->used; i++) {
        const struct mcuprof_task_path *p = pc_path(e, i);
        int ok = !p->flags && p->depth >= 1u && pc_is_main(pc_frame(p, 0), (const void *)main);
        int c = -1, f = -1;
        if (ok && p->depth >= 2u) {
            c = pc_is(pc_frame(p, 1), callers[0]) ? 0 : pc_is(pc_frame(p, 1), callers[1]) ? 1 : -1;
            ok = c >= 0;
        }
        if (ok && p->depth >= 3u) {
            for (uint32_t k = 0; k < 3u; k++)
                if (pc_is(pc_frame(p, 2), callees_by_name[k]))
                    f = (int)k;
            ok = f >= 0;
        }
        if (ok && p->depth >= 4u) /* under small or large, only bare */
            ok = f > 0 && p->depth == 4u && pc_is(pc_frame(p, 3), (const void *)bare);
        ok = ok && p->depth <= 4u;
        if (!ok) {
            pc_fail_path(p);
        }
        if (p->depth == 3u && f == 0)
            in_bare[c][0] += p->samples; /* bare called directly */
        else if (p->depth == 4u)
            in_bare[c][f] += p->samples; /* bare under small or large */
        else
            other += p->samples;
    }
    /* bare spins as long at each call: sequence calls it 3 times directly
     * and 2 times under each of small and large, dispatch 2 times each */
    static const char *const names[2][3] = {{"sequence: bare", "sequence: small, bare", "sequence: large, bare"},
                                            {"dispatch: bare", "dispatch: small, bare", "dispatch: large, bare"}};
    static const uint32_t calls[2][3] = {{3u, 2u, 2u}, {2u, 2u, 2u}};
    uint32_t all = 0;
    for (uint32_t c = 0; c < 2u; c++)
        for (uint32_t f = 0; f < 3u; f++)
            all += in_bare[c][f];
    pc_print("samples taken", tc_header()->samples_taken);
    pc_print("other paths", other);
    for (uint32_t c = 0; c < 2u; c++)
        for (uint32_t f = 0; f < 3u; f++) {
            uint32_t got = pc_hundredths(in_bare[c][f], all);
            uint32_t truth = pc_hundredths(calls[c][f], 13u);
            board_puts(names[c][f]);
            board_puts(": paths ");
            pc_put_pct(got);
            board_puts(", truth ");
            pc_put_pct(truth);
            board_putc('\n');
            if (got > truth + 100u || truth > got + 100u)
                tc_fail("a path's share is more than 1 point from the truth");
        }

    board_puts("EXPECT calls bare 2600\n");
    board_puts("EXPECT arc dispatch large 400\n");
    board_puts("EXPECT arc sequence large 400\n");
    board_puts("EXPECT-INFO samples-accounted yes\n");
    return 0;
}

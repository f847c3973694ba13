/*
 * paths_recursion.c - recursion, shallower and deeper than the shadow
 * stack (PATH_DEPTH 12): rec(5) from shallow() fits, rec(40) from deep()
 * does not. Deep paths keep their root side (main, deep, rec: 5 frames)
 * and their leaf side, the frames between replaced by one 0 frame, and
 * are flagged GAP (and counted in the table's invalid counter); no path
 * is wrong: a complete path is main, shallow or deep, rec repeated, then
 * leaf; one with a gap is main, deep, rec repeated, the gap, rec
 * repeated, then leaf (or nothing after the gap, while the recursion
 * unwinds within the frames it stands for). After each deep round,
 * shallow paths are complete again.
 */
#include <stdint.h>

/* The profiled functions, which name the frames (paths_common.h). */
void leaf(uint32_t n);
void rec(uint32_t d);
void shallow(void);
void deep(void);
int main(void);
#define PC_FUNCTIONS (const void *)leaf, (const void *)rec, (const void *)shallow, \
    (const void *)deep, (const void *)main
#include "paths_common.h"

#define ROUNDS 20u
#define SHALLOW 5u
#define DEEP 40u
#define LEAF_LOOPS 1000000u /* 80 M instructions in all: 25,000 samples at 31 MHz */

__attribute__((noinline)) void leaf(uint32_t n)
{
    SPIN_LOOP(n);
}

__attribute__((noinline)) void rec(uint32_t d)
{
    if (d == 0u) {
        leaf(LEAF_LOOPS);
        return;
    }
    rec(d - 1u);
    __asm__ volatile("" ::: "memory"); /* not a tail call */
}

__attribute__((noinline)) void shallow(void)
{
    rec(SHALLOW);
    __asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void deep(void)
{
    rec(DEEP);
    __asm__ volatile("" ::: "memory");
}

int main(void)
{
    PC_START();
    for (uint32_t r = 0; r < ROUNDS; r++) {
        shallow();
        deep();
    }
    tc_finish();

    const struct mcuprof_ext *e = pc_table();
    uint32_t depth_max = (e->entry_size - (uint32_t)sizeof(struct mcuprof_task_path)) / (uint32_t)sizeof(uintptr_t);
    uint32_t gapped = 0, shallow_leaf = 0, deep_leaf = 0, deep_complete = 0, other = 0;
    pc_check_accounted(e);
    for (uint32_t i = 0; i < e->used; i++) {
        const struct mcuprof_task_path *p = pc_path(e, i);
        uint32_t k = 0, recs = 0, ok = 1, has_leaf = 0;
        const void *phase = 0;
        if (p->flags & ~(uint32_t)MCUPROF_PATH_GAP)
            tc_fail("a path is cut or truncated: there are no tasks, the root side stays");
        /* main, then shallow or deep */
        ok = p->depth >= 1u && pc_is_main(pc_frame(p, 0), (const void *)main);
        k = 1;
        if (ok && p->depth > 1u) {
            phase = pc_is(pc_frame(p, 1), (const void *)shallow) ? (const void *)shallow
                    : pc_is(pc_frame(p, 1), (const void *)deep) ? (const void *)deep
                                                                 : 0;
            ok = phase != 0;
            k = 2;
        }
        uint32_t gaps = 0;
        for (; ok && k < p->depth; k++) {
            if (pc_frame(p, k) == 0u && (p->flags & MCUPROF_PATH_GAP) && !gaps)
                gaps++;
            else if (pc_is(pc_frame(p, k), (const void *)rec))
                recs++;
            else
                break;
        }
        if (ok && k < p->depth && pc_is(pc_frame(p, k), (const void *)leaf)) {
            has_leaf = 1;
            k++;
        }
        ok = ok && k == p->depth;
        if (p->flags & MCUPROF_PATH_GAP) {
            /* under deep(), the gap once, after the root side of 5
             * frames ((depth - 1) / 2), no deeper than the stack */
            ok = ok && gaps == 1u && phase == (const void *)deep && pc_frame(p, (depth_max - 1u) / 2u) == 0u &&
                 p->depth <= depth_max;
            gapped += p->samples;
            if (has_leaf)
                deep_leaf += p->samples;
        } else if (phase == (const void *)shallow) {
            /* rec(5) .. rec(0): 6 frames, then leaf */
            ok = ok && !gaps && recs <= SHALLOW + 1u && (!has_leaf || recs == SHALLOW + 1u);
            if (has_leaf)
                shallow_leaf += p->samples;
        } else if (phase == (const void *)deep) {
            /* complete only while it fits, and never down to leaf */
            ok = ok && !gaps && p->depth <= depth_max && !has_leaf;
            deep_complete += p->samples;
        } else {
            ok = ok && !gaps && p->depth == 1u;
            other += p->samples;
        }
        if (!ok) {
            pc_fail_path(p);
        }
    }
    pc_print("samples taken", tc_header()->samples_taken);
    pc_print("depth_max", depth_max);
    pc_print("samples past the stack's depth (table's invalid)", e->invalid);
    pc_print("samples in paths with a gap", gapped);
    pc_print("shallow paths down to leaf", shallow_leaf);
    pc_print("deep paths down to leaf, with a gap", deep_leaf);
    pc_print("deep paths while complete", deep_complete);
    pc_print("main alone", other);
    if (e->invalid == 0u || e->invalid != gapped)
        tc_fail("samples in paths with a gap are not counted as invalid");
    /* leaf runs as long under shallow() as under deep(): the shallow paths
     * that reach it hold half of leaf's samples, within 1 point */
    uint32_t half = pc_hundredths(shallow_leaf, (uint64_t)shallow_leaf + deep_leaf);
    board_puts("leaf under shallow(): ");
    pc_put_pct(half);
    board_puts(", truth 50.00 %\n");
    if (half > 5100u || half < 4900u)
        tc_fail("leaf's samples under shallow() are more than 1 point from half");

    board_puts("EXPECT calls leaf 40\n");
    board_puts("EXPECT arc shallow rec 20\n");
    board_puts("EXPECT arc deep rec 20\n");
    board_puts("EXPECT-INFO samples-accounted yes\n");
    return 0;
}

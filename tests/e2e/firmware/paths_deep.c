/*
 * paths_deep.c - recursion deeper than the shadow stack at the default
 * PATH_DEPTH, then calls from the function that recursed: every path is
 * either whole or flagged, never wrong. Three phases, each a function
 * called from main:
 *   mutual()   is_even(20) <-> is_odd (21 frames, the demo's), bottom()
 *              spinning under is_even(0); then hot() called from mutual()
 *              itself (on Cortex-M3 and up a leaf without a frame: it has
 *              mutual()'s stack pointer);
 *   deep()     rec(100), rleaf() spinning under rec(0); then after();
 *   sorting()  a recursive quicksort, partition() at every level.
 * A whole path is main, the phase, then a chain the phase can make; a
 * path that overflowed the stack keeps its root side (main, the phase,
 * what followed) and its leaf side, with the frames between replaced by
 * one gap (MCUPROF_PATH_GAP). The firmware prints, per phase, the share
 * of samples in whole paths and in paths that start with main and the
 * phase (the figures of docs/paths.md, "Deep paths").
 */
#include <stdint.h>

void bottom(uint32_t n);
void hot(uint32_t n);
int is_even(uint32_t n);
int is_odd(uint32_t n);
void mutual(void);
void rleaf(uint32_t n);
void rec(uint32_t d);
void after(uint32_t n);
void deep(void);
void partition_spin(void);
uint32_t partition(uint32_t *a, uint32_t lo, uint32_t hi);
void qs(uint32_t *a, uint32_t lo, uint32_t hi);
void sorting(void);
int main(void);

/* Function indices, in PC_FUNCTIONS order. */
enum { F_BOTTOM, F_HOT, F_EVEN, F_ODD, F_MUTUAL, F_RLEAF, F_REC, F_AFTER, F_DEEP, F_PART, F_QS, F_SORTING,
       F_MAIN, F_COUNT };
#define PC_FUNCTIONS (const void *)bottom, (const void *)hot, (const void *)is_even, (const void *)is_odd, \
    (const void *)mutual, (const void *)rleaf, (const void *)rec, (const void *)after, (const void *)deep,  \
    (const void *)partition, (const void *)qs, (const void *)sorting, (const void *)main
#include "paths_common.h"

#define EVEN_N 20u
#define EVEN_ROUNDS 5u
#define DEEP_N 100u
#define DEEP_ROUNDS 5u
#define SORT_N 240u /* (the microbit has 16 KB of RAM) */
#define SORT_ROUNDS 15u
#define LOOPS 1000000u /* 2 M instructions */

static volatile uint32_t even_n = EVEN_N;
static volatile uint32_t sink;
static uint32_t data[SORT_N];

__attribute__((noinline)) void bottom(uint32_t n) { SPIN_LOOP(n); }
__attribute__((noinline)) void hot(uint32_t n) { SPIN_LOOP(n); }

__attribute__((noinline)) int is_even(uint32_t n)
{
    if (n == 0u) {
        bottom(LOOPS);
        return 1;
    }
    return is_odd(n - 1u);
}

__attribute__((noinline)) int is_odd(uint32_t n)
{
    return n == 0u ? 0 : is_even(n - 1u);
}

__attribute__((noinline)) void mutual(void)
{
    for (uint32_t i = 0; i < EVEN_ROUNDS; i++)
        sink += (uint32_t)is_even(even_n);
    hot(5u * LOOPS);
}

__attribute__((noinline)) void rleaf(uint32_t n) { SPIN_LOOP(n); }
__attribute__((noinline)) void after(uint32_t n) { SPIN_LOOP(n); }

__attribute__((noinline)) void rec(uint32_t d)
{
    if (d == 0u)
        rleaf(LOOPS);
    else
        rec(d - 1u);
    __asm__ volatile("" ::: "memory"); /* not a tail call */
}

__attribute__((noinline)) void deep(void)
{
    for (uint32_t i = 0; i < DEEP_ROUNDS; i++)
        rec(DEEP_N);
    after(2u * LOOPS);
}

/* Lomuto's partition around the last element, with some work per
 * element so that the sort's time is spread over its levels. */
__attribute__((noinline)) uint32_t partition(uint32_t *a, uint32_t lo, uint32_t hi)
{
    uint32_t pivot = a[hi], i = lo;
    for (uint32_t j = lo; j < hi; j++) {
        uint32_t n = 20u;
        SPIN_LOOP(n);
        if (a[j] < pivot) {
            uint32_t t = a[i];
            a[i++] = a[j];
            a[j] = t;
        }
    }
    uint32_t t = a[i];
    a[i] = a[hi];
    a[hi] = t;
    return i;
}

__attribute__((noinline)) void qs(uint32_t *a, uint32_t lo, uint32_t hi)
{
    if (lo >= hi)
        return;
    uint32_t p = partition(a, lo, hi);
    if (p > lo)
        qs(a, lo, p - 1u);
    qs(a, p + 1u, hi);
    __asm__ volatile("" ::: "memory"); /* not a tail call */
}

__attribute__((noinline)) void sorting(void)
{
    uint32_t x = 12345u;
    for (uint32_t r = 0; r < SORT_ROUNDS; r++) {
        for (uint32_t i = 0; i < SORT_N; i++) {
            x = x * 1103515245u + 12345u;
            data[i] = x >> 8;
        }
        qs(data, 0, SORT_N - 1u);
        for (uint32_t i = 1; i < SORT_N; i++)
            if (data[i - 1u] > data[i])
                tc_fail("the quicksort did not sort");
    }
}

/* The function of frame A (F_COUNT: none of them). */
static uint32_t fn_of(uintptr_t a)
{
    for (uint32_t f = 0; f < F_MAIN; f++)
        if (pc_is(a, pc_functions[f]))
            return f;
    return pc_is_main(a, (const void *)main) ? F_MAIN : F_COUNT;
}

/* 1 if a frame of B can lie just above a frame of A in a real chain. */
static int step_ok(uint32_t a, uint32_t b)
{
    switch (a) {
    case F_MAIN: return b == F_MUTUAL || b == F_DEEP || b == F_SORTING;
    case F_MUTUAL: return b == F_EVEN || b == F_HOT;
    case F_EVEN: return b == F_ODD || b == F_BOTTOM;
    case F_ODD: return b == F_EVEN;
    case F_DEEP: return b == F_REC || b == F_AFTER;
    case F_REC: return b == F_REC || b == F_RLEAF;
    case F_SORTING: return b == F_QS;
    case F_QS: return b == F_QS || b == F_PART;
    default: return 0;
    }
}

/* The phase a function belongs to (F_MAIN for main itself). */
static uint32_t phase_of(uint32_t f)
{
    switch (f) {
    case F_BOTTOM: case F_HOT: case F_EVEN: case F_ODD: case F_MUTUAL: return F_MUTUAL;
    case F_RLEAF: case F_REC: case F_AFTER: case F_DEEP: return F_DEEP;
    case F_PART: case F_QS: case F_SORTING: return F_SORTING;
    default: return F_MAIN;
    }
}

/* Frames K0 to K1 of P make a chain of steps; 1 if they do. */
static int chain_ok(const struct mcuprof_task_path *p, uint32_t k0, uint32_t k1)
{
    for (uint32_t k = k0; k + 1u < k1; k++)
        if (!step_ok(fn_of(pc_frame(p, k)), fn_of(pc_frame(p, k + 1u))))
            return 0;
    return 1;
}

struct phase_count {
    uint32_t all, whole, rooted;
};

static void put_share(const char *phase, const struct phase_count *c)
{
    board_puts("DEEP ");
    board_puts(phase);
    board_puts(": ");
    board_put_u32(c->all);
    board_puts(" samples, whole ");
    pc_put_pct(pc_hundredths(c->whole, c->all));
    board_puts(", root side right ");
    pc_put_pct(pc_hundredths(c->rooted, c->all));
    board_putc('\n');
}

int main(void)
{
    PC_START();
    mutual();
    deep();
    sorting();
    tc_finish();

    const struct mcuprof_ext *e = pc_table();
    uint32_t depth_max = (e->entry_size - (uint32_t)sizeof(struct mcuprof_task_path)) / (uint32_t)sizeof(uintptr_t);
    static struct phase_count count[F_COUNT]; /* (no memset in the firmware) */
    uint32_t flagged = 0;
    pc_check_accounted(e);
    for (uint32_t i = 0; i < e->used; i++) {
        const struct mcuprof_task_path *p = pc_path(e, i);
        uint32_t ok = p->depth >= 1u && p->depth <= depth_max, rooted = 0;
        if (p->flags & MCUPROF_PATH_CUT)
            tc_fail("a path is cut: there are no tasks");
        if (p->flags & MCUPROF_PATH_TRUNCATED)
            tc_fail("a path is truncated: the runtime keeps the root side");
        /* the gap: one 0 frame, with GAP */
        uint32_t gap = 0, gaps = 0;
        for (uint32_t k = 0; ok && k < p->depth; k++) {
            if (pc_frame(p, k) == 0u) {
                gap = k;
                gaps++;
            } else {
                ok = fn_of(pc_frame(p, k)) != F_COUNT;
            }
        }
        ok = ok && gaps == ((p->flags & MCUPROF_PATH_GAP) ? 1u : 0u);
        if (!ok)
            pc_fail_path(p);
        /* (the gap innermost: the sample was in a frame it stands for) */
        uint32_t inner = fn_of(pc_frame(p, p->depth - 1u - (gaps && gap + 1u == p->depth)));
        uint32_t phase = phase_of(inner);
        if (p->flags & MCUPROF_PATH_GAP) {
            /* the root side a chain from main into the phase, the leaf
             * side a piece of one in the same phase */
            ok = gap >= 1u && fn_of(pc_frame(p, 0)) == F_MAIN && chain_ok(p, 0, gap) &&
                 chain_ok(p, gap + 1u, p->depth) && (gap < 2u || fn_of(pc_frame(p, 1)) == phase);
            rooted = ok && gap >= 2u;
            flagged += p->samples;
        } else {
            /* whole: from main, every step one the program makes, the
             * recursions no deeper than they go */
            ok = fn_of(pc_frame(p, 0)) == F_MAIN && chain_ok(p, 0, p->depth);
            ok = ok && (phase != F_MUTUAL || p->depth <= 2u + EVEN_N + 2u) &&
                 (phase != F_DEEP || p->depth <= 2u + DEEP_N + 2u);
            rooted = ok && (p->depth == 1u || fn_of(pc_frame(p, 1)) == phase);
        }
        if (!ok)
            pc_fail_path(p);
        count[phase].all += p->samples;
        count[phase].whole += p->flags ? 0u : p->samples;
        count[phase].rooted += rooted ? p->samples : 0u;
    }
    pc_print("samples taken", tc_header()->samples_taken);
    pc_print("depth_max", depth_max);
    pc_print("samples in flagged paths", flagged);
    pc_print("the table's invalid", e->invalid);
    put_share("is_even/is_odd 21 deep", &count[F_MUTUAL]);
    put_share("recursion 101 deep", &count[F_DEEP]);
    put_share("quicksort", &count[F_SORTING]);
    if (e->invalid != flagged)
        tc_fail("samples in flagged paths are not counted as invalid");
    /* The root side keeps main and the phase (MCUPROF_SHADOW_ROOT_SIDE,
     * (depth - 1) / 2 frames, at least 2 from depth 5): every sample
     * counts for the phase it was taken in. */
    for (uint32_t f = F_MUTUAL; depth_max >= 5u && f < F_MAIN; f++)
        if (count[f].rooted != count[f].all)
            tc_fail("a path under a phase lacks main or the phase");
    if (flagged == 0u)
        tc_fail("no path overflowed the shadow stack");

    board_puts("EXPECT calls bottom 5\n");
    board_puts("EXPECT calls rleaf 5\n");
    board_puts("EXPECT arc mutual hot 1\n");
    board_puts("EXPECT arc deep after 1\n");
    board_puts("EXPECT-INFO samples-accounted yes\n");
    return 0;
}

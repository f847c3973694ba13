/*
 * paths_common.h - what the call-path test firmware shares: reading the
 * image's path table the way a host reads it (from ext_offset), naming a
 * frame by the function it lies in, and checking shares against the truth
 * the firmware computes from its own instruction counts.
 *
 * A frame is the call hook's return address, a few bytes into the
 * function past its prologue; the outermost frame of a complete path is
 * the root, the return address of mcuprof_start() in main.
 */
#ifndef PATHS_COMMON_H
#define PATHS_COMMON_H

#include "time_common.h"

/* Bytes past a function's address within which its hook returns: the
 * prologue, GCC's `push {lr}; bl __gnu_mcount_nc` or `mv a0,ra; call
 * _mcount` and the argument moves around it. */
#define PC_PROLOGUE_MAX 48u
/* Bytes of main within which mcuprof_start() is called (the root). */
#define PC_MAIN_MAX 2048u

/* Start profiling with the paths rooted in main: mcuprof_start() must be
 * called from main itself (a function that returned would leave a root that
 * no longer exists), hence a macro. */
#define PC_START()                                                   \
    do {                                                             \
        mcuprof_init();                                              \
        (void)board_clock_now();                                     \
        tc_sampler_start();                                          \
        mcuprof_start();                                             \
    } while (0)

static inline const struct mcuprof_ext *pc_table(void)
{
    const uint8_t *img = (const uint8_t *)mcuprof_image();
    uint32_t off = tc_header()->ext_offset;
    while (off) {
        const struct mcuprof_ext *e = (const struct mcuprof_ext *)(const void *)(img + off);
        if (e->kind == MCUPROF_EXT_END)
            break;
        if (e->kind == MCUPROF_EXT_TASK_PATHS)
            return e;
        off += e->size;
    }
    tc_fail("no path table in the image");
    return 0;
}

static inline const struct mcuprof_task_path *pc_path(const struct mcuprof_ext *e, uint32_t i)
{
    return (const struct mcuprof_task_path *)(const void *)((const uint8_t *)(e + 1) + i * e->entry_size);
}

static inline uintptr_t pc_frame(const struct mcuprof_task_path *p, uint32_t k)
{
    return ((const uintptr_t *)(const void *)(p + 1))[k];
}

/* Print path P (its flags, depth and frames) and fail: a path the
 * program cannot have. */
static inline void pc_fail_path(const struct mcuprof_task_path *p)
{
    board_puts("unexpected path, flags ");
    board_put_u32(p->flags);
    board_puts(", depth ");
    board_put_u32(p->depth);
    board_puts(":");
    for (uint32_t k = 0; k < p->depth; k++) {
        board_puts(" ");
        board_put_u32((uint32_t)pc_frame(p, k));
    }
    board_putc('\n');
    tc_fail("a path the program cannot have");
}

/* The firmware's profiled functions (PC_FUNCTIONS, defined by each test
 * before it includes this header): a frame belongs to the one that starts
 * closest below it. */
static const void *const pc_functions[] = {PC_FUNCTIONS};

/* 1 if the hook's return address A lies in function F. */
static inline int pc_is(uintptr_t a, const void *f)
{
    uintptr_t best = 0;
    for (uint32_t i = 0; i < sizeof pc_functions / sizeof pc_functions[0]; i++) {
        uintptr_t g = (uintptr_t)pc_functions[i];
        if (g <= a && g > best)
            best = g;
    }
    return best == (uintptr_t)f && a - (uintptr_t)f < PC_PROLOGUE_MAX;
}

/* 1 if A lies in main (where the root is). */
static inline int pc_is_main(uintptr_t a, const void *main_fn)
{
    return a - (uintptr_t)main_fn < PC_MAIN_MAX;
}

/* Frames of P, from its outermost, are exactly FNS (N functions; NULL for
 * the root in main): 1 if they are. */
static inline int pc_path_is(const struct mcuprof_task_path *p, const void *main_fn, const void *const *fns, uint32_t n)
{
    if (p->depth != n)
        return 0;
    for (uint32_t k = 0; k < n; k++) {
        uintptr_t a = pc_frame(p, k);
        if (fns[k] ? !pc_is(a, fns[k]) : !pc_is_main(a, main_fn))
            return 0;
    }
    return 1;
}

/* "name: N samples" on the console. */
static inline void pc_print(const char *what, uint32_t v)
{
    board_puts(what);
    board_puts(": ");
    board_put_u32(v);
    board_putc('\n');
}

/* Every sample is in a path or counted lost in the table: the table adds
 * up to the samples the sampler counted (not frozen, not held off: those
 * are binned nowhere, their time was a handler's the sampler could not
 * preempt or, with call paths, its own when two samples fell due close
 * together). */
static inline uint32_t pc_check_accounted(const struct mcuprof_ext *e)
{
    uint32_t sum = e->lost;
    for (uint32_t i = 0; i < e->used; i++)
        sum += pc_path(e, i)->samples;
    uint32_t held = tc_held()->samples;
    uint32_t counted = tc_header()->samples_taken - tc_header()->lost_samples_frozen - held;
    pc_print("paths: entries", e->used);
    pc_print("paths: samples in paths and lost", sum);
    pc_print("paths: samples held off", held);
    pc_print("paths: samples counted", counted);
    if (sum != counted)
        tc_fail("the path table does not add up to the samples counted");
    return sum;
}

/* "LABEL: P.PP %" from hundredths. */
static inline void pc_put_pct(uint32_t hundredths)
{
    board_put_u32(hundredths / 100u);
    board_putc('.');
    board_putc((char)('0' + hundredths / 10u % 10u));
    board_putc((char)('0' + hundredths % 10u));
    board_puts(" %");
}

static inline uint32_t pc_hundredths(uint64_t part, uint64_t whole)
{
    return whole ? (uint32_t)((part * 10000u + whole / 2u) / whole) : 0u;
}
#endif

/*
 * time_common.h - what the time-profile test firmware shares: the sampler
 * with the runtime's defaults (10 kHz, dithered), a free-running clock at
 * the sampler timer's rate to measure truth with, interrupt masking, and
 * the EXPECT lines that tests/e2e/gprof_check judges gprof's flat profile
 * by. Every expected share is computed from the workload's own
 * instruction counts (spin.h: two instructions per iteration) or timer
 * ticks, never taken from an earlier run.
 */
#ifndef TIME_COMMON_H
#define TIME_COMMON_H

#include <stdint.h>

#include "board.h"
#include "mcuprof.h"
#include "mcuprof/image.h"
#include "spin.h"

/* The README's example rate: the default a user starts with. */
#define TC_RATE_HZ 10000u
/* Sampler periods of the timer, in its ticks. */
#define TC_PERIOD (BOARD_TIMER_HZ / TC_RATE_HZ)
/* Every share must be within this many percentage points of the truth. */
#define TC_TOLERANCE "1"

__attribute__((always_inline)) static inline void tc_irq_mask(void)
{
#if defined(__arm__)
    __asm__ volatile("cpsid i" ::: "memory");
#else
    __asm__ volatile("csrci mstatus, 8" ::: "memory");
#endif
}

__attribute__((always_inline)) static inline void tc_irq_unmask(void)
{
#if defined(__arm__)
    __asm__ volatile("cpsie i" ::: "memory");
#else
    __asm__ volatile("csrsi mstatus, 8" ::: "memory");
#endif
}

/* Run STMT in an interrupt handler so that the sampler's timer can
 * preempt it. A RISC-V trap is entered with interrupts off: they are on
 * around STMT, with mepc and mstatus kept as a nesting handler keeps them.
 * Cortex-M nests by priority without help. */
#if defined(__riscv)
#define TC_PREEMPTIBLE(stmt)                                             \
    do {                                                                 \
        uintptr_t mepc_, mstatus_;                                       \
        __asm__ volatile("csrr %0, mepc" : "=r"(mepc_));                 \
        __asm__ volatile("csrr %0, mstatus" : "=r"(mstatus_));           \
        tc_irq_unmask();                                                 \
        stmt;                                                            \
        tc_irq_mask();                                                   \
        __asm__ volatile("csrw mepc, %0" ::"r"(mepc_));                  \
        __asm__ volatile("csrw mstatus, %0" ::"r"(mstatus_));            \
    } while (0)
#else
#define TC_PREEMPTIBLE(stmt) stmt
#endif

/* A free-running up-count at BOARD_TIMER_HZ, the board's clock
 * (board_clock_now(); on Cortex-M not SysTick, which is the sampler and
 * whose value repeats every period), read inline through the board's
 * BOARD_CLOCK_READ(): a call into the unprofiled board code would take
 * samples of its own, away from the function that polls. tc_start() calls
 * board_clock_now() once, which starts the clock. */
static inline uint32_t tc_clock(void)
{
    return BOARD_CLOCK_READ();
}

/* 16 iterations of spin.h's loop, between two reads of a slow clock. */
#define SPIN_LOOP_16()             \
    do {                           \
        uint32_t spin_n_ = 16u;    \
        SPIN_LOOP(spin_n_);        \
    } while (0)

/* Spins for TICKS of the clock, inline: its samples are the caller's. */
#define TC_SPIN_FOR(ticks)                            \
    do {                                              \
        uint32_t spin_t0_ = tc_clock();               \
        while (tc_clock() - spin_t0_ < (ticks))       \
            SPIN_LOOP_16();                           \
    } while (0)

static inline const struct mcuprof_header *tc_header(void)
{
    return (const struct mcuprof_header *)mcuprof_image();
}

static inline void tc_fail(const char *what)
{
    board_puts("FAIL ");
    board_puts(what);
    board_putc('\n');
    board_exit(1);
}

/* The sampler at RATE_HZ. Cortex-M firmware registers the board's
 * clock so late ticks can be counted (RISC-V has mtime). */
static inline void tc_sampler_start_at(uint32_t rate_hz)
{
#if defined(__arm__)
    if (mcuprof_sampler_set_clock(board_clock_now) != 0)
        tc_fail("mcuprof_sampler_set_clock");
#endif
    if (mcuprof_sampler_start(BOARD_TIMER_HZ, rate_hz) != 0)
        tc_fail("mcuprof_sampler_start");
}

static inline void tc_sampler_start(void)
{
    tc_sampler_start_at(TC_RATE_HZ);
}

/* Profile from here on, the sampler at RATE_HZ. */
static inline void tc_start_at(uint32_t rate_hz)
{
    mcuprof_init();
    (void)board_clock_now(); /* starts the board's free-running timer */
    tc_sampler_start_at(rate_hz);
    mcuprof_start();
}

/* Profile from here on, with the defaults a user gets. */
static inline void tc_start(void)
{
    tc_start_at(TC_RATE_HZ);
}

/* The software interrupt enabled, at the lowest priority the core
 * implements (on Cortex-M only the top bits of its NVIC_IPR byte exist;
 * word access, as ARMv6-M requires), so any other interrupt preempts it. */
static inline void tc_swi_enable_lowest(void)
{
#if defined(__arm__)
    volatile uint32_t *ipr = (volatile uint32_t *)0xE000E400u + BOARD_SWI_IRQ / 4u;
    *ipr |= 0xFFu << (8u * (BOARD_SWI_IRQ % 4u));
#endif
    board_swi_enable();
}

static inline void tc_finish(void)
{
    mcuprof_stop();
    mcuprof_sampler_stop();
    if (mcuprof_write_semihosting("mcuprof.img") != 0)
        tc_fail("semihosting write");
}

/* "EXPECT share FUNC P.PP 1": part/whole as a percentage, two decimals. */
static inline void tc_expect_share(const char *func, uint64_t part, uint64_t whole)
{
    uint32_t hundredths = (uint32_t)((part * 10000u + whole / 2u) / whole);
    board_puts("EXPECT share ");
    board_puts(func);
    board_putc(' ');
    board_put_u32(hundredths / 100u);
    board_putc('.');
    board_putc((char)('0' + hundredths / 10u % 10u));
    board_putc((char)('0' + hundredths % 10u));
    board_puts(" " TC_TOLERANCE "\n");
}

/* One function's part of a workload measured in units of work: its name
 * as gprof prints it and its units. */
struct tc_share {
    const char *func;
    uint32_t units;
};

/* An EXPECT share line for each of the N functions, its units against the
 * sum of all N. */
static inline void tc_expect_shares(const struct tc_share *shares, uint32_t n)
{
    uint64_t all = 0;
    for (uint32_t i = 0; i < n; i++)
        all += shares[i].units;
    for (uint32_t i = 0; i < n; i++)
        tc_expect_share(shares[i].func, shares[i].units, all);
}

static inline void tc_expect_info(const char *key, uint32_t v)
{
    board_puts("EXPECT-INFO ");
    board_puts(key);
    board_putc(' ');
    board_put_u32(v);
    board_putc('\n');
}

/* The image's extension table of KIND (MCUPROF_EXT_*), found the way a
 * host finds it: from ext_offset. 0 without one. */
static inline const struct mcuprof_ext *tc_ext(uint16_t kind)
{
    const uint8_t *img = (const uint8_t *)mcuprof_image();
    uint32_t off = tc_header()->ext_offset;
    while (off) {
        const struct mcuprof_ext *e = (const struct mcuprof_ext *)(const void *)(img + off);
        if (e->kind == MCUPROF_EXT_END)
            return 0;
        if (e->kind == kind)
            return e;
        off += e->size;
    }
    return 0;
}

/* The context table's header (0 without one). */
static inline const struct mcuprof_ext *tc_context_table(void)
{
    return tc_ext(MCUPROF_EXT_CONTEXTS);
}

/* Samples the image's context table holds for KEY (MCUPROF_CTX_*); 0
 * when there is no table or no such entry. */
static inline uint32_t tc_context_samples(uint32_t key)
{
    const struct mcuprof_ext *e = tc_context_table();
    if (!e)
        return 0;
    const struct mcuprof_context *c = (const struct mcuprof_context *)(const void *)(e + 1);
    for (uint32_t i = 0; i < e->used; i++)
        if (c[i].key == key)
            return c[i].samples;
    return 0;
}

/* The held-off samples and periods (struct mcuprof_held): late samples
 * taken after a handler the sampler cannot preempt, binned nowhere. */
static inline const struct mcuprof_held *tc_held(void)
{
    static const struct mcuprof_held none;
    const struct mcuprof_ext *e = tc_ext(MCUPROF_EXT_HELD);
    return e && e->used ? (const struct mcuprof_held *)(const void *)(e + 1) : &none;
}

/* Fail unless PART / WHOLE samples are within 1 point of the truth
 * TRUE_PART / TRUE_WHOLE (compared in hundredths of a percent). */
static inline void tc_check_share(const char *what, uint32_t part, uint32_t whole, uint64_t true_part,
                                  uint64_t true_whole)
{
    uint32_t got = (uint32_t)(((uint64_t)part * 10000u + whole / 2u) / whole);
    uint32_t want = (uint32_t)((true_part * 10000u + true_whole / 2u) / true_whole);
    board_puts("context ");
    board_puts(what);
    board_puts(": ");
    board_put_u32(part);
    board_puts(" of ");
    board_put_u32(whole);
    board_puts(" samples, ");
    board_put_u32(got);
    board_puts(" / 10000, truth ");
    board_put_u32(want);
    board_puts(" / 10000\n");
    if (got > want + 100u || want > got + 100u)
        tc_fail("a context's share is more than 1 point from the truth");
}

#endif

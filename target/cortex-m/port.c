/*
 * port.c - Cortex-M: the SysTick sampler timer.
 *
 * SysTick counts a period down and reloads SYST_RVR when it wraps, which is
 * when it raises its interrupt. So in the interrupt for expiry n the counter
 * already runs period n+1, and writing RVR sets period n+2. SYST_CVR is
 * never written while SysTick runs: a write clears the counter and loses
 * the time already counted. The schedule (dithered periods) comes from
 * common/sample_timing.h.
 *
 * What each core can see of the periods that passed without a sample (the
 * interrupt held off by PRIMASK, BASEPRI or a handler of equal priority):
 *   - SysTick alone, on every core: nothing. CVR is the position within the
 *     current period only, and COUNTFLAG is one bit (cleared by reading
 *     CSR), so one wrap and a hundred look the same. missed_source NONE.
 *   - ARMv7-M, ARMv8-M Mainline with a DWT cycle counter that counts (DEMCR
 *     TRCENA set, DWT_CTRL NOCYCCNT clear, CYCCNTENA set and reading back,
 *     CYCCNT advancing): exact. CYCCNT counts processor cycles, as SysTick
 *     does with CLKSOURCE=1. missed_source CYCCNT. On many parts CYCCNT
 *     stops while the core sleeps (WFI): lateness then reads short, never
 *     long. Firmware must not write CYCCNT while the sampler uses it.
 *   - ARMv6-M and ARMv8-M Baseline have no CYCCNT; QEMU's Cortex-M models
 *     (7.2) read DEMCR, DWT_CTRL and CYCCNT as zero and ignore writes, so
 *     the check above finds no counter there, on any model.
 *   - Any core with a clock registered by mcuprof_sampler_set_clock() (a
 *     free-running 32-bit counter at the SysTick rate): exact, preferred to
 *     CYCCNT. missed_source CLOCK.
 * With a clock, the interrupt reads it and CVR: the last wrap was at now -
 * (reload - CVR), the next interrupt is due one running period after it, and
 * a tick that comes late by L >= P counts L / P missed periods. After a
 * late tick SysTick simply runs on: the extra wraps reloaded the same
 * period, so the dithered sequence resumes with its phase shifted.
 */
#include "late.h"
#include "mcuprof.h"
#include "mcuprof_port.h"
#include "sample_body.h"
#include "sample_timing.h"
#include "path_sample.h"
#include "paths.h"

/* SysTick, CMSIS-style: only the registers we touch. */
#define SYST_CSR (*(volatile uint32_t *)0xE000E010u)
#define SYST_RVR (*(volatile uint32_t *)0xE000E014u)
#define SYST_CVR (*(volatile uint32_t *)0xE000E018u)
#define SYST_CSR_ENABLE_Msk (1u << 0)
#define SYST_CSR_TICKINT_Msk (1u << 1)
#define SYST_CSR_CLKSOURCE_Msk (1u << 2) /* 1: processor clock */
#define SYST_PERIOD_MAX 0x01000000u      /* RVR is 24 bits: periods of RVR + 1 */
/* SHPR3 bits 31:24 hold SysTick's priority; 0 is the highest, so the
 * sampler also sees time spent in other interrupt handlers. On ARMv6-M
 * SHPR3 is word-access only, hence the read-modify-write of the word. */
#define SCB_SHPR3 (*(volatile uint32_t *)0xE000ED20u)
#define SCB_SHPR3_PRI15_Msk 0xFF000000u
#define SCB_ICSR (*(volatile uint32_t *)0xE000ED04u)
#define SCB_ICSR_PENDSTSET_Msk (1u << 26)
#define SCB_ICSR_PENDSTCLR_Msk (1u << 25)

/* The shortest dithered period, in processor clocks: the interrupt for
 * expiry n must write RVR before period n+1 ends, or period n+2 repeats
 * period n+1 and the tick after it is counted against the wrong period.
 * Entry (12 to 16 cycles), the assembly, the registered clock's read and
 * the draw up to the RVR write take 40 to 80 instructions (the ARMv6-M
 * draw rejects, and a clock is a call); 128 leaves room for flash wait
 * states. Periods this short are rare (about 128^2 / (2 J^2) of them,
 * 0.3 % at 10 kHz on a 16 MHz core) and only those move, within their
 * first 128 cycles. */
#define SYSTICK_MIN_GAP 128u

static const struct mcuprof_timer_limits systick_limits = {
    .min_period = 2u, /* RVR 0 stops the counter */
    .max_period = SYST_PERIOD_MAX,
    .min_gap = SYSTICK_MIN_GAP,
    /* a tick due min_gap after the one before waits out the rest of that
     * one's interrupt: the default sampler takes about 100 cycles, with
     * call paths and contexts about 300 (bench/RESULTS.md), so a tick
     * comes up to about 200 late by the sampler's own doing */
    .min_defer = 320u,
};

static uint32_t reload_period;     /* RVR + 1: the period loaded at the next wrap */
static uint32_t (*clock_now)(void); /* what measures lateness, or 0 */
static uint32_t clock_due;         /* clock_now() when this tick was raised */
/* A tick goes the rare way when late + clock_bias >= clock_limit: late by
 * the deferral threshold or more, or early by more than half a period,
 * which a clock at SysTick's rate never is (it stalled, wrapped early or
 * runs slower): one compare for both. */
static uint32_t clock_bias, clock_limit;

#if MCUPROF_CFG_PATHS > 0
/* Call paths: mcuprof_sample_isr also passes the interrupted code's sp
 * (bit 0: the process stack) and lr. */
#define TICK_PARAMS uintptr_t pc, uint32_t xpsr, uintptr_t sp, uintptr_t lr
#define TICK_ARGS pc, xpsr, sp, lr
#else
#define TICK_PARAMS uintptr_t pc, uint32_t xpsr
#define TICK_ARGS pc, xpsr
#endif

MCUPROF_NOINSTR void mcuprof_systick_tick(TICK_PARAMS);
MCUPROF_NOINSTR void mcuprof_systick_tick_clock(TICK_PARAMS);
MCUPROF_NOINSTR void mcuprof_systick_sample(TICK_PARAMS);

/* Where mcuprof_sample_isr jumps with the interrupted PC, as the handler
 * itself (lr holds EXC_RETURN): each target ends with the chain. */
void (*mcuprof_systick_dispatch)(TICK_PARAMS) = mcuprof_systick_sample;

/* The sample, inline: a call from here would cost its own frame. The
 * stacked xPSR's IPSR field is the exception that was running (0: thread
 * mode), the context the sample is counted in. */
MCUPROF_NOINSTR __attribute__((always_inline)) static inline void sample(TICK_PARAMS)
{
    /* r1 holds the stacked xPSR only in builds with a context table */
    uint32_t ipsr = MCUPROF_CFG_CONTEXTS > 0 ? xpsr & 0x1ffu : 0u;
    if (mcuprof_freeze_pending())
        mcuprof_freeze_poll(pc);
    if (mcuprof_sample_body(pc, ipsr ? MCUPROF_CTX_ARM_EXCEPTION | ipsr : MCUPROF_CTX_THREAD))
        mcuprof_task_resolve();
#if MCUPROF_CFG_PATHS > 0
    /* the innermost frame's known path inline, anything else by a call */
    if (mcuprof_path_count_cached(sp & ~(uintptr_t)1, (uint32_t)(sp & 1u), lr))
        mcuprof_path_sample(sp & ~(uintptr_t)1, (uint32_t)(sp & 1u), lr);
#endif
}

#if defined(__ARM_ARCH_7M__) || defined(__ARM_ARCH_7EM__) || defined(__ARM_ARCH_8M_MAIN__) || \
    defined(__ARM_ARCH_8_1M_MAIN__)
#define DEMCR (*(volatile uint32_t *)0xE000EDFCu)
#define DEMCR_TRCENA_Msk (1u << 24)
#define DWT_CTRL (*(volatile uint32_t *)0xE0001000u)
#define DWT_CYCCNT (*(volatile uint32_t *)0xE0001004u)
#define DWT_CTRL_CYCCNTENA_Msk (1u << 0)
#define DWT_CTRL_NOCYCCNT_Msk (1u << 25)

MCUPROF_NOINSTR static uint32_t cyccnt_now(void)
{
    return DWT_CYCCNT;
}

/* Turn the cycle counter on and check that it counts: registers that read
 * as zero (QEMU) or a counter held by a debugger must not pass. */
MCUPROF_NOINSTR static int cyccnt_start(void)
{
    DEMCR |= DEMCR_TRCENA_Msk;
    if (!(DEMCR & DEMCR_TRCENA_Msk) || (DWT_CTRL & DWT_CTRL_NOCYCCNT_Msk))
        return 0;
    DWT_CTRL |= DWT_CTRL_CYCCNTENA_Msk;
    if (!(DWT_CTRL & DWT_CTRL_CYCCNTENA_Msk))
        return 0;
    uint32_t before = DWT_CYCCNT;
    __asm__ volatile("nop\n\tnop\n\tnop\n\tnop" ::: "memory");
    return DWT_CYCCNT != before;
}
#else
/* ARMv6-M, ARMv8-M Baseline: no cycle counter. */
#define cyccnt_now ((uint32_t (*)(void))0)
MCUPROF_NOINSTR static int cyccnt_start(void)
{
    return 0;
}
#endif

/* The NVIC, CMSIS-style: only what the look for blockers reads. */
#define NVIC_ISER(w) (*(volatile uint32_t *)(0xE000E100u + 4u * (w)))
#define NVIC_IPR_WORD(n) (*(volatile uint32_t *)(0xE000E400u + ((n) & ~3u)))
#define SCB_ICTR (*(volatile uint32_t *)0xE000E004u)
#define SCB_ICTR_INTLINESNUM_Msk 0xFu
#define SCB_AIRCR (*(volatile uint32_t *)0xE000ED0Cu)
#define SCB_AIRCR_PRIGROUP_Pos 8u
#if defined(__ARM_ARCH_7M__) || defined(__ARM_ARCH_7EM__) || defined(__ARM_ARCH_8M_MAIN__) || \
    defined(__ARM_ARCH_8_1M_MAIN__)
#define NVIC_HAS_GROUPS 1 /* PRIGROUP splits priorities; ICTR says how many lines */
#else
#define NVIC_HAS_GROUPS 0 /* ARMv6-M, v8-M Baseline: at most 32 lines, all bits preempt */
#endif

/* Every enabled interrupt whose group priority is as urgent as SysTick's or
 * more (numerically no greater) is one SysTick cannot preempt: its handler
 * holds the sampler off, and the sample taken after it lands in the code
 * it interrupted. Priority bytes are read by word (ARMv6-M allows no
 * other access); unimplemented low bits read as zero. */
MCUPROF_NOINSTR void mcuprof_port_scan_blockers(void)
{
    uint32_t sampler = SCB_SHPR3 >> 24;
#if NVIC_HAS_GROUPS
    uint32_t words = (SCB_ICTR & SCB_ICTR_INTLINESNUM_Msk) + 1u;
    uint32_t group = (SCB_AIRCR >> SCB_AIRCR_PRIGROUP_Pos) & 7u;
    uint32_t mask = (0xFFu << (group + 1u)) & 0xFFu; /* the group priority's bits */
#else
    uint32_t words = 1u;
    uint32_t mask = 0xFFu;
#endif
    for (uint32_t w = 0; w < words; w++) {
        uint32_t enabled = NVIC_ISER(w);
        for (uint32_t b = 0; b < 32u; b++) {
            uint32_t n = w * 32u + b;
            uint32_t source = MCUPROF_CTX_ARM_EXCEPTION | (16u + n);
            if (!(enabled >> b & 1u)) {
                mcuprof_blocker_seen(source, 0u, sampler, 0);
                continue;
            }
            uint32_t pri = NVIC_IPR_WORD(n) >> (8u * (n & 3u)) & 0xFFu;
            mcuprof_blocker_seen(source, pri, sampler, (pri & mask) <= (sampler & mask));
        }
    }
}

/* A registered clock must count: one that reads the same across a short
 * spin (not started, not clocked, a register that reads as zero) would
 * make every tick look early. Said in timing_flags; SysTick alone then. */
MCUPROF_NOINSTR static int clock_counts(uint32_t (*now)(void))
{
    uint32_t before = now();
    for (volatile uint32_t i = 0; i < 64u; i++) {
    }
    if (now() != before)
        return 1;
    mcuprof_region.header.timing_flags |= MCUPROF_TIMING_CLOCK_STALLED;
    return 0;
}

/* The rare way of a tick with a clock. Late: the rare path of late.c.
 * Early by more than half a period: the clock does not run with SysTick
 * (it stood still since the last tick, or went back); it is dropped, the
 * flag says why, and the ticks go on without it, seeing deferrals only.
 * Returns 1 when the tick is done (a held-off sample). */
MCUPROF_NOINSTR static int clock_late(uint32_t late, uint32_t now, uint32_t running, uintptr_t pc)
{
    if ((int32_t)late < 0) {
        /* stood still, or went back: which, a second reading tells (the
         * tick has run some tens of cycles since the first; no tick keeps
         * the last reading for it) */
        mcuprof_region.header.timing_flags |=
            clock_now() != now ? MCUPROF_TIMING_CLOCK_JUMPED : MCUPROF_TIMING_CLOCK_STALLED;
        if (clock_now != cyccnt_now && cyccnt_start()) {
            /* the cycle counter takes over from a registered clock; it is
             * resynchronised at the next tick, which may count as late */
            clock_now = cyccnt_now;
            clock_due = clock_now() + reload_period;
            mcuprof_timing_set_source(MCUPROF_MISSED_CYCCNT);
            return 0;
        }
        clock_now = 0;
        mcuprof_timing.defer_left = (int32_t)(reload_period - 1u - mcuprof_timing.defer);
        mcuprof_systick_dispatch = mcuprof_systick_tick;
        return 0;
    }
    /* Late: the counter's phase is anyone's now, and SysTick may have
     * wrapped again between the reads and the RVR write (loading the old
     * period, which the next tick would take for the new one) or pended
     * once more (a wrap already in `late`, whose tick would come at
     * once). So the next period starts afresh, on the grid of slots the
     * late sample missed: the first slot after the missed ones, at least
     * min_gap from now. A write of CVR clears the count and the counter
     * reloads RVR on its next clock (QEMU's model also pends SysTick
     * then; the part does not): once it has, the tick pending is dropped
     * and RVR gets the period after it, the one already drawn. */
    uint32_t period = mcuprof_timing.period;
    uint32_t missed = late < period ? 0u : (uint32_t)mcuprof_timing_missed(late);
    uint32_t target = now - late + running + missed * period;
    uint32_t t = clock_now();
    while ((int32_t)(target - t) < (int32_t)SYSTICK_MIN_GAP)
        target += period;
    SYST_RVR = target - t - 1u;
    SYST_CVR = 0;
    for (uint32_t i = 0; i < SYSTICK_MIN_GAP && SYST_CVR == 0u; i++) {
    }
    SCB_ICSR = SCB_ICSR_PENDSTCLR_Msk;
    clock_due = target;
    SYST_RVR = reload_period - 1u;
    if (!mcuprof_late_sample(pc, missed))
        return 0;
    mcuprof_sample_isr_chain(); /* held off: not binned */
    return 1;
}

MCUPROF_NOINSTR int mcuprof_sampler_start(uint32_t cpu_hz, uint32_t rate_hz)
{
    mcuprof_sampler_stop();
    int err = mcuprof_timing_start(cpu_hz, rate_hz, &systick_limits);
    if (err != MCUPROF_OK)
        return err;

    clock_now = mcuprof_timing.clock;
    if (clock_now && clock_counts(clock_now)) {
        mcuprof_timing_set_source(MCUPROF_MISSED_CLOCK);
    } else if (cyccnt_start()) {
        clock_now = cyccnt_now;
        mcuprof_timing_set_source(MCUPROF_MISSED_CYCCNT);
    }
    /* Periods 0 and 1 are both P (a period is loaded at each wrap, and the
     * first tick sets period 2); dithering starts with period 2. */
    uint32_t period = mcuprof_timing.period;
    clock_bias = period / 2u;
    clock_limit = clock_bias + mcuprof_timing.defer;
    SCB_SHPR3 &= ~SCB_SHPR3_PRI15_Msk;
    SYST_RVR = period - 1u;
    SYST_CVR = 0; /* stopped: the first period starts from a reload */
    reload_period = period;
    mcuprof_timing.defer_left = (int32_t)(period - 1u - mcuprof_timing.defer);
    if (clock_now) {
        clock_due = clock_now() + period;
        mcuprof_systick_dispatch = mcuprof_systick_tick_clock;
    } else if (MCUPROF_CFG_JITTER_PERCENT == 0) {
        /* a fixed period and nothing to count: RVR never changes, and
         * lateness is not looked at */
        mcuprof_systick_dispatch = mcuprof_systick_sample;
        mcuprof_region.header.timing_flags &= (uint16_t)~MCUPROF_TIMING_DEFERRED;
    } else {
        mcuprof_systick_dispatch = mcuprof_systick_tick;
    }
    SYST_CSR = SYST_CSR_CLKSOURCE_Msk | SYST_CSR_TICKINT_Msk | SYST_CSR_ENABLE_Msk;
    return MCUPROF_OK;
}

MCUPROF_NOINSTR void mcuprof_sampler_stop(void)
{
    SYST_CSR = 0;
    mcuprof_systick_dispatch = mcuprof_systick_sample;
    mcuprof_timing_stop();
}

/* The tick without a clock: set the period after the running one (the
 * counter already runs the next), then sample. The counter's position in
 * the running period is how late the tick is, as long as it has not
 * wrapped again: deferrals are seen, missed periods are not. */
MCUPROF_NOINSTR void mcuprof_systick_tick(TICK_PARAMS)
{
    struct mcuprof_timing *t = &mcuprof_timing;
    volatile uint32_t *systick = &SYST_CSR; /* one base for CVR and RVR */
    int32_t left = (int32_t)systick[2];
    /* signed: a count above the period thought running (a reload that
     * came later than the model says) is on time, not 2^32 late */
    int32_t limit = t->defer_left;
    uint32_t reload = mcuprof_timing_next_period() - 1u;
    systick[1] = reload;
    t->defer_left = (int32_t)(reload - t->defer);
    if (left <= limit && mcuprof_late_sample(pc, 0u)) {
        mcuprof_sample_isr_chain(); /* held off: not binned */
        return;
    }
    sample(TICK_ARGS);
    mcuprof_sample_isr_chain();
}

/* The tick with nothing to program (or another timer's vector). */
MCUPROF_NOINSTR void mcuprof_systick_sample(TICK_PARAMS)
{
    sample(TICK_ARGS);
    mcuprof_sample_isr_chain();
}

/* The tick with a clock: the same, and count the periods it came late. */
MCUPROF_NOINSTR void mcuprof_systick_tick_clock(TICK_PARAMS)
{
    uint32_t now = clock_now(); /* before CVR: a wrap in between then reads as just now */
    uint32_t left = SYST_CVR;
    /* The counter reloaded this at the wrap that raised the tick (and at
     * any wrap since, if the tick was late). */
    uint32_t running = reload_period;
    uint32_t next = mcuprof_timing_next_period();
    SYST_RVR = next - 1u;
    reload_period = next;
    uint32_t late = now - clock_due;
    /* the last wrap loaded running - 1 and the counter is down to left */
    clock_due = now - (running - 1u - left) + running;
    if (late + clock_bias >= clock_limit && clock_late(late, now, running, pc))
        return;
    sample(TICK_ARGS);
    mcuprof_sample_isr_chain();
}

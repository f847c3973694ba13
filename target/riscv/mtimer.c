/*
 * mtimer.c - the RISC-V sampler timer: the machine timer of the CLINT
 * (mtime, mtimecmp of hart 0), and the trap handling around it.
 */
#include <stdint.h>
/* A bin's wrap in mcuprof_mtimer_trap goes through rare() like every call
 * there (below): the bin's address is the request. */
static inline void mtimer_spill(uint16_t *bin);
#define MCUPROF_SPILL_CALL(bin, pc) ((void)(pc), mtimer_spill(bin))
#include "late.h"
#include "mcuprof.h"
#include "mcuprof_port.h"
#include "mcuprof_semihost.h" /* the trap's instructions */
#include "mcuprof_symbols.h"
#include "sample_body.h"
#include "sample_timing.h"
#include "path_sample.h"
#include "paths.h"

/* The CLINT of QEMU's virt and sifive_e machines and of SiFive cores;
 * other parts: -DMCUPROF_CFG_CLINT_BASE=... */
#ifndef MCUPROF_CFG_CLINT_BASE
#define MCUPROF_CFG_CLINT_BASE 0x02000000u
#endif
#define CLINT_MTIMECMP_LO (*(volatile uint32_t *)(MCUPROF_CFG_CLINT_BASE + 0x4000u))
#define CLINT_MTIMECMP_HI (*(volatile uint32_t *)(MCUPROF_CFG_CLINT_BASE + 0x4004u))
#define CLINT_MTIME_LO (*(volatile uint32_t *)(MCUPROF_CFG_CLINT_BASE + 0xBFF8u))
#define CLINT_MTIME_HI (*(volatile uint32_t *)(MCUPROF_CFG_CLINT_BASE + 0xBFFCu))

#define MIE_MTIE (1u << 7)
#define MCAUSE_INTERRUPT ((uintptr_t)1 << (sizeof(uintptr_t) * 8u - 1u))
#define MCAUSE_MACHINE_TIMER 7u
#define MCAUSE_BREAKPOINT 3u

/* mtimecmp is an absolute compare: the interrupt stays raised while mtime
 * >= mtimecmp, so a compare value already in the past only makes the next
 * sample come at once. No period is too short to program. */
static const struct mcuprof_timer_limits mtimer_limits = {
    .min_period = 1u,
    .max_period = UINT32_MAX,
    .min_gap = 0u,
    /* Two dithered samples can fall due at almost the same time, the
     * second while the first one's trap runs: 100 to 450 instructions
     * (bench/RESULTS.md), under 64 ticks of an mtime at a tenth of the
     * core clock or slower (10 MHz on QEMU's virt and most parts) */
    .min_defer = 64u,
};

static uint64_t due; /* the compare value programmed: when the current sample is due */
/* The trap being handled while mcuprof_trap() runs another handler
 * (MCUPROF_CTX_RV_*), MCUPROF_CTX_THREAD otherwise: a handler that enables
 * interrupts again can be sampled, and its samples are counted as its. */
static volatile uint32_t trap_context;

/* An RTOS tick sharing the machine timer (mcuprof_mtimer_set_tick): called
 * every tick_period timer ticks, independently of the sampler's dithered
 * times, from mcuprof_mtimer_isr(). */
static void (*tick_fn)(void);
static uint64_t tick_period, tick_due;
static int sampling; /* the sampler is started: samples are due */
static int trap_seen; /* an interrupt other than the timer came through mcuprof_trap */

/* The compare value: the earlier of the next sample and the next tick. */
MCUPROF_NOINSTR static uint64_t next_compare(void)
{
    uint64_t when = sampling ? due : UINT64_MAX;
    if (tick_fn && tick_due < when)
        when = tick_due;
    return when;
}
/* mcuprof_sample_isr_chain if the firmware defines one, else 0 (read per tick) */
static void (*chain)(void);

MCUPROF_NOINSTR static uint64_t mtime_read(void)
{
    uint32_t hi, lo;
    do { /* the high word must not change while we read the low one */
        hi = CLINT_MTIME_HI;
        lo = CLINT_MTIME_LO;
    } while (hi != CLINT_MTIME_HI);
    return ((uint64_t)hi << 32) | lo;
}

/* Written so that no intermediate value lies in the past (which would
 * fire at once): high word to the maximum first, as the privileged spec
 * recommends for RV32. */
MCUPROF_NOINSTR __attribute__((always_inline)) static inline void mtimecmp_write(uint64_t when)
{
    CLINT_MTIMECMP_HI = UINT32_MAX;
    CLINT_MTIMECMP_LO = (uint32_t)when;
    CLINT_MTIMECMP_HI = (uint32_t)(when >> 32);
}

/* The default, empty mcuprof_sample_isr_chain: the tick skips the call. */
MCUPROF_NOINSTR void mcuprof_no_sample_isr_chain(void)
{
}
__attribute__((weak, alias("mcuprof_no_sample_isr_chain"))) void mcuprof_sample_isr_chain(void);

MCUPROF_NOINSTR int mcuprof_sampler_start(uint32_t timer_hz, uint32_t rate_hz)
{
    mcuprof_sampler_stop();
    int err = mcuprof_timing_start(timer_hz, rate_hz, &mtimer_limits);
    if (err != MCUPROF_OK)
        return err;
    /* mtime free-runs in 64 bits, the very counter the compare uses: it
     * measures lateness exactly, so a registered clock is not needed. */
    mcuprof_timing_set_source(MCUPROF_MISSED_MTIME);
    chain = mcuprof_sample_isr_chain == mcuprof_no_sample_isr_chain ? 0 : mcuprof_sample_isr_chain;
    /* sample 0 at slot 0 + u_0; mcuprof_timing.offset keeps u_0 */
    uint32_t u = mcuprof_timing_offset();
    mcuprof_timing.offset = u;
    due = mtime_read() + u;
    sampling = 1;
    mtimecmp_write(next_compare());
    __asm__ volatile("csrs mie, %0" ::"r"(MIE_MTIE));
    __asm__ volatile("csrsi mstatus, %0" ::"i"(MCUPROF_MSTATUS_MIE));
    return MCUPROF_OK;
}

/* The RTOS tick keeps running when the sampler stops. */
MCUPROF_NOINSTR void mcuprof_sampler_stop(void)
{
    sampling = 0;
    if (!tick_fn) {
        __asm__ volatile("csrc mie, %0" ::"r"(MIE_MTIE));
        mtimecmp_write(UINT64_MAX);
    } else {
        mtimecmp_write(next_compare());
    }
    mcuprof_timing_stop();
}

MCUPROF_NOINSTR int mcuprof_mtimer_set_tick(uint32_t period, void (*tick)(void))
{
    if (tick && period == 0)
        return MCUPROF_ERR_ARGUMENT;
    mcuprof_irq_state_t s = mcuprof_port_irq_save();
    tick_period = period;
    tick_due = mtime_read() + period;
    tick_fn = tick;
    mtimecmp_write(next_compare());
    if (tick)
        __asm__ volatile("csrs mie, %0" ::"r"(MIE_MTIE));
    mcuprof_port_irq_restore(s);
    return MCUPROF_OK;
}

/* One sample per slot of P ticks, at a random offset u_n in it: sample n
 * is due at slot_n + u_n, so the next one at due + P + u_{n+1} - u_n. A
 * sample taken late by L >= P missed L / P periods and moves on past the
 * slots it missed, in step with the old grid: no burst of catch-up
 * interrupts, and the mean rate stays exact. Sets the new compare value
 * in `due` and returns the ticks the sample came late by (0 when not by
 * the deferral threshold, or not yet due: called other than by the
 * interrupt). */
MCUPROF_NOINSTR static uint64_t step_due(uint64_t now)
{
    struct mcuprof_timing *t = &mcuprof_timing;
    uint64_t late = now - due;
    uint64_t next = due + t->period;
    if ((int64_t)late < 0 || late < t->defer)
        late = 0;
    else if (late >= t->period)
        next += mcuprof_timing_missed(late) * t->period;
    uint32_t u = mcuprof_timing_offset();
    due = next + u - t->offset;
    t->offset = u;
    return late;
}

/* Set by the rare path of a late tick whose sample was held off by a
 * handler (late.c): the tick must not bin it. */
static int held_off;

/* The next compare value and the late sample's accounting; returns 1
 * when the sample at PC must not be binned. */
MCUPROF_NOINSTR static int next_due(uint64_t now, uintptr_t pc)
{
    uint64_t late = step_due(now);
    return late ? mcuprof_timing_late(late, pc) : 0;
}

/* In every build, so that an RTOS port can call it whether or not the
 * firmware keeps call paths: without them the stack pointer is unused. */
MCUPROF_NOINSTR void mcuprof_mtimer_isr_sp(uintptr_t mepc, uintptr_t sp)
{
#if MCUPROF_CFG_PATHS > 0
    mcuprof_path_trap_sp = sp;
    mcuprof_mtimer_isr(mepc);
    mcuprof_path_trap_sp = 0; /* not taken when no sample was due */
#else
    (void)sp;
    mcuprof_mtimer_isr(mepc);
#endif
}

MCUPROF_NOINSTR void mcuprof_mtimer_isr(uintptr_t mepc)
{
    if (!tick_fn) {
        int held = next_due(mtime_read(), mepc); /* first: the lateness, for the sample's context */
        mtimecmp_write(due);
        if (!held)
            mcuprof_sample_pc_in(mepc, trap_context);
        mcuprof_sample_isr_chain();
        return;
    }
    /* Shared with an RTOS tick: whichever is due. A tick late by several
     * periods is delivered one per interrupt (the compare stays in the
     * past until it has caught up), so the kernel counts every tick. */
    uint64_t now = mtime_read();
    int sampled = 0;
    if (sampling && (int64_t)(now - due) >= 0) {
        if (!next_due(now, mepc))
            mcuprof_sample_pc_in(mepc, trap_context);
        sampled = 1;
    }
    if ((int64_t)(now - tick_due) >= 0) {
        tick_due += tick_period;
        tick_fn();
    }
    mtimecmp_write(next_compare());
    if (sampled)
        mcuprof_sample_isr_chain();
}

/* The rare part of a tick, for mcuprof_mtimer_trap: any call there would
 * make GCC save every caller-saved register on every tick, so this runs
 * through mcuprof_call_saved (trap_entry.S), which saves them itself. */
enum { RARE_FREEZE, RARE_LATE, RARE_CHAIN, RARE_TASK, RARE_SHARED, RARE_PATH };
MCUPROF_NOINSTR void mcuprof_mtimer_rare(uintptr_t what)
{
    uintptr_t mepc;
    if (what >= (uintptr_t)&mcuprof_region) { /* a bin that wraps (mtimer_spill) */
        mcuprof_spill_carry((uint16_t *)what);
        return;
    }
    __asm__ volatile("csrr %0, mepc" : "=r"(mepc));
    if (what == RARE_FREEZE) {
        mcuprof_freeze_poll(mepc);
    } else if (what == RARE_LATE) {
        held_off = next_due(mtime_read(), mepc);
        mtimecmp_write(due);
    } else if (what == RARE_CHAIN) {
        chain();
    } else if (what == RARE_SHARED) {
        mcuprof_mtimer_isr(mepc);
#if MCUPROF_CFG_PATHS > 0
    } else if (what == RARE_PATH) {
        /* the trap entry left the interrupted sp */
        mcuprof_path_sample(mcuprof_path_take_sp((uintptr_t)__builtin_frame_address(0)), 0, 0);
#endif
    } else {
        mcuprof_task_resolve();
    }
}

MCUPROF_NOINSTR __attribute__((always_inline)) static inline void rare(uintptr_t what)
{
    /* a0 and a1, which the common path uses anyway: registers named here
     * are saved on every tick */
    register uintptr_t a0 __asm__("a0") = what;
    __asm__ volatile("jal a1, mcuprof_call_saved" : "+r"(a0)::"a1", "memory");
}

MCUPROF_NOINSTR __attribute__((always_inline)) static inline void mtimer_spill(uint16_t *bin)
{
    rare((uintptr_t)bin);
}

/* In mcuprof_mtimer_trap: the interrupted code's sp, which the trap left
 * as it was (the entries jump here without touching it), so the CFA. */
#define interrupted_sp() ((uintptr_t)__builtin_dwarf_cfa())

/* The machine timer interrupt, entered from mcuprof_trap_entry with every
 * register as the interrupted code left it. A leaf: GCC saves only the
 * registers it uses. The common path is mcuprof_mtimer_isr's, inlined;
 * what needs a call goes through rare(). */
__attribute__((interrupt("machine"))) MCUPROF_NOINSTR void mcuprof_mtimer_trap(void)
{
    uintptr_t mepc;
    if (tick_fn) { /* the timer is shared with an RTOS tick: the long way */
#if MCUPROF_CFG_PATHS > 0
        mcuprof_path_trap_sp = interrupted_sp(); /* for the sample's path */
        rare(RARE_SHARED);
        mcuprof_path_trap_sp = 0; /* not taken when no sample was due */
#else
        rare(RARE_SHARED);
#endif
        return;
    }
    /* The next compare first: a late tick's missed periods are known
     * before the sample is counted (a core that slept through them was
     * idle, sample_context.h). */
    struct mcuprof_timing *t = &mcuprof_timing;
    uint32_t period = t->period;
#if __riscv_xlen == 32
    /* In 32-bit words: late by less than a period in the low word, the
     * high word the compare's; anything else (the low word wrapped, a stall
     * of 2^32 ticks, an early call) goes the long way. */
    uint32_t due_lo = (uint32_t)due, due_hi = (uint32_t)(due >> 32);
    uint32_t lo = CLINT_MTIME_LO, hi = CLINT_MTIME_HI;
    if (hi == due_hi && lo - due_lo < t->defer) {
        uint32_t u = mcuprof_timing_offset();
        uint32_t next = due_lo + (period + u - t->offset);
        t->offset = u;
        if (next >= due_lo) {
            /* the high word stays: the low word alone is the new value,
             * never one in the past */
            CLINT_MTIMECMP_LO = next;
            due = ((uint64_t)due_hi << 32) | next;
        } else {
            due = ((uint64_t)(due_hi + 1u) << 32) | next;
            mtimecmp_write(due);
        }
    } else {
        rare(RARE_LATE);
        if (held_off)
            goto held;
    }
#else
    uint64_t now = *(volatile uint64_t *)&CLINT_MTIME_LO;
    if (now - due < t->defer) {
        uint32_t u = mcuprof_timing_offset();
        due += period + u - t->offset;
        t->offset = u;
        *(volatile uint64_t *)&CLINT_MTIMECMP_LO = due;
    } else {
        rare(RARE_LATE);
        if (held_off)
            goto held;
    }
#endif
    __asm__ volatile("csrr %0, mepc" : "=r"(mepc));
    if (mcuprof_freeze_pending())
        rare(RARE_FREEZE);
    if (mcuprof_sample_body(mepc, MCUPROF_CFG_CONTEXTS > 0 ? trap_context : MCUPROF_CTX_THREAD))
        rare(RARE_TASK);
#if MCUPROF_CFG_PATHS > 0
    /* the innermost frame's known path inline; anything else through the
     * rare path, which takes the interrupted sp from here */
    if (mcuprof_path_count_cached(interrupted_sp(), 0u, 0u)) {
        mcuprof_path_trap_sp = interrupted_sp();
        rare(RARE_PATH);
    }
#endif
    if (chain)
        rare(RARE_CHAIN);
    return;
held: /* held off by a handler: counted, not binned (late.c) */
    held_off = 0;
    if (chain)
        rare(RARE_CHAIN);
}

/* Only read code we know is code: a wild mepc must not fault again here. */
MCUPROF_NOINSTR static int is_semihosting_ebreak(uintptr_t pc)
{
    if (pc < MCUPROF_SYM(__mcuprof_text0_start) + 4u || pc + 8u > MCUPROF_SYM(__mcuprof_text0_end) ||
        (pc & 3u) != 0u)
        return 0;
    const volatile uint32_t *insn = (const volatile uint32_t *)pc;
    return insn[-1] == MCUPROF_SEMIHOST_INSN_SLLI && insn[0] == MCUPROF_SEMIHOST_INSN_EBREAK &&
           insn[1] == MCUPROF_SEMIHOST_INSN_SRAI;
}

__attribute__((weak)) MCUPROF_NOINSTR void mcuprof_trap_chain(uintptr_t mcause, uintptr_t mepc)
{
    (void)mcause;
    (void)mepc;
    for (;;) {
    }
}

/* A handler run by mcuprof_trap with interrupts masked held the sampler
 * off if a sample fell due while it ran: the handler is named as a
 * blocker, and the sample is taken now, in the handler's context, charged
 * to mcuprof_trap_chain (the handler's way in: gprof shows the time
 * there), with the periods it missed; the timer interrupt that waits
 * behind it finds its compare moved on. A handler that unmasked
 * interrupts let the sampler in on time and is not charged here. */
MCUPROF_NOINSTR static void sample_after_handler(uint32_t context)
{
    uintptr_t pc = (uintptr_t)mcuprof_trap_chain;
    uint64_t late = mtime_read() - due;
    if ((int64_t)late < 0)
        return;
    if (late >= mcuprof_timing.defer)
        mcuprof_blocker_seen(context, 0u, 0u, 1);
    /* Every sample that fell due while it ran is the handler's (also one
     * due just before it ended: taken after mret, it would land in the
     * code the handler interrupted); the next one's dithered time may be
     * past already when this one was late by most of a period. */
    do {
        late = step_due(mtime_read());
        if (late)
            mcuprof_late_handler(pc, late < mcuprof_timing.period ? 0u : mcuprof_timing_missed(late));
        mcuprof_sample_pc_in(pc, context);
        mcuprof_sample_isr_chain();
    } while ((int64_t)(mtime_read() - due) >= 0);
    mtimecmp_write(due);
}

/* Machine interrupts the firmware enabled besides the timer, when their
 * traps do not come through mcuprof_trap (the firmware's own trap entry):
 * their handlers run with interrupts masked unless they unmask them, so
 * each may hold the sampler off. Through mcuprof_trap the handlers that
 * do are seen directly (sample_after_handler), so mie is not guessed
 * from. */
extern char mcuprof_default_trap_vector[] __attribute__((weak)); /* default_vectors.S */

MCUPROF_NOINSTR void mcuprof_port_scan_blockers(void)
{
    uintptr_t mtvec;
    __asm__ volatile("csrr %0, mtvec" : "=r"(mtvec));
    mtvec &= ~(uintptr_t)3u;
    if (trap_seen || mtvec == (uintptr_t)&mcuprof_trap_entry ||
        (mcuprof_default_trap_vector && mtvec == (uintptr_t)mcuprof_default_trap_vector))
        return;
    uintptr_t mie;
    __asm__ volatile("csrr %0, mie" : "=r"(mie));
    for (uint32_t cause = 0; cause < sizeof(uintptr_t) * 8u; cause++) {
        if (cause == MCAUSE_MACHINE_TIMER)
            continue;
        mcuprof_blocker_seen(MCUPROF_CTX_RV_INTERRUPT | cause, 0u, 0u, (int)((mie >> cause) & 1u));
    }
}

/* Called by mcuprof_trap_entry with the saved registers; frame[a0_slot]
 * is what a0 will hold after mret. */
MCUPROF_NOINSTR void mcuprof_trap(uintptr_t *saved_a0)
{
    uintptr_t mcause, mepc;
    __asm__ volatile("csrr %0, mcause" : "=r"(mcause));
    __asm__ volatile("csrr %0, mepc" : "=r"(mepc));
    if (mcause == (MCAUSE_INTERRUPT | MCAUSE_MACHINE_TIMER)) {
        mcuprof_mtimer_isr(mepc);
    } else if (mcause == MCAUSE_BREAKPOINT && is_semihosting_ebreak(mepc)) {
        *saved_a0 = (uintptr_t)-1; /* the call failed: no debugger */
        __asm__ volatile("csrw mepc, %0" ::"r"(mepc + 4u));
    } else {
        uint32_t outer = trap_context;
        uint32_t kind = (mcause & MCAUSE_INTERRUPT) ? MCUPROF_CTX_RV_INTERRUPT : MCUPROF_CTX_RV_EXCEPTION;
        trap_context = kind | ((uint32_t)mcause & MCUPROF_CTX_NUMBER_Msk);
        if (mcause & MCAUSE_INTERRUPT)
            trap_seen = 1;
        mcuprof_trap_chain(mcause, mepc);
        if (sampling && !tick_fn)
            sample_after_handler(trap_context);
        trap_context = outer;
    }
}

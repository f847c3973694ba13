/*
 * mtimer.c - the RISC-V sampler timer: the machine timer of the CLINT
 * (mtime, mtimecmp of hart 0), and the trap handling around it.
 */
#include "mcuprof.h"
#include "mcuprof_port.h"
#include "mcuprof_symbols.h"
#include "sample_timing.h"

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

/* The semihosting sequence: slli x0,x0,0x1f; ebreak; srai x0,x0,7 */
#define INSN_SLLI_MARK 0x01f01013u
#define INSN_EBREAK 0x00100073u
#define INSN_SRAI_MARK 0x40705013u

/* mtimecmp is an absolute compare: the interrupt stays raised while mtime
 * >= mtimecmp, so a compare value already in the past only makes the next
 * sample come at once. No period is too short to program. */
static const struct mcuprof_timer_limits mtimer_limits = {
    .min_period = 1u,
    .max_period = UINT32_MAX,
    .min_gap = 0u,
};

static uint64_t slot;    /* mtime at the start of the current sample's slot */
static uint64_t compare; /* when the current sample is due: slot + offset */

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
MCUPROF_NOINSTR static void mtimecmp_write(uint64_t when)
{
    CLINT_MTIMECMP_HI = UINT32_MAX;
    CLINT_MTIMECMP_LO = (uint32_t)when;
    CLINT_MTIMECMP_HI = (uint32_t)(when >> 32);
}

MCUPROF_NOINSTR int mcuprof_sampler_start(uint32_t timer_hz, uint32_t rate_hz)
{
    mcuprof_sampler_stop();
    int err = mcuprof_timing_start(timer_hz, rate_hz, &mtimer_limits);
    if (err != MCUPROF_OK)
        return err;
    /* mtime free-runs in 64 bits, the very counter the compare uses: it
     * measures lateness exactly, so a registered clock is not needed. */
    mcuprof_timing_set_source(MCUPROF_MISSED_MTIME);
    slot = mtime_read();
    compare = slot + mcuprof_timing_offset();
    mtimecmp_write(compare);
    __asm__ volatile("csrs mie, %0" ::"r"(MIE_MTIE));
    __asm__ volatile("csrsi mstatus, %0" ::"i"(MCUPROF_MSTATUS_MIE));
    return MCUPROF_OK;
}

MCUPROF_NOINSTR void mcuprof_sampler_stop(void)
{
    __asm__ volatile("csrc mie, %0" ::"r"(MIE_MTIE));
    mtimecmp_write(UINT64_MAX);
    mcuprof_timing_stop();
}

__attribute__((weak)) MCUPROF_NOINSTR void mcuprof_sample_isr_chain(void)
{
}

/* The late path, out of line so the common one keeps few registers live:
 * the slot after the one that is now running. */
__attribute__((noinline)) MCUPROF_NOINSTR static uint64_t slot_after_late(uint64_t next, uint64_t late)
{
    if ((int64_t)late < 0) /* not yet due: called other than by the interrupt */
        return next;
    return next + mcuprof_timing_late(late) * mcuprof_timing.period;
}

MCUPROF_NOINSTR void mcuprof_mtimer_isr(uintptr_t mepc)
{
    /* One sample per slot of P ticks, at a random offset in it. A sample
     * taken late by L >= P counts L / P missed periods and moves on past
     * the slots it missed, in step with the old grid: no burst of
     * catch-up interrupts, and the mean rate stays exact. The sample
     * first: nothing then lives across the call. */
    mcuprof_sample_pc(mepc);
    uint64_t late = mtime_read() - compare;
    uint32_t period = mcuprof_timing.period;
    uint64_t next = slot + period;
    if (late >= period)
        next = slot_after_late(next, late);
    slot = next;
    compare = next + mcuprof_timing_offset();
    mtimecmp_write(compare);
    mcuprof_sample_isr_chain();
}

/* Only read code we know is code: a wild mepc must not fault again here. */
MCUPROF_NOINSTR static int is_semihosting_ebreak(uintptr_t pc)
{
    if (pc < MCUPROF_SYM(__mcuprof_text0_start) + 4u || pc + 8u > MCUPROF_SYM(__mcuprof_text0_end) ||
        (pc & 3u) != 0u)
        return 0;
    const volatile uint32_t *insn = (const volatile uint32_t *)pc;
    return insn[-1] == INSN_SLLI_MARK && insn[0] == INSN_EBREAK && insn[1] == INSN_SRAI_MARK;
}

__attribute__((weak)) MCUPROF_NOINSTR void mcuprof_trap_chain(uintptr_t mcause, uintptr_t mepc)
{
    (void)mcause;
    (void)mepc;
    for (;;) {
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
        mcuprof_trap_chain(mcause, mepc);
    }
}

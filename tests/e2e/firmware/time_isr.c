/*
 * time_isr.c - work in an interrupt handler: the main loop spins, then
 * triggers a software interrupt whose handler spins too, 70 : 30 in
 * instructions. The sampler must see the handler: on Cortex-M the
 * handler's priority is set below the sampler's (SysTick runs at the
 * highest), on RISC-V the handler re-enables interrupts so the machine
 * timer can nest (saving mepc and mstatus, as any nesting handler must).
 */
#include "time_common.h"

/* 500 * 62,500 iterations * 2 = 62.5 M instructions: 20,000 samples at
 * 10 kHz on a 31 MHz core, 40,000 on a 16 MHz one */
#define ROUNDS 500u
#define MAIN_LOOPS 43750u /* 70 % */
#define ISR_LOOPS 18750u  /* 30 % */

__attribute__((noinline)) void main_spin(uint32_t n) { SPIN_LOOP(n); }
__attribute__((noinline)) void isr_spin(uint32_t n) { SPIN_LOOP(n); }

void board_swi_handler(void)
{
    TC_PREEMPTIBLE(isr_spin(ISR_LOOPS));
}

int main(void)
{
    tc_swi_enable_lowest();
    tc_start();
    for (uint32_t r = 0; r < ROUNDS; r++) {
        main_spin(MAIN_LOOPS);
        board_swi_trigger();
    }
    tc_finish();

    /* The context table saw the handler as such: its share of the samples
     * is the handler's share of the work. */
#if defined(__arm__)
    uint32_t handler = MCUPROF_CTX_ARM_EXCEPTION | (16u + BOARD_SWI_IRQ);
#else
    uint32_t handler = MCUPROF_CTX_RV_INTERRUPT | 3u; /* machine software interrupt */
#endif
    uint32_t taken = tc_header()->samples_taken;
    const struct mcuprof_ext *ctx = tc_context_table();
    if (ctx && ctx->capacity <= 3u) {
        /* a table with room for its fixed entries only: the handler's
         * samples are counted as lost in it, none is wrongly placed */
        if (tc_context_samples(handler) != 0)
            tc_fail("a handler got an entry in a full context table");
        tc_check_share("handler (table full)", ctx->lost, taken, ISR_LOOPS, MAIN_LOOPS + ISR_LOOPS);
        tc_check_share("thread", tc_context_samples(MCUPROF_CTX_THREAD), taken, MAIN_LOOPS,
                       MAIN_LOOPS + ISR_LOOPS);
    } else if (ctx) { /* built with a context table */
        tc_check_share("handler", tc_context_samples(handler), taken, ISR_LOOPS, MAIN_LOOPS + ISR_LOOPS);
        tc_check_share("thread", tc_context_samples(MCUPROF_CTX_THREAD), taken, MAIN_LOOPS,
                       MAIN_LOOPS + ISR_LOOPS);
    }

    tc_expect_share("main_spin", MAIN_LOOPS, MAIN_LOOPS + ISR_LOOPS);
    tc_expect_share("isr_spin", ISR_LOOPS, MAIN_LOOPS + ISR_LOOPS);
    return 0;
}

/*
 * smoke_cortex-m.c - the Cortex-M part of the smoke firmware: SysTick, its
 * interrupt (FP frames on an FPU), the NVIC, and the HardFault handler that
 * steps over a semihosting BKPT nobody performed.
 */
#include <stdint.h>

#include "board.h"
#include "cortex_m.h"
#include "smoke.h"

static volatile uint32_t systick_count;
static volatile uint32_t systick_extended_frames;
static volatile uint32_t hardfaults;
static volatile uint32_t hardfault_hfsr;
#if defined(__ARM_FP)
static volatile float fp_in, fp_seen, fp_out;
#endif

/* Exactly 2 * n instructions on every Thumb core. GCC hands Thumb-1 inline
 * assembly to the assembler in divided syntax, where SUB is the 16-bit
 * flag-setting form. */
static void spin(uint32_t n)
{
#if defined(__thumb2__)
    __asm__ volatile("1: subs %0, %0, #1\n\tbne 1b" : "+l"(n) : : "cc");
#else
    __asm__ volatile("1: sub %0, #1\n\tbne 1b" : "+l"(n) : : "cc");
#endif
}

uint32_t smoke_timer_counts(uint32_t loops)
{
    uint32_t before, after;

    SYST_CSR = 0u;
    SYST_RVR = SYST_RVR_MAX;
    SYST_CVR = 0u;
    SYST_CSR = SYST_CSR_ENABLE_Msk | SYST_CSR_CLKSOURCE_Msk;
    before = SYST_CVR;
    spin(loops);
    after = SYST_CVR;
    SYST_CSR = 0u;
    return (before - after) & SYST_RVR_MAX; /* it counts down */
}

void SysTick_Handler(void)
{
    /* lr still holds EXC_RETURN: bit 4 clear = extended (FP) frame. */
    uint32_t exc_return = (uint32_t)(uintptr_t)__builtin_return_address(0);

    if ((exc_return & 0x10u) == 0u) {
        systick_extended_frames++;
    }
#if defined(__ARM_FP)
    {
        float x = fp_in;

        fp_out = x * 1.5f + 0.25f;
        fp_seen = x;
    }
#endif
    systick_count++;
}

void smoke_timer_interrupts(uint32_t tick_hz, uint32_t wanted)
{
    uint32_t guard = 0;

    SYST_RVR = BOARD_SYSTICK_HZ / tick_hz - 1u;
    SYST_CVR = 0u;
    SYST_CSR = SYST_CSR_ENABLE_Msk | SYST_CSR_TICKINT_Msk |
               SYST_CSR_CLKSOURCE_Msk;
    while (systick_count < wanted && guard < 100000000u) {
#if defined(__ARM_FP)
        fp_in = fp_in + 1.0f; /* interrupted code uses the FPU */
#endif
        guard++;
    }
    SYST_CSR = 0u;
    board_puts("systick: ");
    board_put_u32(systick_count);
    board_puts(" interrupts, ");
    board_put_u32(systick_extended_frames);
    board_puts(" with an extended (FP) frame\n");
    smoke_check(systick_count >= wanted, "SysTick interrupts arrive");
#if defined(__ARM_FP)
    smoke_check(systick_extended_frames == systick_count && fp_seen > 0.0f &&
                    fp_out == fp_seen * 1.5f + 0.25f,
                "FPU used in the handler, extended frames pushed");
#else
    smoke_check(systick_extended_frames == 0u, "no FPU: standard frames only");
#endif
}

int smoke_swi_pending(void)
{
    return (NVIC_ISPR(BOARD_SWI_IRQ) & NVIC_BIT(BOARD_SWI_IRQ)) != 0u;
}

/* board_pend_irq() reaches the same handler; then the line is disabled. */
void smoke_swi_more(volatile uint32_t *count)
{
    board_pend_irq(BOARD_SWI_IRQ);
    smoke_check(*count == 2u, "board_pend_irq(BOARD_SWI_IRQ) taken at once");
    NVIC_ICER(BOARD_SWI_IRQ) = NVIC_BIT(BOARD_SWI_IRQ);
}

int smoke_semihost_trapped(void)
{
    if (hardfaults == 0u) {
        return 0;
    }
    board_puts("semihosting: none (the BKPT took a HardFault, HFSR=");
    board_put_u32(hardfault_hfsr);
    board_puts(")\n");
    return 1;
}

/* Step over a semihosting BKPT when nobody performed it, as the mcuprof
 * runtime does; any other fault stops here. Frame: r0-r3, r12, lr, pc, xpsr. */
void hardfault_c(uint32_t *frame);
void hardfault_c(uint32_t *frame)
{
    const uint16_t *pc = (const uint16_t *)(uintptr_t)frame[6];

    hardfaults++;
#if !defined(__ARM_ARCH_6M__)
    hardfault_hfsr = CM_REG(0xE000ED2Cu); /* HFSR: no such register on v6-M */
#endif
    if (*pc != MCUPROF_SEMIHOST_BKPT_INSN) {
        board_puts("unexpected HardFault\n");
        for (;;) {
        }
    }
    frame[6] += 2u;
    frame[0] = (uint32_t)-1;
}

__attribute__((naked)) void HardFault_Handler(void)
{
    __asm__ volatile("movs r0, #4\n\t"
                     "mov r1, lr\n\t"
                     "tst r0, r1\n\t"
                     "beq 1f\n\t"
                     "mrs r0, psp\n\t"
                     "b 2f\n"
                     "1:\n\t"
                     "mrs r0, msp\n"
                     "2:\n\t"
                     "ldr r2, =hardfault_c\n\t"
                     "bx r2\n\t"
                     ".ltorg");
}

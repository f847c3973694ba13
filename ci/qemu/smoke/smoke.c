/*
 * smoke.c - checks that a board's support works under QEMU, without mcuprof
 * and without -pg. Run with ci/qemu/run.sh at the default -icount shift 0
 * (one instruction = 1 ns of virtual time), it:
 *   - prints hello on the console UART;
 *   - measures the SysTick clock against the instruction count and checks
 *     it matches BOARD_SYSTICK_HZ;
 *   - takes SysTick interrupts; with an FPU, checks that FP code ran in the
 *     handler and that the interrupted FP code got an extended frame
 *     (EXC_RETURN bit 4 clear);
 *   - pends BOARD_SWI_IRQ through board_pend_irq() and sees its handler run;
 *   - writes smoke.txt through semihosting;
 *   - exits with code 3 through board_exit() when every check passed, 1
 *     otherwise.
 * Without semihosting its HardFault handler steps over the BKPT and returns
 * -1, so the file write fails, board_exit() prints "exit 3" and sleeps.
 */
#include <stdint.h>

#include "board.h"
#include "cortex_m.h"

#define PASTE2(a, b, c) a##b##c
#define PASTE(a, b, c) PASTE2(a, b, c)
#define SWI_HANDLER PASTE(IRQ, BOARD_SWI_IRQ, _Handler)

/* 2 instructions per iteration: 1,000,000 instructions = 1 ms at shift 0. */
#define MEASURE_LOOPS 500000u
#define MEASURE_INSNS (2u * MEASURE_LOOPS)
#define TICK_HZ 1000u
#define TICKS_WANTED 5u

static unsigned failures;
static volatile uint32_t systick_count;
static volatile uint32_t systick_extended_frames;
static volatile uint32_t swi_count;
static volatile uint32_t hardfaults;
static volatile uint32_t hardfault_hfsr;
#if defined(__ARM_FP)
static volatile float fp_in, fp_seen, fp_out;
#endif

static void check(int ok, const char *what)
{
    board_puts(ok ? "ok   " : "FAIL ");
    board_puts(what);
    board_putc('\n');
    if (!ok) {
        failures++;
    }
}

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

void SWI_HANDLER(void)
{
    swi_count++;
}

/* Step over a semihosting BKPT when nobody performed it, as the mcuprof
 * runtime does; any other fault stops here. Frame: r0-r3, r12, lr, pc, xpsr. */
void hardfault_c(uint32_t *frame)
{
    const uint16_t *pc = (const uint16_t *)(uintptr_t)frame[6];

    hardfaults++;
#if !defined(__ARM_ARCH_6M__)
    hardfault_hfsr = CM_REG(0xE000ED2Cu); /* HFSR: no such register on v6-M */
#endif
    if (*pc != 0xBEABu) {
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

static void measure_systick(void)
{
    uint32_t before, after, ticks, hz, lo, hi;

    SYST_CSR = 0u;
    SYST_RVR = SYST_RVR_MAX;
    SYST_CVR = 0u;
    SYST_CSR = SYST_CSR_ENABLE_Msk | SYST_CSR_CLKSOURCE_Msk;
    before = SYST_CVR;
    spin(MEASURE_LOOPS);
    after = SYST_CVR;
    SYST_CSR = 0u;

    ticks = (before - after) & SYST_RVR_MAX; /* it counts down */
    hz = ticks * (1000000000u / MEASURE_INSNS);
    board_puts("systick: ");
    board_put_u32(ticks);
    board_puts(" counts in ");
    board_put_u32(MEASURE_INSNS);
    board_puts(" instructions = ");
    board_put_u32(hz);
    board_puts(" Hz at -icount shift=0, board says ");
    board_put_u32(BOARD_SYSTICK_HZ);
    board_putc('\n');
    /* a few instructions around the loop: allow 1 % */
    lo = BOARD_SYSTICK_HZ / 100u * 99u;
    hi = BOARD_SYSTICK_HZ / 100u * 101u;
    check(hz >= lo && hz <= hi, "SysTick counts at BOARD_SYSTICK_HZ");
}

static void systick_interrupts(void)
{
    uint32_t guard = 0;

    SYST_RVR = BOARD_SYSTICK_HZ / TICK_HZ - 1u;
    SYST_CVR = 0u;
    SYST_CSR = SYST_CSR_ENABLE_Msk | SYST_CSR_TICKINT_Msk |
               SYST_CSR_CLKSOURCE_Msk;
    while (systick_count < TICKS_WANTED && guard < 100000000u) {
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
    check(systick_count >= TICKS_WANTED, "SysTick interrupts arrive");
#if defined(__ARM_FP)
    check(systick_extended_frames == systick_count && fp_seen > 0.0f &&
              fp_out == fp_seen * 1.5f + 0.25f,
          "FPU used in the handler, extended frames pushed");
#else
    check(systick_extended_frames == 0u, "no FPU: standard frames only");
#endif
}

static void software_interrupt(void)
{
    unsigned n = BOARD_SWI_IRQ;

    check((NVIC_ISPR(n) & NVIC_BIT(n)) == 0u,
          "BOARD_SWI_IRQ not pending by itself");
    NVIC_ISER(n) = NVIC_BIT(n);
    board_pend_irq(n);
    check(swi_count == 1u, "BOARD_SWI_IRQ handler ran once");
    NVIC_ICER(n) = NVIC_BIT(n);
}

static uint32_t length(const char *s)
{
    uint32_t n = 0;

    while (s[n] != '\0') {
        n++;
    }
    return n;
}

static void semihosting_file(void)
{
    static const char name[] = "smoke.txt";
    static const char text[] = "mcuprof smoke " BOARD_NAME "\n";
    uint32_t open_args[3] = {(uint32_t)(uintptr_t)name, 4u /* "wb" */,
                             sizeof(name) - 1u};
    uint32_t io_args[3];
    int fd, left = -1, closed = -1;

    fd = cm_semihost(SEMIHOST_SYS_OPEN, open_args);
    if (fd != -1) {
        io_args[0] = (uint32_t)fd;
        io_args[1] = (uint32_t)(uintptr_t)text;
        io_args[2] = length(text);
        left = cm_semihost(SEMIHOST_SYS_WRITE, io_args);
        closed = cm_semihost(SEMIHOST_SYS_CLOSE, io_args);
    }
    if (hardfaults != 0u) {
        board_puts("semihosting: none (the BKPT took a HardFault, HFSR=");
        board_put_u32(hardfault_hfsr);
        board_puts(")\n");
        return;
    }
    check(fd != -1 && left == 0 && closed == 0,
          "semihosting wrote smoke.txt");
}

int main(void)
{
    board_puts("hello from " BOARD_NAME "\n");
    measure_systick();
    systick_interrupts();
    software_interrupt();
    semihosting_file();
    if (failures != 0u) {
        board_puts("smoke: FAILED\n");
        board_exit(1);
    }
    board_puts("smoke: passed\n");
    return 3;
}

/*
 * startup.c - vector table and reset for every Cortex-M board (v6-M, v7-M,
 * v8-M Mainline).
 *
 * Built without -pg, and every function is no_instrument_function as well,
 * because a user's build may add -pg to everything: Reset_Handler runs
 * before .data and .bss exist, so it must never reach the profiling hook.
 * The .mcuprof region is not touched here; the runtime initialises it.
 */
#include <stdint.h>

#include "board.h"
#include "cortex_m.h"

#define NOPROF __attribute__((no_instrument_function))

/* From the linker script (sections.ld). */
extern uint32_t __data_load[], __data_start[], __data_end[];
extern uint32_t __bss_start[], __bss_end[];
extern uint32_t __stack_top[];
typedef void (*init_fn)(void);
extern const init_fn __preinit_array_start[], __preinit_array_end[];
extern const init_fn __init_array_start[], __init_array_end[];

int main(void);

NOPROF void Default_Handler(void);
NOPROF void Reset_Handler(void) __attribute__((noreturn));

#define WEAK_HANDLER(name) \
    NOPROF void name(void) __attribute__((weak, alias("Default_Handler")))

WEAK_HANDLER(NMI_Handler);
WEAK_HANDLER(HardFault_Handler);
WEAK_HANDLER(MemManage_Handler);
WEAK_HANDLER(BusFault_Handler);
WEAK_HANDLER(UsageFault_Handler);
WEAK_HANDLER(SecureFault_Handler);
WEAK_HANDLER(SVC_Handler);
WEAK_HANDLER(DebugMon_Handler);
WEAK_HANDLER(PendSV_Handler);
WEAK_HANDLER(SysTick_Handler);
WEAK_HANDLER(IRQ0_Handler);
WEAK_HANDLER(IRQ1_Handler);
WEAK_HANDLER(IRQ2_Handler);
WEAK_HANDLER(IRQ3_Handler);
WEAK_HANDLER(IRQ4_Handler);
WEAK_HANDLER(IRQ5_Handler);
WEAK_HANDLER(IRQ6_Handler);
WEAK_HANDLER(IRQ7_Handler);
WEAK_HANDLER(IRQ8_Handler);
WEAK_HANDLER(IRQ9_Handler);
WEAK_HANDLER(IRQ10_Handler);
WEAK_HANDLER(IRQ11_Handler);
WEAK_HANDLER(IRQ12_Handler);
WEAK_HANDLER(IRQ13_Handler);
WEAK_HANDLER(IRQ14_Handler);
WEAK_HANDLER(IRQ15_Handler);
WEAK_HANDLER(IRQ16_Handler);
WEAK_HANDLER(IRQ17_Handler);
WEAK_HANDLER(IRQ18_Handler);
WEAK_HANDLER(IRQ19_Handler);
WEAK_HANDLER(IRQ20_Handler);
WEAK_HANDLER(IRQ21_Handler);
WEAK_HANDLER(IRQ22_Handler);
WEAK_HANDLER(IRQ23_Handler);
WEAK_HANDLER(IRQ24_Handler);
WEAK_HANDLER(IRQ25_Handler);
WEAK_HANDLER(IRQ26_Handler);
WEAK_HANDLER(IRQ27_Handler);
WEAK_HANDLER(IRQ28_Handler);
WEAK_HANDLER(IRQ29_Handler);
WEAK_HANDLER(IRQ30_Handler);
WEAK_HANDLER(IRQ31_Handler);

typedef void (*vector_t)(void);

/* ARMv6-M reserves the slots of the configurable faults and DebugMonitor;
 * only v8-M Mainline has SecureFault. */
#if defined(__ARM_ARCH_6M__) || defined(__ARM_ARCH_8M_BASE__)
#define V7M_ONLY(h) 0
#else
#define V7M_ONLY(h) h
#endif
#if defined(__ARM_ARCH_8M_MAIN__)
#define V8M_MAIN_ONLY(h) h
#else
#define V8M_MAIN_ONLY(h) 0
#endif

__attribute__((section(".vectors"), used)) const vector_t __vectors[16 + 32] = {
    (vector_t)(uintptr_t)__stack_top,
    Reset_Handler,
    NMI_Handler,
    HardFault_Handler,
    V7M_ONLY(MemManage_Handler),
    V7M_ONLY(BusFault_Handler),
    V7M_ONLY(UsageFault_Handler),
    V8M_MAIN_ONLY(SecureFault_Handler),
    0,
    0,
    0,
    SVC_Handler,
    V7M_ONLY(DebugMon_Handler),
    0,
    PendSV_Handler,
    SysTick_Handler,
    IRQ0_Handler,
    IRQ1_Handler,
    IRQ2_Handler,
    IRQ3_Handler,
    IRQ4_Handler,
    IRQ5_Handler,
    IRQ6_Handler,
    IRQ7_Handler,
    IRQ8_Handler,
    IRQ9_Handler,
    IRQ10_Handler,
    IRQ11_Handler,
    IRQ12_Handler,
    IRQ13_Handler,
    IRQ14_Handler,
    IRQ15_Handler,
    IRQ16_Handler,
    IRQ17_Handler,
    IRQ18_Handler,
    IRQ19_Handler,
    IRQ20_Handler,
    IRQ21_Handler,
    IRQ22_Handler,
    IRQ23_Handler,
    IRQ24_Handler,
    IRQ25_Handler,
    IRQ26_Handler,
    IRQ27_Handler,
    IRQ28_Handler,
    IRQ29_Handler,
    IRQ30_Handler,
    IRQ31_Handler,
};

NOPROF void Default_Handler(void)
{
    for (;;) {
    }
}

/* The empty asm in each loop keeps GCC from turning the loops into calls to
 * memcpy/memset, which could be profiled code. */
NOPROF void Reset_Handler(void)
{
    const uint32_t *src = __data_load;
    uint32_t *dst;

    for (dst = __data_start; dst < __data_end; dst++, src++) {
        *dst = *src;
        __asm__ volatile("" ::: "memory");
    }
    for (dst = __bss_start; dst < __bss_end; dst++) {
        *dst = 0;
        __asm__ volatile("" ::: "memory");
    }
#if defined(__ARM_FP)
    /* Compiled for hard or softfp float: the FPU must be on before the
     * first FP instruction, or that instruction takes a UsageFault. */
    SCB_CPACR |= SCB_CPACR_CP10_CP11_Msk;
    __asm__ volatile("dsb\n\tisb" ::: "memory");
#endif
    board_init();
    board_register_clock();
    for (const init_fn *f = __preinit_array_start; f < __preinit_array_end; f++)
        (*f)();
    for (const init_fn *f = __init_array_start; f < __init_array_end; f++)
        (*f)();
    board_exit(main());
}

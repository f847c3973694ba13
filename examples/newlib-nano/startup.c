/*
 * startup.c - a CMSIS-style startup for the MPS2 AN385 (Cortex-M3): the
 * vector table with weak handlers, and Reset_Handler, which copies .data,
 * calls SystemInit and hands over to newlib's crt0 (_start: .bss, the
 * semihosting handles, constructors, main, exit). It knows nothing of
 * mcuprof: the runtime's strong SysTick_Handler and HardFault_Handler
 * replace the weak defaults. Code that runs before .data is set up must not
 * call the profiling hook (no_instrument_function).
 *
 * Each example stands alone, a folder a user can copy out of the kit, so
 * what it shares with the others and with boards/ is written again here on
 * purpose, not included from there.
 */
#include <stdint.h>

extern uint32_t _sidata[], _sdata[], _edata[], __stack[];
void SystemInit(void);
void _start(void);

__attribute__((no_instrument_function)) void Default_Handler(void)
{
    for (;;) {
    }
}

__attribute__((no_instrument_function, noreturn)) void Reset_Handler(void)
{
    uint32_t *src = _sidata;
    for (uint32_t *dst = _sdata; dst < _edata;)
        *dst++ = *src++;
    SystemInit();
    _start();
    for (;;) {
    }
}

void NMI_Handler(void) __attribute__((weak, alias("Default_Handler")));
void HardFault_Handler(void) __attribute__((weak, alias("Default_Handler")));
void MemManage_Handler(void) __attribute__((weak, alias("Default_Handler")));
void BusFault_Handler(void) __attribute__((weak, alias("Default_Handler")));
void UsageFault_Handler(void) __attribute__((weak, alias("Default_Handler")));
void SVC_Handler(void) __attribute__((weak, alias("Default_Handler")));
void DebugMon_Handler(void) __attribute__((weak, alias("Default_Handler")));
void PendSV_Handler(void) __attribute__((weak, alias("Default_Handler")));
void SysTick_Handler(void) __attribute__((weak, alias("Default_Handler")));

__attribute__((section(".isr_vector"), used)) static void (*const vectors[16])(void) = {
    (void (*)(void))__stack, Reset_Handler, NMI_Handler, HardFault_Handler,
    MemManage_Handler, BusFault_Handler, UsageFault_Handler, 0, 0, 0, 0,
    SVC_Handler, DebugMon_Handler, 0, PendSV_Handler, SysTick_Handler,
};

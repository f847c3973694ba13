/*
 * startup.c - a minimal CMSIS-style startup for the MPS2 AN385 (Cortex-M3):
 * weak handlers, .data/.bss set-up, main. It knows nothing of mcuprof: the
 * runtime's strong SysTick_Handler and HardFault_Handler replace the weak
 * defaults here. Reset_Handler runs before .data is initialised, so it must
 * not call the profiling hook.
 */
#include <stdint.h>

extern uint32_t _sidata[], _sdata[], _edata[], _sbss[], _ebss[], _estack[];
int main(void);

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
    for (uint32_t *dst = _sbss; dst < _ebss;)
        *dst++ = 0;
    main();
    for (;;) {
    }
}

void NMI_Handler(void) __attribute__((weak, alias("Default_Handler")));
void HardFault_Handler(void) __attribute__((weak, alias("Default_Handler")));
void SVC_Handler(void) __attribute__((weak, alias("Default_Handler")));
void PendSV_Handler(void) __attribute__((weak, alias("Default_Handler")));
void SysTick_Handler(void) __attribute__((weak, alias("Default_Handler")));

__attribute__((section(".isr_vector"), used)) static void (*const vectors[16])(void) = {
    (void (*)(void))_estack, Reset_Handler, NMI_Handler, HardFault_Handler,
    0, 0, 0, 0, 0, 0, 0, SVC_Handler, 0, 0, PendSV_Handler, SysTick_Handler,
};

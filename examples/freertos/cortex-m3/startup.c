/*
 * startup.c - a minimal CMSIS-style startup for the MPS2 AN385 (Cortex-M3)
 * with the vectors FreeRTOS and this application use: SVC and PendSV (the
 * port's, renamed in FreeRTOSConfig.h), SysTick (mcuprof's sampler, a
 * strong definition from the runtime), IRQ 9 (the tick) and IRQ 10 (the
 * peripheral). Reset_Handler runs before .data exists: never profiled.
 */
#include <stdint.h>

extern uint32_t _sidata[], _sdata[], _edata[], _sbss[], _ebss[], _estack[];
int main(void);
void board_exit(int code) __attribute__((noreturn));

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
    board_exit(main());
}

#define HANDLER(name) void name(void) __attribute__((weak, alias("Default_Handler")))
HANDLER(NMI_Handler);
HANDLER(HardFault_Handler);
HANDLER(SVC_Handler);
HANDLER(PendSV_Handler);
HANDLER(SysTick_Handler);
HANDLER(IRQ9_Handler);
HANDLER(IRQ10_Handler);

__attribute__((section(".isr_vector"), used)) static void (*const vectors[16 + 11])(void) = {
    (void (*)(void))_estack, Reset_Handler, NMI_Handler, HardFault_Handler,
    0, 0, 0, 0, 0, 0, 0, SVC_Handler, 0, 0, PendSV_Handler, SysTick_Handler,
    Default_Handler, Default_Handler, Default_Handler, Default_Handler, Default_Handler, /* IRQ 0-4 */
    Default_Handler, Default_Handler, Default_Handler, Default_Handler, IRQ9_Handler, IRQ10_Handler,
};

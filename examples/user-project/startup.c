/*
 * startup.c - a minimal CMSIS-style startup for the MPS2 AN385 (Cortex-M3):
 * weak handlers, .data/.bss set-up, main, then the run ends through
 * semihosting with main's return value. It knows nothing of mcuprof: the
 * runtime's strong SysTick_Handler and HardFault_Handler replace the weak
 * defaults here. Reset_Handler runs before .data is initialised, so it must
 * not call the profiling hook.
 *
 * Each example stands alone, a folder a user can copy out of the kit, so
 * what it shares with the others and with boards/ is written again here on
 * purpose, not included from there.
 */
#include <stdint.h>

extern uint32_t _sidata[], _sdata[], _edata[], _sbss[], _ebss[], _estack[];
int main(void);

__attribute__((no_instrument_function)) void Default_Handler(void)
{
    for (;;) {
    }
}

/* The semihosting exit, written out here on purpose: this is the user's
 * own startup, which stands alone and only target/include is on the
 * application's include path. The kit's trap is the runtime's
 * (target/cortex-m/mcuprof_semihost.h), private to the runtime's build. */
__attribute__((no_instrument_function)) static void semihost_exit(uint32_t code)
{
    uint32_t block[2] = {0x20026u, code}; /* ADP_Stopped_ApplicationExit */
    register uint32_t r0 __asm__("r0") = 0x20u; /* SYS_EXIT_EXTENDED */
    register uint32_t *r1 __asm__("r1") = block;
    __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
}

__attribute__((no_instrument_function, noreturn)) void Reset_Handler(void)
{
    uint32_t *src = _sidata;
    for (uint32_t *dst = _sdata; dst < _edata;)
        *dst++ = *src++;
    for (uint32_t *dst = _sbss; dst < _ebss;)
        *dst++ = 0;
    semihost_exit((uint32_t)main());
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

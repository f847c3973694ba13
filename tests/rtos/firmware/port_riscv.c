/*
 * port_riscv.c - FreeRTOS (port GCC/RISC-V) beside mcuprof on QEMU virt:
 * one machine timer, two users. The port is built without MTIME support
 * (chip_specific_extensions/RISCV_no_extensions: portasmHAS_MTIME 0;
 * configMTIME_BASE_ADDRESS and configMTIMECMP_BASE_ADDRESS 0), so every
 * interrupt reaches freertos_risc_v_application_interrupt_handler(), which
 * gives the machine timer's to mcuprof; mcuprof runs the kernel's tick on
 * its own fixed grid (mcuprof_mtimer_set_tick()) beside the dithered
 * samples. Not profiled.
 */
#include "rtos_glue.h"

#include "board.h"
#include "mcuprof.h"
#include "riscv.h"

void freertos_risc_v_trap_handler(void);
void freertos_risc_v_application_interrupt_handler(uintptr_t mcause, uintptr_t mepc);
void freertos_risc_v_application_exception_handler(uintptr_t mcause, uintptr_t mepc);

/* From mcuprof_mtimer_isr(), inside the port's trap handler: when a switch
 * is due the kernel picks the next task here, and the port's handler
 * restores pxCurrentTCB's context when this returns. */
static void tick(void)
{
    static uint32_t ticks;
    if (rtos_swi_on && ++ticks % RTOS_SWI_TICKS == 0u)
        CLINT_MSIP = 1u; /* taken when this trap returns */
    if (xTaskIncrementTick() != pdFALSE)
        vTaskSwitchContext();
}

/* Called by xPortStartScheduler(), interrupts masked. Until now the
 * runtime's trap entry (mcuprof's default trap_vector) took the sampler's
 * interrupts; the port's handler cannot before the first task exists (it
 * saves the interrupted context into pxCurrentTCB). From here on it takes
 * every trap, ecall yields included. */
void vPortSetupTimerInterrupt(void)
{
    rv_csr_write(mtvec, (uintptr_t)freertos_risc_v_trap_handler);
    if (mcuprof_mtimer_set_tick(BOARD_TIMER_HZ / configTICK_RATE_HZ, tick) != MCUPROF_OK)
        rtos_fail("mcuprof_mtimer_set_tick");
}

/* The port's trap entry saves the interrupted task's registers below its
 * stack pointer (portcontextSAVE_CONTEXT_INTERNAL: portCONTEXT_SIZE, 31
 * words on RV32I/RV64I; FPU and vector state only on cores that have
 * them), writes the result to the TCB's first member, pxTopOfStack, then
 * switches to the ISR stack. */
#if defined(__riscv_32e) || defined(__riscv_flen) || defined(__riscv_vector)
#error "the interrupted sp below assumes the port's 31-word context without FPU or vector state"
#endif
#define PORT_CONTEXT_BYTES (31u * sizeof(uintptr_t))
extern void *volatile pxCurrentTCB;

/* a0 = mcause, a1 = mepc (the interrupted PC), on the ISR stack. The tick
 * runs inside mcuprof_mtimer_isr(): timed for nothing, as on RISC-V its
 * samples wait until the trap returns (interrupts stay masked in it).
 * Call-path builds need the interrupted task's stack pointer, not the ISR
 * stack's; other builds ignore it. */
void freertos_risc_v_application_interrupt_handler(uintptr_t mcause, uintptr_t mepc)
{
    if (mcause == MCAUSE_MTI) {
        uintptr_t top = *(const uintptr_t *)(const void *)pxCurrentTCB; /* pxTopOfStack */
        mcuprof_mtimer_isr_sp(mepc, top + PORT_CONTEXT_BYTES);
        return;
    }
    if (mcause == MCAUSE_MSI && rtos_swi_on) {
        CLINT_MSIP = 0u;
        rtos_swi();
        return;
    }
    rtos_fail("unexpected interrupt");
}

void freertos_risc_v_application_exception_handler(uintptr_t mcause, uintptr_t mepc)
{
    (void)mcause;
    (void)mepc;
    rtos_fail("unexpected exception");
}

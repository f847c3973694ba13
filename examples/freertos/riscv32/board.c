/*
 * board.c - QEMU virt (RV32, machine mode) beside FreeRTOS and mcuprof,
 * built without -pg like the kernel (the port runs every handler on its
 * ISR stack, where profiled code would make the call paths wrong; `mcuprof
 * check` refuses it). One machine timer, two users: mcuprof owns mtimecmp
 * and runs the kernel's tick on a grid of its own beside its samples.
 * The peripheral interrupt is the CLINT's software interrupt, raised every
 * INTERRUPT_TICKS ticks: it stands for a device's (a PLIC's external
 * interrupt arrives at the same handler, mcause 11, and is served the
 * same way).
 */
#include "app.h"
#include "mcuprof.h"

#define CLINT_MSIP (*(volatile uint32_t *)(uintptr_t)0x02000000u)
#define MTIME_HZ 10000000u
#define MCAUSE_MSI 0x80000003u
#define MCAUSE_MTI 0x80000007u
#define MIE_MSIE 0x8u
/* The port saves a task's 31 registers below its sp (portCONTEXT_SIZE on
 * RV32I without FPU or vector state) and leaves the result in the TCB's
 * first word, pxTopOfStack. */
#define PORT_CONTEXT_BYTES (31u * sizeof(uintptr_t))

void freertos_risc_v_trap_handler(void);
void freertos_risc_v_application_interrupt_handler(uintptr_t mcause, uintptr_t mepc);
void freertos_risc_v_application_exception_handler(uintptr_t mcause, uintptr_t mepc);
extern void *volatile pxCurrentTCB;

static TaskHandle_t volatile woken;

/* From mcuprof_mtimer_isr_sp() when a tick is due, inside the trap: the
 * port restores pxCurrentTCB's context when the trap returns. */
static void tick(void)
{
    static uint32_t ticks;
    if (woken && ++ticks % INTERRUPT_TICKS == 0u)
        CLINT_MSIP = 1u; /* the "peripheral": taken when this trap returns */
    if (xTaskIncrementTick() != pdFALSE)
        vTaskSwitchContext();
}

/* Called by the port, interrupts masked, just before the first task runs:
 * until now mcuprof's trap_vector took the sampler's interrupts (the
 * port's handler saves into pxCurrentTCB, which needs a running task). */
void vPortSetupTimerInterrupt(void)
{
    __asm__ volatile("csrw mtvec, %0" ::"r"(freertos_risc_v_trap_handler));
    __asm__ volatile("csrs mie, %0" ::"r"(MIE_MSIE));
    if (mcuprof_mtimer_set_tick(MTIME_HZ / configTICK_RATE_HZ, tick) != MCUPROF_OK)
        board_exit(3);
}

/* a0 = mcause, a1 = the interrupted PC, on the port's ISR stack */
void freertos_risc_v_application_interrupt_handler(uintptr_t mcause, uintptr_t mepc)
{
    if (mcause == MCAUSE_MTI) {
        /* the interrupted task's sp: call paths take its live frames there */
        uintptr_t task_sp = *(const uintptr_t *)(const void *)pxCurrentTCB + PORT_CONTEXT_BYTES;
        mcuprof_mtimer_isr_sp(mepc, task_sp); /* a sample when one is due, the tick when it is due */
        return;
    }
    if (mcause == MCAUSE_MSI) {
        BaseType_t higher = pdFALSE;
        CLINT_MSIP = 0u;
        vTaskNotifyGiveFromISR(woken, &higher);
        portYIELD_FROM_ISR(higher);
        return;
    }
    board_exit(4);
}

void freertos_risc_v_application_exception_handler(uintptr_t mcause, uintptr_t mepc)
{
    (void)mcause;
    (void)mepc;
    board_exit(5);
}

void board_interrupt_start(TaskHandle_t task)
{
    woken = task;
}

void board_interrupt_stop(void)
{
    woken = 0;
    CLINT_MSIP = 0u;
}

void board_exit(int code)
{
    static volatile uint32_t block[2];
    block[0] = 0x20026u; /* ADP_Stopped_ApplicationExit */
    block[1] = (uint32_t)code;
    register uintptr_t a0 __asm__("a0") = 0x20u; /* SYS_EXIT_EXTENDED */
    register volatile uint32_t *a1 __asm__("a1") = block;
    /* the semihosting call: these three uncompressed instructions, in one page */
    __asm__ volatile(".option push\n.option norvc\n.balign 16\n"
                     "slli zero, zero, 0x1f\nebreak\nsrai zero, zero, 7\n.option pop"
                     : "+r"(a0)
                     : "r"(a1)
                     : "memory");
    for (;;) {
    }
}

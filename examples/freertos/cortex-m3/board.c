/*
 * board.c - the MPS2 AN385 (Cortex-M3) beside FreeRTOS and mcuprof, built
 * without -pg like the kernel:
 *   SysTick         mcuprof's sampler (its SysTick_Handler), priority 0
 *   CMSDK timer 0   a free-running clock: the sampler's missed periods
 *   CMSDK timer 1   the kernel's tick (IRQ 9), the lowest priority
 *   dual timer 1    the peripheral interrupt (IRQ 10): wakes a task
 */
#include "app.h"

#define REG(a) (*(volatile uint32_t *)(uintptr_t)(a))
#define NVIC_ISER REG(0xE000E100u)
#define NVIC_ICER REG(0xE000E180u)
#define NVIC_ICPR REG(0xE000E280u)
#define NVIC_IPR(n) REG(0xE000E400u + 4u * ((n) / 4u))
#define NVIC_IPR_SHIFT(n) (8u * ((n) % 4u))
#define SCB_SHPR3 REG(0xE000ED20u)
#define SCB_SHPR3_SYSTICK_Msk 0xFF000000u

/* CMSDK APB timers: CTRL (bit 0 enable, bit 3 interrupt), VALUE, RELOAD,
 * INTCLEAR */
#define TIMER0 0x40000000u
#define TIMER1 0x40001000u
#define TICK_IRQ 9u
/* CMSDK dual timer, timer 1: LOAD, VALUE, CONTROL, INTCLR */
#define DUAL 0x40002000u
#define DUAL_IRQ 10u
#define DUAL_CONTROL_ON 0xE2u /* enable, periodic, interrupt, 32-bit */

void xPortSysTickHandler(void);
void IRQ9_Handler(void);
void IRQ10_Handler(void);

static void set_priority(unsigned irq, uint32_t prio)
{
    uint32_t shift = NVIC_IPR_SHIFT(irq);
    NVIC_IPR(irq) = (NVIC_IPR(irq) & ~(0xFFu << shift)) | (prio << shift);
}

uint32_t board_clock(void)
{
    static uint8_t started;
    if (!started) {
        REG(TIMER0 + 0x00u) = 0u;
        REG(TIMER0 + 0x08u) = 0xFFFFFFFFu;
        REG(TIMER0 + 0x04u) = 0xFFFFFFFFu;
        REG(TIMER0 + 0x00u) = 1u;
        started = 1u;
    }
    return ~REG(TIMER0 + 0x04u); /* counts down: its complement counts up */
}

/* Called by the port's xPortStartScheduler(), interrupts masked, right
 * after it gave PendSV and SysTick the lowest priority: SysTick back to
 * the highest (the sampler), the tick on timer 1 at the lowest. */
void vPortSetupTimerInterrupt(void)
{
    SCB_SHPR3 &= ~SCB_SHPR3_SYSTICK_Msk;
    REG(TIMER1 + 0x00u) = 0u;
    REG(TIMER1 + 0x08u) = configCPU_CLOCK_HZ / configTICK_RATE_HZ - 1u;
    REG(TIMER1 + 0x04u) = configCPU_CLOCK_HZ / configTICK_RATE_HZ - 1u;
    REG(TIMER1 + 0x0Cu) = 1u;
    set_priority(TICK_IRQ, configKERNEL_INTERRUPT_PRIORITY);
    NVIC_ICPR = 1u << TICK_IRQ;
    NVIC_ISER = 1u << TICK_IRQ;
    REG(TIMER1 + 0x00u) = 9u; /* enable, interrupt */
}

void IRQ9_Handler(void)
{
    REG(TIMER1 + 0x0Cu) = 1u; /* the interrupt is a level: clear it first */
    xPortSysTickHandler();    /* the port's tick: pends PendSV when a switch is due */
}

static TaskHandle_t woken;

void board_interrupt_start(TaskHandle_t task)
{
    woken = task;
    REG(DUAL + 0x08u) = 0u;
    REG(DUAL + 0x00u) = INTERRUPT_TICKS * (configCPU_CLOCK_HZ / configTICK_RATE_HZ) + 777u;
    REG(DUAL + 0x0Cu) = 1u;
    /* it calls a FromISR function: at or below the syscall priority */
    set_priority(DUAL_IRQ, configMAX_SYSCALL_INTERRUPT_PRIORITY + 0x20u);
    NVIC_ICPR = 1u << DUAL_IRQ;
    NVIC_ISER = 1u << DUAL_IRQ;
    REG(DUAL + 0x08u) = DUAL_CONTROL_ON;
}

void board_interrupt_stop(void)
{
    REG(DUAL + 0x08u) = 0u;
    NVIC_ICER = 1u << DUAL_IRQ;
}

void IRQ10_Handler(void)
{
    BaseType_t higher = pdFALSE;
    REG(DUAL + 0x0Cu) = 1u;
    vTaskNotifyGiveFromISR(woken, &higher);
    portYIELD_FROM_ISR(higher);
}

void board_exit(int code)
{
    uint32_t block[2] = {0x20026u, (uint32_t)code}; /* ADP_Stopped_ApplicationExit */
    register uint32_t r0 __asm__("r0") = 0x20u;      /* SYS_EXIT_EXTENDED */
    register uint32_t *r1 __asm__("r1") = block;
    __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
    for (;;) {
    }
}

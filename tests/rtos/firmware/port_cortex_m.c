/*
 * port_cortex_m.c - FreeRTOS (port GCC/ARM_CM3) beside mcuprof on the MPS2
 * boards: the sampler keeps SysTick, the kernel's tick moves to CMSDK APB
 * timer 1. Timer 0 is the board's free-running clock (board_clock_now(),
 * the sampler's missed-period clock and the truth's), so the tick must not
 * take it. Not profiled.
 *
 * Vectors: SysTick_Handler is mcuprof's default (mcuprof_sample_isr);
 * SVC_Handler is the port's vPortSVCHandler (renamed in FreeRTOSConfig.h);
 * PendSV_Handler is the port's xPortPendSVHandler inside a wrapper that
 * times it for the truth (pendsv_truth.S); IRQ9_Handler, below, is the
 * tick.
 */
#include "rtos_glue.h"

#include "board.h"
#include "cortex_m.h"

/* CMSDK APB timer 1 and its interrupt line on the MPS2 boards (timer 0 is
 * IRQ 8 and the board's clock, the dual timer IRQ 10). */
#define TICK_TIMER_BASE 0x40001000u
#define TICK_TIMER_IRQ 9u
#define TICK_CTRL CM_REG(TICK_TIMER_BASE + 0x00u)
#define TICK_VALUE CM_REG(TICK_TIMER_BASE + 0x04u)
#define TICK_RELOAD CM_REG(TICK_TIMER_BASE + 0x08u)
#define TICK_INTCLEAR CM_REG(TICK_TIMER_BASE + 0x0Cu)
#define TICK_CTRL_EN_Msk (1u << 0)
#define TICK_CTRL_IRQEN_Msk (1u << 3)

/* NVIC priority bytes (word access, as every profile allows), SHPR3 */
#define NVIC_IPR(n) CM_REG(0xE000E400u + 4u * ((n) / 4u))
#define NVIC_IPR_SHIFT(n) (8u * ((n) % 4u))
#define SCB_SHPR3 CM_REG(0xE000ED20u)
#define SCB_SHPR3_SYSTICK_Msk 0xFF000000u

void xPortSysTickHandler(void);

/* The port calls this from xPortStartScheduler(), interrupts masked, right
 * after it set PendSV and SysTick to the lowest priority. SysTick is
 * mcuprof's sampler: back to the highest priority (0), above
 * configMAX_SYSCALL_INTERRUPT_PRIORITY, so the kernel's critical sections
 * (BASEPRI) never hold a sample back and it sees inside PendSV and the
 * tick. The tick itself gets the lowest priority, as the port expects of
 * whatever calls xPortSysTickHandler(). */
void vPortSetupTimerInterrupt(void)
{
    SCB_SHPR3 &= ~SCB_SHPR3_SYSTICK_Msk;
    TICK_CTRL = 0u;
    TICK_RELOAD = BOARD_TIMER_HZ / configTICK_RATE_HZ - 1u;
    TICK_VALUE = BOARD_TIMER_HZ / configTICK_RATE_HZ - 1u;
    TICK_INTCLEAR = 1u;
    NVIC_IPR(TICK_TIMER_IRQ) |= 0xFFu << NVIC_IPR_SHIFT(TICK_TIMER_IRQ);
    NVIC_ICPR(TICK_TIMER_IRQ) = NVIC_BIT(TICK_TIMER_IRQ);
    NVIC_ISER(TICK_TIMER_IRQ) = NVIC_BIT(TICK_TIMER_IRQ);
    TICK_CTRL = TICK_CTRL_EN_Msk | TICK_CTRL_IRQEN_Msk;
}

/* The tick: clear the timer's interrupt (it is a level), then the port's
 * tick, which pends PendSV when a switch is due. Timed for the truth of
 * the context table. */
void IRQ9_Handler(void);
void IRQ9_Handler(void)
{
    uint32_t t0 = BOARD_CLOCK_READ();
    TICK_INTCLEAR = 1u;
    xPortSysTickHandler();
    rtos_tick_isr_time += BOARD_CLOCK_READ() - t0;
}
_Static_assert(TICK_TIMER_IRQ == 9u, "IRQ9_Handler is the tick timer's vector");

/* pendsv_truth.S: around the port's PendSV handler. PendSV does not nest
 * with itself. */
static uint32_t pendsv_t0;

void rtos_pendsv_enter(void)
{
    pendsv_t0 = BOARD_CLOCK_READ();
}

void rtos_pendsv_exit(void)
{
    rtos_pendsv_time += BOARD_CLOCK_READ() - pendsv_t0;
}

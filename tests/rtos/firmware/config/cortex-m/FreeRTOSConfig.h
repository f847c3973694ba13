/*
 * FreeRTOSConfig.h - FreeRTOS on the Cortex-M3 test board (mps2-an385, port
 * GCC/ARM_CM3) with mcuprof: what differs from a plain FreeRTOS build is
 * that the tick leaves SysTick to mcuprof's sampler (port_cortex_m.c) and
 * the trace hooks (rtos_config_common.h).
 */
#ifndef FREERTOS_CONFIG_H
#define FREERTOS_CONFIG_H

#include "board_config.h"

/* The core and its timers run at the board's clock. */
#define configCPU_CLOCK_HZ BOARD_TIMER_HZ

/* Priorities in the NVIC's 8-bit form. The kernel's interrupts (the tick,
 * PendSV) take the lowest; interrupts that call FreeRTOS *FromISR
 * functions must be at or below configMAX_SYSCALL_INTERRUPT_PRIORITY (a
 * numerically greater or equal value). SysTick, the sampler, is 0: above
 * it, so BASEPRI never masks it and it samples inside critical sections. */
#define configKERNEL_INTERRUPT_PRIORITY 0xFF
#define configMAX_SYSCALL_INTERRUPT_PRIORITY 0x20

/* The port's SVC handler is the vector's (startup.c's weak SVC_Handler
 * loses to it). PendSV: a product also writes
 * `#define xPortPendSVHandler PendSV_Handler`; this test wraps the port's
 * handler to time it (pendsv_truth.S), so it checks nothing about
 * direct routing. SysTick stays mcuprof's: never define
 * xPortSysTickHandler as SysTick_Handler. */
#define vPortSVCHandler SVC_Handler
#define xPortPendSVHandler rtos_port_pendsv
#define configCHECK_HANDLER_INSTALLATION 0

#include "rtos_config_common.h"

#endif

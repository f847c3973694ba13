/*
 * FreeRTOSConfig.h - Cortex-M3 (QEMU mps2-an385, port GCC/ARM_CM3) with
 * mcuprof: SysTick is mcuprof's sampler, the kernel's tick runs on CMSDK
 * APB timer 1 (board.c).
 */
#ifndef FREERTOS_CONFIG_H
#define FREERTOS_CONFIG_H

#define configCPU_CLOCK_HZ 25000000u

/* The kernel's interrupts (the tick, PendSV) at the lowest priority; an
 * interrupt that calls a FromISR function at or below
 * configMAX_SYSCALL_INTERRUPT_PRIORITY (a greater or equal number).
 * SysTick, the sampler, stays at 0: above both, so critical sections never
 * hold a sample back; it calls no FreeRTOS function. */
#define configKERNEL_INTERRUPT_PRIORITY 0xFF
#define configMAX_SYSCALL_INTERRUPT_PRIORITY 0x20

/* SVC and PendSV to the port; never xPortSysTickHandler as SysTick_Handler. */
#define vPortSVCHandler SVC_Handler
#define xPortPendSVHandler PendSV_Handler

#include "app_config.h"

#endif

/*
 * FreeRTOSConfig.h - FreeRTOS on the RISC-V test board (riscv32-virt, port
 * GCC/RISC-V) with mcuprof: what differs from a plain FreeRTOS build is
 * that the port does not drive the machine timer (mcuprof's sampler does,
 * and runs the tick, port_riscv.c) and the trace hooks
 * (rtos_config_common.h).
 */
#ifndef FREERTOS_CONFIG_H
#define FREERTOS_CONFIG_H

#include "board_config.h"

/* Only for the port's uxTimerIncrementsForOneTick, unused without MTIME. */
#define configCPU_CLOCK_HZ BOARD_TIMER_HZ

/* No mtime for the port: with these 0 it neither programs mtimecmp nor
 * enables the timer interrupt; the assembler's include path selects
 * chip_specific_extensions/RISCV_no_extensions (portasmHAS_MTIME 0), so
 * the machine timer's interrupt reaches the application's handler. */
#define configMTIME_BASE_ADDRESS 0
#define configMTIMECMP_BASE_ADDRESS 0

/* Interrupts (the sampler, the tick, the switch) run on a stack of their
 * own: mcuprof_mtimer_isr() with the task table's slow path, the tick and
 * vTaskSwitchContext() with its trace hooks. */
#define configISR_STACK_SIZE_WORDS 512

#include "rtos_config_common.h"

#endif

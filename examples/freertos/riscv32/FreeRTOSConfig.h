/*
 * FreeRTOSConfig.h - RV32 (QEMU virt, port GCC/RISC-V, machine mode) with
 * mcuprof: the port is built without the machine timer, which mcuprof's
 * sampler owns; mcuprof runs the kernel's tick (board.c).
 */
#ifndef FREERTOS_CONFIG_H
#define FREERTOS_CONFIG_H

#define configCPU_CLOCK_HZ 10000000u /* only for the port's MTIME code, unused */

/* No mtime for the port (and RISCV_no_extensions on the assembler's
 * include path, CMakeLists.txt): every interrupt reaches
 * freertos_risc_v_application_interrupt_handler (board.c). */
#define configMTIME_BASE_ADDRESS 0
#define configMTIMECMP_BASE_ADDRESS 0

/* Handlers run on this stack of their own: build them without -pg. */
#define configISR_STACK_SIZE_WORDS 512

#include "app_config.h"

#endif

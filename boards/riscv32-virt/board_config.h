/* board_config.h - the constants of board.h for riscv32-virt under QEMU 7.2. */
#ifndef MCUPROF_BOARD_CONFIG_H
#define MCUPROF_BOARD_CONFIG_H

#define BOARD_NAME "riscv32-virt"

/* BOARD_TIMER_HZ, BOARD_CLINT_BASE, BOARD_UART_BASE, BOARD_TEST_BASE */
#include "qemu_virt_config.h"

#endif

/* board_config.h - the constants of board.h for mps2-an500 under QEMU 7.2. */
#ifndef MCUPROF_BOARD_CONFIG_H
#define MCUPROF_BOARD_CONFIG_H

#define BOARD_NAME "mps2-an500"

/* BOARD_SYSTICK_HZ, BOARD_TIMER_HZ, BOARD_SWI_IRQ, BOARD_UART_BASE, BOARD_CLOCK_* */
#include "mps2_config.h"

#endif

/* board_config.h - the constants of board.h for microbit under QEMU 7.2. */
#ifndef MCUPROF_BOARD_CONFIG_H
#define MCUPROF_BOARD_CONFIG_H

#define BOARD_NAME "microbit"

/* SysTick with CLKSOURCE=1 counts the nRF51 HCLK (16 MHz); QEMU connects no reference clock, so CLKSOURCE=0 does not count. */
#define BOARD_SYSTICK_HZ 16000000u

/* Free external interrupt for software use (IRQ25_Handler): SWI5, nRF51 peripheral ID 25: no QEMU device drives it.
 * A plain decimal literal, so that IRQ ## n ## _Handler can be pasted. */
#define BOARD_SWI_IRQ 25

#endif

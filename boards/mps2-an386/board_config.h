/* board_config.h - the constants of board.h for mps2-an386 under QEMU 7.2. */
#ifndef MCUPROF_BOARD_CONFIG_H
#define MCUPROF_BOARD_CONFIG_H

#define BOARD_NAME "mps2-an386"

/* SysTick with CLKSOURCE=1 counts the MPS2 SYSCLK (25 MHz); CLKSOURCE=0 counts a 1 MHz reference clock. */
#define BOARD_SYSTICK_HZ 25000000u

/* Free external interrupt for software use (IRQ31_Handler): no QEMU device is wired to 31 (UARTs use 0-5, 12, 18-21; timers 8-10; SPI 11, 22, 24; Ethernet 13).
 * A plain decimal literal, so that IRQ ## n ## _Handler can be pasted. */
#define BOARD_SWI_IRQ 31

#endif

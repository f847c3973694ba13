/* board_config.h - the constants of board.h for mps2-an505 under QEMU 7.2. */
#ifndef MCUPROF_BOARD_CONFIG_H
#define MCUPROF_BOARD_CONFIG_H

#define BOARD_NAME "mps2-an505"

/* SysTick with CLKSOURCE=1 counts the AN505 SYSCLK (20 MHz); CLKSOURCE=0 counts the 32 kHz S32KCLK. */
#define BOARD_SYSTICK_HZ 20000000u

/* Free external interrupt for software use (IRQ31_Handler): IoTKit internal line 31, reserved: nothing drives it (FPGA devices start at 32).
 * A plain decimal literal, so that IRQ ## n ## _Handler can be pasted. */
#define BOARD_SWI_IRQ 31

#endif

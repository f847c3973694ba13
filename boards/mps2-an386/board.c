/*
 * board.c - MPS2 AN386 (Cortex-M4F) under QEMU: the console is CMSDK APB
 * UART0 at 0x40004000 (the same FPGA peripherals as AN385).
 */
#include <stdint.h>

#include "board.h"
#include "cortex_m.h"

#define NOPROF __attribute__((no_instrument_function))

/* CMSDK APB UART */
#define UART0_BASE 0x40004000u
#define UART_DATA CM_REG(UART0_BASE + 0x00u)
#define UART_STATE CM_REG(UART0_BASE + 0x04u)
#define UART_CTRL CM_REG(UART0_BASE + 0x08u)
#define UART_BAUDDIV CM_REG(UART0_BASE + 0x10u)
#define UART_STATE_TXFULL_Msk (1u << 0)
#define UART_CTRL_TXEN_Msk (1u << 0)
/* 25 MHz / 115200; QEMU ignores the rate but
 * rejects a divisor below 16. */
#define UART_BAUDDIV_115200 217u

NOPROF void board_init(void)
{
    UART_BAUDDIV = UART_BAUDDIV_115200;
    UART_CTRL = UART_CTRL_TXEN_Msk;
}

NOPROF void board_putc(char c)
{
    while ((UART_STATE & UART_STATE_TXFULL_Msk) != 0u) {
    }
    UART_DATA = (uint8_t)c;
}

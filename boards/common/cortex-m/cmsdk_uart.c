/*
 * cmsdk_uart.c - the console of the MPS2 boards: Arm CMSDK APB UART0, at
 * BOARD_UART_BASE from the board's board_config.h. A board directory
 * without its own board.c gets this one.
 */
#include <stdint.h>

#include "board.h"
#include "cortex_m.h"

#define NOPROF __attribute__((no_instrument_function))

#define UART_DATA CM_REG(BOARD_UART_BASE + 0x00u)
#define UART_STATE CM_REG(BOARD_UART_BASE + 0x04u)
#define UART_CTRL CM_REG(BOARD_UART_BASE + 0x08u)
#define UART_BAUDDIV CM_REG(BOARD_UART_BASE + 0x10u)
#define UART_STATE_TXFULL_Msk (1u << 0)
#define UART_CTRL_TXEN_Msk (1u << 0)
/* The UART is clocked like SysTick on these boards. QEMU ignores the rate
 * but rejects a divisor below 16; without TXEN it drops output silently. */
#define UART_BAUDDIV_115200 (BOARD_SYSTICK_HZ / 115200u)

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

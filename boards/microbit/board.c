/*
 * board.c - BBC micro:bit v1 (nRF51822, Cortex-M0) under QEMU: the console
 * is the nRF51 UART at 0x40002000.
 */
#include <stdint.h>

#include "board.h"
#include "cortex_m.h"

#define NOPROF __attribute__((no_instrument_function))

/* nRF51 UART (not UARTE: one byte at a time through TXD) */
#define UART0_BASE 0x40002000u
#define UART_TASKS_STARTTX CM_REG(UART0_BASE + 0x008u)
#define UART_EVENTS_TXDRDY CM_REG(UART0_BASE + 0x11Cu)
#define UART_ENABLE CM_REG(UART0_BASE + 0x500u)
#define UART_TXD CM_REG(UART0_BASE + 0x51Cu)
#define UART_BAUDRATE CM_REG(UART0_BASE + 0x524u)
#define UART_ENABLE_ENABLED 4u
#define UART_BAUDRATE_115200 0x01D7E000u

NOPROF void board_init(void)
{
    UART_BAUDRATE = UART_BAUDRATE_115200;
    UART_ENABLE = UART_ENABLE_ENABLED;
    UART_TASKS_STARTTX = 1u;
}

/* TXDRDY is set once a byte has left TXD; clear it before each byte. */
NOPROF void board_putc(char c)
{
    UART_EVENTS_TXDRDY = 0u;
    UART_TXD = (uint8_t)c;
    while (UART_EVENTS_TXDRDY == 0u) {
    }
}

/*
 * board.c - SiFive FE310 (QEMU sifive_e): the console is SiFive UART0 at
 * BOARD_UART_BASE. The machine has no way to end QEMU but semihosting.
 */
#include <stdint.h>

#include "board.h"
#include "riscv.h"

#define NOPROF __attribute__((no_instrument_function))

#define UART_TXDATA RV_REG32(BOARD_UART_BASE + 0x00u)
#define UART_TXCTRL RV_REG32(BOARD_UART_BASE + 0x08u)
#define UART_DIV RV_REG32(BOARD_UART_BASE + 0x18u)
#define UART_TXDATA_FULL (1u << 31)
#define UART_TXCTRL_TXEN (1u << 0)
/* tlclk / (div + 1) = 115200 with the HiFive1's 16 MHz bus clock; QEMU
 * ignores the rate (and sends without TXEN too). */
#define UART_DIV_115200 138u

NOPROF void board_init(void)
{
    UART_DIV = UART_DIV_115200;
    UART_TXCTRL = UART_TXCTRL_TXEN;
}

NOPROF void board_putc(char c)
{
    while ((UART_TXDATA & UART_TXDATA_FULL) != 0u) {
    }
    UART_TXDATA = (uint8_t)c;
}

/* No exit device: sleep with interrupts off until the run is stopped. */
NOPROF void rv_board_halt(int code)
{
    (void)code;
    rv_csr_clear(mstatus, MSTATUS_MIE);
    for (;;) {
        __asm__ volatile("wfi");
    }
}

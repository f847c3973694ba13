/*
 * board.c - BBC micro:bit v1 (nRF51822, Cortex-M0) under QEMU: the console
 * is the nRF51 UART at 0x40002000, board_clock_now() the nRF51 TIMER0.
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

/* nRF51 TIMER0: 32-bit timer mode at 16 MHz / 2^PRESCALER; the count is
 * read by capturing it into CC[0]. */
#define TIMER0_BASE BOARD_CLOCK_NRF_TIMER_BASE
#define TIMER_TASKS_START CM_REG(TIMER0_BASE + 0x000u)
#define TIMER_TASKS_CLEAR CM_REG(TIMER0_BASE + 0x00Cu)
#define TIMER_TASKS_CAPTURE0 CM_REG(TIMER0_BASE + 0x040u)
#define TIMER_MODE CM_REG(TIMER0_BASE + 0x504u)
#define TIMER_BITMODE CM_REG(TIMER0_BASE + 0x508u)
#define TIMER_PRESCALER CM_REG(TIMER0_BASE + 0x510u)
#define TIMER_CC0 CM_REG(TIMER0_BASE + 0x540u)
#define TIMER_MODE_TIMER 0u
#define TIMER_BITMODE_32BIT 3u

/* Started on first use, not in board_init(): a running timer would keep
 * QEMU's virtual clock busy in firmware that never asks for it. */
static uint8_t clock_started;

/* Prescaler 0: 16 MHz, SysTick's rate (measured equal under -icount). */
NOPROF uint32_t board_clock_now(void)
{
    if (!clock_started) {
        TIMER_MODE = TIMER_MODE_TIMER;
        TIMER_BITMODE = TIMER_BITMODE_32BIT;
        TIMER_PRESCALER = 0u;
        TIMER_TASKS_CLEAR = 1u;
        TIMER_TASKS_START = 1u;
        clock_started = 1u;
    }
    TIMER_TASKS_CAPTURE0 = 1u;
    return TIMER_CC0;
}

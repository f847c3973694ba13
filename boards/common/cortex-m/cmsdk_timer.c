/*
 * cmsdk_timer.c - board_clock_now() of the MPS2 boards: Arm CMSDK APB timer
 * 0 at BOARD_CLOCK_TIMER_BASE from the board's board_config.h. QEMU clocks
 * it from the same system clock as SysTick (measured: equal counts over a
 * spin under -icount on mps2-an385, -an386 and -an505). A board directory
 * without its own board.c gets this one, with cmsdk_uart.c.
 */
#include <stdint.h>

#include "board.h"
#include "cortex_m.h"

#define NOPROF __attribute__((no_instrument_function))

#define TIMER_CTRL CM_REG(BOARD_CLOCK_TIMER_BASE + 0x00u)
#define TIMER_VALUE CM_REG(BOARD_CLOCK_TIMER_BASE + 0x04u)
#define TIMER_RELOAD CM_REG(BOARD_CLOCK_TIMER_BASE + 0x08u)
#define TIMER_CTRL_EN_Msk (1u << 0)

/* Started on first use, not in board_init(): a running timer would keep
 * QEMU's virtual clock busy in firmware that never asks for it. */
static uint8_t clock_started;

/* The timer counts VALUE down and reloads RELOAD after 0: with RELOAD all
 * ones, ~VALUE counts up through every 32-bit value and wraps at 2^32. */
NOPROF uint32_t board_clock_now(void)
{
    if (!clock_started) {
        TIMER_CTRL = 0u;
        TIMER_RELOAD = 0xFFFFFFFFu;
        TIMER_VALUE = 0xFFFFFFFFu;
        TIMER_CTRL = TIMER_CTRL_EN_Msk; /* no interrupt, system clock */
        clock_started = 1u;
    }
    return ~TIMER_VALUE;
}

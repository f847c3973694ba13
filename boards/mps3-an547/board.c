/*
 * board.c - board_clock_now() of mps3-an547: the SSE-300's system counter
 * (the timestamp its timers compare against), control frame at
 * BOARD_CLOCK_COUNTER_BASE. The AN547 has no CMSDK APB timer on the system
 * clock, only the 32 kHz one. The console is cmsdk_uart.c.
 */
#include <stdint.h>

#include "board.h"
#include "cortex_m.h"

#define NOPROF __attribute__((no_instrument_function))

#define CNTCR CM_REG(BOARD_CLOCK_COUNTER_BASE + 0x00u)
#define CNTCR_EN_Msk (1u << 0)

/* Enabled on first use, not in board_init(), as the other boards' clocks. */
static uint8_t clock_started;

/* CNTCV counts the system clock, SysTick's (no scaling: CNTCR.SCEN 0);
 * its low word wraps at 2^32. */
NOPROF uint32_t board_clock_now(void)
{
    if (!clock_started) {
        CNTCR = CNTCR_EN_Msk;
        clock_started = 1u;
    }
    return BOARD_CLOCK_READ();
}

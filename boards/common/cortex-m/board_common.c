/*
 * board_common.c - the part of board.h that is the same on every Cortex-M
 * board: text output on top of board_putc(), the NVIC, and the exit through
 * semihosting. Never profiled (see startup.c).
 */
#include <stdint.h>

#include "board.h"
#include "cortex_m.h"

#define NOPROF __attribute__((no_instrument_function))

NOPROF void board_puts(const char *s)
{
    while (*s != '\0') {
        board_putc(*s++);
    }
}

/* ARMv6-M has no divide instruction; the division by 10 below becomes a
 * call into libgcc, which is never built with -pg. */
NOPROF void board_put_u32(uint32_t v)
{
    char buf[10];
    unsigned n = 0;

    do {
        buf[n++] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v != 0u);
    while (n > 0u) {
        board_putc(buf[--n]);
    }
}

NOPROF void board_pend_irq(unsigned n)
{
    NVIC_ISPR(n) = NVIC_BIT(n);
    __asm__ volatile("dsb\n\tisb" ::: "memory");
}

/* SYS_EXIT_EXTENDED carries the exit code on every profile (QEMU honours it
 * for A32/T32 too); plain SYS_EXIT could only say "success". The call
 * returns only when nobody performed it: the HardFault handler stepped over
 * the BKPT. */
NOPROF void board_exit(int code)
{
    const uint32_t block[2] = {SEMIHOST_ADP_STOPPED_APPLICATION_EXIT,
                               (uint32_t)code};

    (void)cm_semihost(SEMIHOST_SYS_EXIT_EXTENDED, block);
    board_puts("exit ");
    if (code < 0) {
        board_putc('-');
        board_put_u32(0u - (uint32_t)code);
    } else {
        board_put_u32((uint32_t)code);
    }
    board_putc('\n');
    for (;;) {
        __asm__ volatile("wfi");
    }
}

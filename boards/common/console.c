/*
 * console.c - text output on top of the board's board_putc(), the same on
 * every board and architecture. Never profiled: every function is
 * no_instrument_function, and the board sources are built without -pg.
 */
#include <stdint.h>

#include "board.h"

#define NOPROF __attribute__((no_instrument_function))

/* Used by each architecture's board_exit(); not part of board.h. */
NOPROF void board_put_exit(int code);

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

/* "exit <code>\n": what board_exit() prints when no debugger ended the run. */
NOPROF void board_put_exit(int code)
{
    board_puts("exit ");
    if (code < 0) {
        board_putc('-');
        board_put_u32(0u - (uint32_t)code);
    } else {
        board_put_u32((uint32_t)code);
    }
    board_putc('\n');
}

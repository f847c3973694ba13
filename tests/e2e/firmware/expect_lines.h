/*
 * expect_lines.h - the EXPECT lines a test firmware prints for
 * tests/e2e/check_firmware.sh, which gprof_check judges against gprof's
 * call graph.
 */
#ifndef EXPECT_LINES_H
#define EXPECT_LINES_H

#include <stdint.h>

#include "board.h"

/* CALLER called CALLEE exactly COUNT times. */
static inline void expect_arc(const char *caller, const char *callee, uint32_t count)
{
    board_puts("EXPECT arc ");
    board_puts(caller);
    board_putc(' ');
    board_puts(callee);
    board_putc(' ');
    board_put_u32(count);
    board_putc('\n');
}

#endif /* EXPECT_LINES_H */

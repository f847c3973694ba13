/*
 * table_full.c - the arc table fills up (built with ARCS 8): the first 8
 * arcs keep their exact counts and every call of a later arc is counted in
 * lost_arcs_table_full.
 *
 * Arcs in order of first call: main -> run_table, then run_table -> f0..f11.
 * With 8 records, main -> run_table and run_table -> f0..f6 fit; the calls
 * of f7..f11 (80 + 90 + 100 + 110 + 120 = 500) are lost and counted.
 */
#include <stdint.h>

#include "board.h"
#include "mcuprof.h"

volatile uint32_t sink;

#define LEAF(n) __attribute__((noinline)) void f##n(void) { sink += n; }
LEAF(0) LEAF(1) LEAF(2) LEAF(3) LEAF(4) LEAF(5)
LEAF(6) LEAF(7) LEAF(8) LEAF(9) LEAF(10) LEAF(11)

/* f<n> is called (n + 1) * 10 times, each from its own call site. */
#define CALL(n) for (uint32_t i = 0; i < ((n) + 1u) * 10u; i++) f##n()

__attribute__((noinline)) void run_table(void)
{
    CALL(0); CALL(1); CALL(2); CALL(3); CALL(4); CALL(5);
    CALL(6); CALL(7); CALL(8); CALL(9); CALL(10); CALL(11);
}

static void expect_arc(const char *caller, uint32_t n, uint32_t count)
{
    board_puts("EXPECT arc ");
    board_puts(caller);
    board_puts(" f");
    board_put_u32(n);
    board_putc(' ');
    board_put_u32(count);
    board_putc('\n');
}

int main(void)
{
    mcuprof_init();
    mcuprof_start();
    run_table();
    mcuprof_stop();

    board_puts("EXPECT arc main run_table 1\n");
    for (uint32_t n = 0; n < 7u; n++)
        expect_arc("run_table", n, (n + 1u) * 10u);
    board_puts("EXPECT-INFO used 8\n");
    board_puts("EXPECT-INFO lost_arcs_table_full 500\n");
    board_puts("EXPECT-INFO lost_calls_reentrant 0\n");
    return mcuprof_write_semihosting("mcuprof.img") == 0 ? 0 : 1;
}

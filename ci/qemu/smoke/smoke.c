/*
 * smoke.c - checks that a board's support works under QEMU, without mcuprof
 * and without -pg. Run with ci/qemu/run.sh at the default -icount shift 0
 * (one instruction = 1 ns of virtual time), it:
 *   - prints hello on the console UART, checks .data and .bss;
 *   - measures the timer (SysTick, or mtime) against the instruction count
 *     and checks it matches BOARD_TIMER_HZ;
 *   - takes timer interrupts (smoke_cortex-m.c, smoke_riscv.c: on an FPU,
 *     FP work in the handler and extended frames);
 *   - enables and triggers the software interrupt (board_swi_enable,
 *     board_swi_trigger) and sees board_swi_handler() run before the
 *     trigger returns;
 *   - writes smoke.txt through semihosting;
 *   - exits with code 3 through board_exit() when every check passed, 1
 *     otherwise.
 * Without semihosting the call traps (HardFault, or a RISC-V breakpoint
 * exception), the smoke's handler returns -1, so the file write fails and
 * board_exit() prints "exit 3" and ends the run where the machine can.
 */
#include <stdint.h>

#include "board.h"
#include "smoke.h"

/* mcuprof_port_semihost, MCUPROF_SEMIHOST_*: the runtime's trap */
#include "mcuprof_semihost.h"

/* 2 instructions per iteration: 1,000,000 instructions = 1 ms at shift 0. */
#define MEASURE_LOOPS 500000u
#define MEASURE_INSNS (2u * MEASURE_LOOPS)
#define TICK_HZ 1000u
#define TICKS_WANTED 5u

static unsigned failures;
/* startup copied .data (RISC-V: a small one, in .sdata through gp) and
 * zeroed .bss */
static volatile uint32_t data_word = 0x5EED1234u;
static volatile uint32_t data_array[64] = {1u, 2u, 3u};
static volatile uint32_t bss_array[64];
static volatile uint32_t swi_count;

void smoke_check(int ok, const char *what)
{
    board_puts(ok ? "ok   " : "FAIL ");
    board_puts(what);
    board_putc('\n');
    if (!ok) {
        failures++;
    }
}

static void measure_timer(void)
{
    uint32_t counts = smoke_timer_counts(MEASURE_LOOPS);
    uint32_t hz = counts * (1000000000u / MEASURE_INSNS);
    uint32_t lo = BOARD_TIMER_HZ / 100u * 99u;
    uint32_t hi = BOARD_TIMER_HZ / 100u * 101u;

    board_puts("timer: ");
    board_put_u32(counts);
    board_puts(" counts in ");
    board_put_u32(MEASURE_INSNS);
    board_puts(" instructions = ");
    board_put_u32(hz);
    board_puts(" Hz at -icount shift=0, board says ");
    board_put_u32(BOARD_TIMER_HZ);
    board_putc('\n');
    /* a few instructions around the loop: allow 1 % */
    smoke_check(hz >= lo && hz <= hi, "the timer counts at BOARD_TIMER_HZ");
}

void board_swi_handler(void)
{
    swi_count++;
}

static void software_interrupt(void)
{
    smoke_check(!smoke_swi_pending(),
                "software interrupt not pending by itself");
    board_swi_enable();
    board_swi_trigger();
    smoke_check(swi_count == 1u,
                "board_swi_handler ran once before board_swi_trigger returned");
    smoke_swi_more(&swi_count);
}

static uint32_t length(const char *s)
{
    uint32_t n = 0;

    while (s[n] != '\0') {
        n++;
    }
    return n;
}

static void semihosting_file(void)
{
    static const char name[] = "smoke.txt";
    static const char text[] = "mcuprof smoke " BOARD_NAME "\n";
    uintptr_t open_args[3], io_args[3];
    long fd, left = -1, closed = -1;

    /* field by field: an initialised array may become a memcpy call */
    open_args[0] = (uintptr_t)name;
    open_args[1] = MCUPROF_SEMIHOST_OPEN_WB;
    open_args[2] = sizeof(name) - 1u;
    fd = mcuprof_port_semihost(MCUPROF_SEMIHOST_SYS_OPEN, open_args);
    if (fd != -1) {
        io_args[0] = (uintptr_t)fd;
        io_args[1] = (uintptr_t)text;
        io_args[2] = length(text);
        left = mcuprof_port_semihost(MCUPROF_SEMIHOST_SYS_WRITE, io_args);
        closed = mcuprof_port_semihost(MCUPROF_SEMIHOST_SYS_CLOSE, io_args);
    }
    if (smoke_semihost_trapped()) {
        return;
    }
    smoke_check(fd != -1 && left == 0 && closed == 0,
                "semihosting wrote smoke.txt");
}

int main(void)
{
    board_puts("hello from " BOARD_NAME "\n");
    smoke_check(data_word == 0x5EED1234u && data_array[2] == 3u &&
                    data_array[63] == 0u && bss_array[0] == 0u &&
                    bss_array[63] == 0u,
                "startup copied .data and zeroed .bss");
    measure_timer();
    smoke_timer_interrupts(TICK_HZ, TICKS_WANTED);
    software_interrupt();
    semihosting_file();
    if (failures != 0u) {
        board_puts("smoke: FAILED\n");
        board_exit(1);
    }
    board_puts("smoke: passed\n");
    return 3;
}

/*
 * board_common.c - the part of board.h that is the same on every RISC-V
 * board: the software interrupt (CLINT msip), the end of the trap chain,
 * and the exit through semihosting. Never profiled: built without -pg, and
 * every function is no_instrument_function.
 */
#include <stdint.h>

#include "board.h"
#include "riscv.h"

#define NOPROF __attribute__((no_instrument_function))

NOPROF void board_put_exit(int code); /* boards/common/console.c */
NOPROF void mcuprof_trap_chain(uintptr_t mcause, uintptr_t mepc);

NOPROF static void put_hex(uintptr_t v)
{
    int shift;

    board_puts("0x");
    for (shift = __riscv_xlen - 4; shift >= 0; shift -= 4) {
        board_putc("0123456789abcdef"[(v >> shift) & 0xFu]);
    }
}

/* Firmware that triggers the software interrupt defines board_swi_handler;
 * without one, a software interrupt is reported like any unexpected trap. */
NOPROF __attribute__((weak)) void board_swi_handler(void)
{
    board_puts("board_swi_handler: not defined by the firmware\n");
    board_exit(99);
}

NOPROF void board_swi_enable(void)
{
    CLINT_MSIP = 0u;
    rv_csr_set(mie, MIP_MSIP);
    rv_csr_set(mstatus, MSTATUS_MIE);
}

/* Reading msip back makes sure the store has reached the CLINT; then, with
 * interrupts enabled, wait until the handler has cleared it. QEMU takes
 * the interrupt right after the store, so the loop never turns there. */
NOPROF void board_swi_trigger(void)
{
    CLINT_MSIP = 1u;
    (void)CLINT_MSIP;
    while ((rv_csr_read(mstatus) & MSTATUS_MIE) != 0u &&
           (rv_csr_read(mie) & MIP_MSIP) != 0u &&
           (rv_csr_read(mip) & MIP_MSIP) != 0u) {
    }
}

/* mtime counts at BOARD_TIMER_HZ and never stops: its low word is the
 * free-running 32-bit clock. */
NOPROF uint32_t board_clock_now(void)
{
    return CLINT_MTIME_LO;
}

/* Every trap the trap entry does not handle itself ends here. */
NOPROF void mcuprof_trap_chain(uintptr_t mcause, uintptr_t mepc)
{
    if (mcause == MCAUSE_MSI) {
        CLINT_MSIP = 0u;
        board_swi_handler();
        return;
    }
    board_puts("trap: mcause=");
    put_hex(mcause);
    board_puts(" mepc=");
    put_hex(mepc);
    board_putc('\n');
    board_exit(99);
}

/* SYS_EXIT_EXTENDED carries the exit code on RV32 too (on RV64 plain
 * SYS_EXIT would take the same block). The call returns only when nobody
 * performed it: the trap handler stepped over the ebreak. */
NOPROF void board_exit(int code)
{
    const uintptr_t block[2] = {MCUPROF_SEMIHOST_ADP_STOPPED_APPLICATION_EXIT,
                                (uintptr_t)(intptr_t)code};

    (void)mcuprof_port_semihost(MCUPROF_SEMIHOST_SYS_EXIT_EXTENDED, block);
    board_put_exit(code);
    rv_board_halt(code);
}

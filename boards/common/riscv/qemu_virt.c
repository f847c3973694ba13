/*
 * qemu_virt.c - console and halt of QEMU's RISC-V virt machine (RV32 and
 * RV64): the NS16550A UART at BOARD_UART_BASE, and the SiFive test device
 * ("syscon" poweroff) at BOARD_TEST_BASE, through which QEMU exits with a
 * code. A RISC-V board directory without its own board.c gets this one.
 */
#include <stdint.h>

#include "board.h"
#include "riscv.h"

#define NOPROF __attribute__((no_instrument_function))

/* NS16550A, byte registers (reg-shift 0) */
#define UART_REG(off) (*(volatile uint8_t *)(uintptr_t)(BOARD_UART_BASE + (off)))
#define UART_THR UART_REG(0u)
#define UART_IER UART_REG(1u)
#define UART_LCR UART_REG(3u)
#define UART_LSR UART_REG(5u)
#define UART_LCR_8N1 0x03u
#define UART_LSR_THRE (1u << 5)

/* SiFive test device: low 16 bits the command, high 16 the exit code */
#define TEST_FINISHER RV_REG32(BOARD_TEST_BASE)
#define TEST_FINISHER_FAIL 0x3333u /* QEMU exits with the code */
#define TEST_FINISHER_PASS 0x5555u /* QEMU exits with 0 */

NOPROF void board_init(void)
{
    UART_IER = 0u;
    UART_LCR = UART_LCR_8N1;
}

NOPROF void board_putc(char c)
{
    while ((UART_LSR & UART_LSR_THRE) == 0u) {
    }
    UART_THR = (uint8_t)c;
}

/* QEMU ends with the code's low 16 bits (the shell sees the low 8). */
NOPROF void rv_board_halt(int code)
{
    uint32_t status = (uint32_t)code & 0xFFFFu;

    TEST_FINISHER = status == 0u ? TEST_FINISHER_PASS
                                 : (status << 16) | TEST_FINISHER_FAIL;
    rv_csr_clear(mstatus, MSTATUS_MIE);
    for (;;) {
        __asm__ volatile("wfi");
    }
}

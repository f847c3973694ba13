/*
 * qemu_virt_config.h - the constants of board.h shared by the boards on
 * QEMU 7.2's RISC-V virt machine (riscv32-virt, riscv64-virt); each
 * board_config.h adds BOARD_NAME and includes this.
 */
#ifndef MCUPROF_QEMU_VIRT_CONFIG_H
#define MCUPROF_QEMU_VIRT_CONFIG_H

/* mtime counts at 10 MHz (measured: 10000 counts per 10^6 instructions at
 * -icount shift=0). */
#define BOARD_TIMER_HZ 10000000u
/* CLINT: msip at +0, mtimecmp at +0x4000, mtime at +0xBFF8. */
#define BOARD_CLINT_BASE 0x02000000u
/* board_clock_now() without the call: mtime's low word (for code that
 * must not leave the function it times). */
#define BOARD_CLOCK_READ() (*(volatile uint32_t *)(BOARD_CLINT_BASE + 0xBFF8u))
/* Console: NS16550A UART0 (boards/common/riscv/qemu_virt.c). */
#define BOARD_UART_BASE 0x10000000u
/* SiFive test device ("syscon" poweroff): QEMU exits through it. */
#define BOARD_TEST_BASE 0x00100000u

#endif

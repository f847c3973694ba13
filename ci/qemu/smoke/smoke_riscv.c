/*
 * smoke_riscv.c - the RISC-V part of the smoke firmware: mtime, the
 * machine timer interrupt, and a strong trap_vector of its own (the smoke
 * links no mcuprof runtime). Like the runtime's, the trap entry handles the
 * timer and semihosting breakpoints nobody performed (a0 = -1, resume
 * after the ebreak) and hands everything else, the software interrupt
 * included, to the board's mcuprof_trap_chain().
 */
#include <stdint.h>

#include "board.h"
#include "riscv.h"
#include "smoke.h"

#if __riscv_xlen == 64
#define SAVE "sd"
#define LOAD "ld"
#define XLENB "8"
#else
#define SAVE "sw"
#define LOAD "lw"
#define XLENB "4"
#endif

#define FRAME_A0 4 /* ra, t0, t1, t2, a0, ... in the trap frame */

void mcuprof_trap_chain(uintptr_t mcause, uintptr_t mepc);
void smoke_trap(uintptr_t *frame);

static volatile uint32_t timer_count;
static volatile uint32_t timer_period;
static volatile uint32_t breakpoints;
static volatile uintptr_t breakpoint_mepc;

/* The caller-saved registers, 16 of them (a multiple of 16 bytes). */
#define REGS(op)                                                        \
    op " ra, 0*" XLENB "(sp)\n\t" op " t0, 1*" XLENB "(sp)\n\t"         \
    op " t1, 2*" XLENB "(sp)\n\t" op " t2, 3*" XLENB "(sp)\n\t"         \
    op " a0, 4*" XLENB "(sp)\n\t" op " a1, 5*" XLENB "(sp)\n\t"         \
    op " a2, 6*" XLENB "(sp)\n\t" op " a3, 7*" XLENB "(sp)\n\t"         \
    op " a4, 8*" XLENB "(sp)\n\t" op " a5, 9*" XLENB "(sp)\n\t"         \
    op " a6, 10*" XLENB "(sp)\n\t" op " a7, 11*" XLENB "(sp)\n\t"       \
    op " t3, 12*" XLENB "(sp)\n\t" op " t4, 13*" XLENB "(sp)\n\t"       \
    op " t5, 14*" XLENB "(sp)\n\t" op " t6, 15*" XLENB "(sp)\n\t"

__asm__(".section .text.trap_vector, \"ax\", @progbits\n\t"
        ".globl trap_vector\n\t"
        ".type trap_vector, @function\n\t"
        ".balign 4\n"
        "trap_vector:\n\t"
        "addi sp, sp, -16*" XLENB "\n\t"
        REGS(SAVE)
        "mv a0, sp\n\t"
        "call smoke_trap\n\t"
        REGS(LOAD)
        "addi sp, sp, 16*" XLENB "\n\t"
        "mret\n\t"
        ".size trap_vector, . - trap_vector\n\t"
        ".text");

static int is_semihosting_ebreak(uintptr_t pc)
{
    const volatile uint32_t *insn = (const volatile uint32_t *)pc;

    return (pc & 3u) == 0u && insn[0] == MCUPROF_SEMIHOST_INSN_EBREAK &&
           insn[-1] == MCUPROF_SEMIHOST_INSN_SLLI;
}

void smoke_trap(uintptr_t *frame)
{
    uintptr_t mcause = rv_csr_read(mcause);
    uintptr_t mepc = rv_csr_read(mepc);

    if (mcause == MCAUSE_MTI) {
        timer_count++;
        rv_set_mtimecmp(rv_mtime() + timer_period);
    } else if (mcause == MCAUSE_BREAKPOINT && is_semihosting_ebreak(mepc)) {
        breakpoints++;
        breakpoint_mepc = mepc;
        frame[FRAME_A0] = (uintptr_t)-1;
        rv_csr_write(mepc, mepc + 4u);
    } else {
        mcuprof_trap_chain(mcause, mepc);
    }
}

/* Exactly 2 * n instructions (c.addi, c.bnez). */
static void spin(uint32_t n)
{
    uintptr_t r = n;

    __asm__ volatile("1: addi %0, %0, -1\n\tbnez %0, 1b" : "+r"(r));
}

uint32_t smoke_timer_counts(uint32_t loops)
{
    uint64_t before = rv_mtime();

    spin(loops);
    return (uint32_t)(rv_mtime() - before);
}

void smoke_timer_interrupts(uint32_t tick_hz, uint32_t wanted)
{
    uint32_t guard = 0;

    timer_period = BOARD_TIMER_HZ / tick_hz;
    rv_set_mtimecmp(rv_mtime() + timer_period);
    rv_csr_set(mie, MIP_MTIP);
    rv_csr_set(mstatus, MSTATUS_MIE);
    while (timer_count < wanted && guard < 100000000u) {
        guard++;
    }
    rv_csr_clear(mie, MIP_MTIP);
    rv_set_mtimecmp(UINT64_MAX);
    board_puts("mtime: ");
    board_put_u32(timer_count);
    board_puts(" machine timer interrupts\n");
    smoke_check(timer_count >= wanted, "machine timer interrupts arrive");
    smoke_check((rv_csr_read(mip) & MIP_MTIP) == 0u,
                "mtimecmp at its maximum: no timer interrupt pending");
}

int smoke_swi_pending(void)
{
    return (CLINT_MSIP & 1u) != 0u || (rv_csr_read(mip) & MIP_MSIP) != 0u;
}

void smoke_swi_more(volatile uint32_t *count)
{
    (void)count;
    smoke_check(CLINT_MSIP == 0u && (rv_csr_read(mip) & MIP_MSIP) == 0u,
                "mcuprof_trap_chain cleared msip");
}

int smoke_semihost_trapped(void)
{
    uint32_t n = breakpoints;

    if (n == 0u) {
        return 0;
    }
    board_puts("semihosting: none (the ebreak took a breakpoint exception, ");
    board_put_u32(n);
    board_puts(" times, mcause 3, mepc at the ebreak: ");
    board_puts(is_semihosting_ebreak(breakpoint_mepc) ? "yes" : "no");
    board_puts(")\n");
    return 1;
}

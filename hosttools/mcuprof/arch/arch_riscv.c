/*
 * arch_riscv.c - RISC-V (RV32 and RV64, compressed code too) in the table
 * of architectures (arch.h).
 */
#include <stdio.h>

#include <mcuprof/image.h>

#include "arch.h"
#include "check_model.h"

static const char *interrupt_name(uint32_t code)
{
    switch (code) {
    case 1: return "supervisor software interrupt";
    case 3: return "machine software interrupt";
    case 5: return "supervisor timer interrupt";
    case 7: return "machine timer interrupt";
    case 9: return "supervisor external interrupt";
    case 11: return "machine external interrupt";
    default: return NULL;
    }
}

static const char *exception_name(uint32_t code)
{
    static const char *const names[16] = {
        "instruction address misaligned", "instruction access fault", "illegal instruction", "breakpoint",
        "load address misaligned", "load access fault", "store address misaligned", "store access fault",
        "ecall from U-mode", "ecall from S-mode", NULL, "ecall from M-mode",
        "instruction page fault", "load page fault", NULL, "store page fault",
    };

    return code < 16 ? names[code] : NULL;
}

/* NAME, or "WHAT N" for a cause without one. */
static const char *named(char *buf, size_t size, const char *name, const char *what, uint32_t n)
{
    if (name)
        snprintf(buf, size, "%s", name);
    else
        snprintf(buf, size, "%s %u", what, (unsigned)n);
    return buf;
}

/* Trap causes as mcause has them, interrupts and exceptions apart. */
static const char *context_name(uint32_t key, char *buf, size_t size)
{
    uint32_t n = key & MCUPROF_CTX_NUMBER_Msk;

    switch (key & MCUPROF_CTX_KIND_Msk) {
    case MCUPROF_CTX_RV_INTERRUPT:
        return named(buf, size, interrupt_name(n), "interrupt", n);
    case MCUPROF_CTX_RV_EXCEPTION:
        return named(buf, size, exception_name(n), "exception", n);
    default:
        return NULL;
    }
}

/* A trap handler runs with interrupts masked: no priority lets the timer in. */
static void blocker_advice(const struct mp_arch_blocker *b, char *buf, size_t size)
{
    if (b->changed)
        snprintf(buf, size, " was enabled for part of the run (it was disabled during the run): while so, its"
                 " handler ran with interrupts masked unless it set mstatus.MIE again, and its time is %s",
                 b->handler_time);
    else
        snprintf(buf, size, " is enabled: its handler runs with interrupts masked unless it sets mstatus.MIE"
                 " again, and its time is %s",
                 b->handler_time);
}

/* The memory map is the SoC's: nothing is known never to be RAM. */
static const struct mp_arch_span not_ram[] = {{0, 0, NULL}};

/* RISC-V's entry of the table (arch.h); every architecture's has these fields. */
const struct mp_arch mp_arch_riscv = {
    .machine = MCUPROF_MACHINE_RISCV,
    .name = "RISC-V",
    .elf64 = 1,
    .isa_bits = 0,
    .not_code = 0,
    .callsite_rule = "frompc - 2, inside the call instruction; non-code callers as 0",
    .hook = "_mcount",
    .gdb_pc_regnum = 32, /* x0..x31, then pc (GDB's riscv-32bit-cpu.xml) */
    .pc_sample_reg = 0,
    .check_scan = ck_scan_riscv,
    .check_sampler = ck_check_mtvec,
    .vector_table = NULL, /* mtvec, set at run time */
    .not_ram = not_ram,
    .context_name = context_name,
    /* interrupt codes lie below XLEN (64 on RV64) */
    .interrupt_kind = MCUPROF_CTX_RV_INTERRUPT,
    .interrupt_min = 0,
    .interrupt_max = 63,
    .interrupt_what = "a RISC-V interrupt",
    .interrupt_range = "0..63 (0x20000000 | mcause code)",
    .interrupt_number = "mcause",
    .held_off_by = "an exception's trap handler (it runs with interrupts masked and is no interrupt in mie)",
    .blocker_advice = blocker_advice,
};

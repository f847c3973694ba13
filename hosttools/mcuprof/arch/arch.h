/*
 * arch.h - what each architecture means to the host tool, in one table:
 * one entry per ELF machine (arch_arm.c, arch_riscv.c), found by its
 * e_machine (arch.c). Everything above this layer asks the table instead
 * of testing a machine number, so an architecture is added by adding an
 * entry (docs/design.md, "Adding an architecture").
 */
#ifndef MCUPROF_ARCH_H
#define MCUPROF_ARCH_H

#include <stddef.h>
#include <stdint.h>

struct ck; /* check_model.h: a firmware ELF as `mcuprof check` reads it */

/* A blocker (an interrupt the sampler cannot preempt) as the advice about
 * it needs it. */
struct mp_arch_blocker {
    uint32_t number;           /* the source's number (MCUPROF_CTX_NUMBER_Msk) */
    unsigned priority, sampler_priority;
    int changed;               /* seen preemptible for part of the run */
    const char *handler_time;  /* where the handler's time goes */
};

/* Addresses LO up to HI (exclusive), and what lies there. */
struct mp_arch_span {
    uint64_t lo, hi;
    const char *what;
};

struct mp_arch {
    uint16_t machine;          /* ELF e_machine, as the image header carries it */
    const char *name;          /* "ARM": as info, diff and the JSON document name it */
    int elf64;                 /* `check` reads its 64-bit ELFs too */

    /* Addresses. A return address, minus 2, lies inside the call
     * instruction (callsite.h). */
    uint64_t isa_bits;         /* bits of a code address that select an instruction
                                * set, not a byte (the Thumb bit): cleared */
    uint64_t not_code;         /* addresses at or above are not code (0: none) */
    const char *callsite_rule; /* how a call site is written, as `info` says it */

    /* The -pg hook GCC calls in every profiled function. */
    const char *hook;
    /* Sampling the PC from a debug probe (`mcuprof sample`): the program
     * counter's number in the GDB remote protocol's register list, and
     * the core's PC sample register read while it runs (Cortex-M's
     * DWT_PCSR; 0: none). */
    unsigned gdb_pc_regnum;
    uint64_t pc_sample_reg;
    /* `check`: decode function FI's code from LO to HI (its hook call,
     * its branches), and say whether the sampler's interrupt reaches the
     * runtime. */
    int (*check_scan)(struct ck *c, size_t fi, uint64_t lo, uint64_t hi);
    void (*check_sampler)(struct ck *c);
    /* `check`, where the profile image may lie: the vector table the ELF
     * holds (its address, bytes, and the initial stack pointer it gives,
     * 0 when it gives none); NULL when the architecture has none, -1 when
     * it is not found. And the addresses that are never RAM, as ranges
     * ending with an empty one. */
    int (*vector_table)(const struct ck *c, uint64_t *base, uint64_t *size, uint64_t *sp);
    const struct mp_arch_span *not_ram;

    /* Sample contexts (mcuprof/image.h MCUPROF_CTX_*): the name of KEY
     * into BUF, or NULL when KEY's kind is not this architecture's. */
    const char *(*context_name)(uint32_t key, char *buf, size_t size);
    /* The interrupts the runtime records as blockers: their context kind
     * and numbers, how they are described and numbered, and what else
     * holds the sampler off. */
    uint32_t interrupt_kind, interrupt_min, interrupt_max;
    const char *interrupt_what;   /* "an ARM exception" */
    const char *interrupt_range;  /* "1..511 (0x10000000 | number)" */
    const char *interrupt_number; /* "exception": what a blocker's number is called */
    const char *held_off_by;      /* other holders of the sampler */
    /* After the blocker's name: why the sampler cannot preempt it and
     * what to do, into BUF. */
    void (*blocker_advice)(const struct mp_arch_blocker *b, char *buf, size_t size);
};

/* The architecture of ELF machine MACHINE, or NULL for one mcuprof does
 * not know. */
const struct mp_arch *mp_arch_of(uint16_t machine);
/* The architecture whose interrupt SOURCE (a blocker's) is, by its
 * context kind, or NULL. */
const struct mp_arch *mp_arch_of_interrupt(uint32_t source);
/* The table's entry I, or NULL past its end: for walking every one. */
const struct mp_arch *mp_arch_at(size_t i);

/* The architecture's name ("ARM", "RISC-V"), or NULL if unknown. */
const char *mp_machine_name(uint16_t machine);
/* ADDR as a code address of MACHINE: its instruction-set bits cleared. */
uint64_t mp_code_addr(uint16_t machine, uint64_t addr);
/* Non-zero if NAME is the -pg hook of any architecture. */
int mp_arch_is_hook(const char *name);

/* Is SOURCE (a blocker's) an interrupt of MACHINE as its runtime numbers
 * them; any architecture's when MACHINE is unknown? */
int mp_arch_interrupt_ok(uint16_t machine, uint32_t source);
/* What a blocker of MACHINE may be, into BUF ("an ARM exception
 * 1..511 (0x10000000 | number)"; every architecture's for an unknown
 * MACHINE). Returns BUF. */
const char *mp_arch_interrupts(uint16_t machine, char *buf, size_t size);

/* Writes one architecture's part of a list into BUF. */
typedef void mp_arch_item(const struct mp_arch *a, char *buf, size_t size);
/* Every architecture's ITEM in BUF, separated by ", " and, before the
 * last, by LAST (" or ", " nor "): "ARM nor RISC-V". Returns BUF. */
const char *mp_arch_list(char *buf, size_t size, const char *last, mp_arch_item *item);

#endif /* MCUPROF_ARCH_H */

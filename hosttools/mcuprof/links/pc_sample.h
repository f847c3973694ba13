/*
 * pc_sample.h - sampling the program counter of a running core from the
 * host, through the debug link, with no code on the target: what
 * OpenOCD's `profile` does, over any link that offers a way.
 *
 * Two ways, as the core and the link allow:
 *  - pcsr: read the core's PC sample register while it runs (Cortex-M's
 *    DWT_PCSR, over a link with live memory access: OpenOCD's Tcl port),
 *    a batch of reads per exchange. The core is never stopped. A read of
 *    0xFFFFFFFF means no sample (the core is halted or sleeping): counted,
 *    never binned.
 *  - halt: stop the core, read its pc, let it run (any GDB server, QEMU's
 *    gdbstub included, any architecture; or OpenOCD's Tcl port). The core
 *    is stopped for every sample: the cost is measured and stated.
 * auto takes pcsr where the register reads as implemented (not zero),
 * halt otherwise.
 */
#ifndef MCUPROF_PC_SAMPLE_H
#define MCUPROF_PC_SAMPLE_H

#include <stddef.h>
#include <stdint.h>

#include "target_link.h"

enum mp_pc_method { MP_PC_AUTO, MP_PC_PCSR, MP_PC_HALT };

/* What a PC sample register reads when it holds no sample. */
#define MP_PCSR_NONE 0xFFFFFFFFu
/* Most reads of the register in one exchange. */
#define MP_PC_BATCH_MAX 1024u

struct mp_pc_sampler {
    struct mp_link *l;
    enum mp_pc_method method;  /* MP_PC_PCSR or MP_PC_HALT once chosen */
    unsigned pc_reg;           /* the pc's GDB register number */
    uint64_t pcsr;             /* the PC sample register's address */
    unsigned batch;            /* reads of it per exchange */
    const char *why;           /* how the method was chosen, for the summary */
    /* Measured: */
    uint64_t exchanges;        /* round trips */
    uint64_t exchange_us;      /* their time in all */
    uint64_t stopped_us;       /* halt: from each stop's report to its resume */
    uint64_t no_sample;        /* pcsr: reads of MP_PCSR_NONE */
};

/* "auto", "pcsr", "halt" into *M; reports a bad NAME and returns -1. */
int mp_pc_method_parse(const char *name, enum mp_pc_method *m);
const char *mp_pc_method_name(enum mp_pc_method m);

/* Choose how to sample the core of MACHINE (its ELF e_machine), whose
 * registers are REG_BYTES wide, over L:
 * WANT as asked, or auto. A way the link or the core does not have is
 * one error line saying what would work. BATCH reads per exchange for
 * pcsr. */
int mp_pc_sampler_init(struct mp_pc_sampler *s, struct mp_link *l, uint16_t machine, unsigned reg_bytes,
                       enum mp_pc_method want, unsigned batch);

/* One exchange: up to MAX PCs into PCS (*N of them; with pcsr, reads of
 * MP_PCSR_NONE are counted in no_sample and left out). The core must
 * run (the sampler lets it run first if the link stopped it). */
int mp_pc_sample(struct mp_pc_sampler *s, uint64_t *pcs, unsigned max, unsigned *n);

#endif /* MCUPROF_PC_SAMPLE_H */

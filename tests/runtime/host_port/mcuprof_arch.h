/*
 * mcuprof_arch.h - a port of the runtime to the host, for unit tests of the
 * portable code. Interrupt masking does nothing; the barrier is where a
 * test can make an "interrupt" arrive in the middle of a table update,
 * since the slow path calls it between writing a new record and linking it.
 */
#ifndef MCUPROF_ARCH_H
#define MCUPROF_ARCH_H

#include "mcuprof/image.h"

#if !defined(__ASSEMBLER__)
#include <stdint.h>

#define MCUPROF_ARCH_MACHINE 62u /* EM_X86_64: only a placeholder */
#define MCUPROF_PORT_HASH_SHIFT 1 /* as on Cortex-M and compressed RISC-V */

typedef uint32_t mcuprof_irq_state_t;

/* Set by a test; run (once) at the next barrier, like an NMI would. */
extern void (*test_interrupt)(void);
extern unsigned test_irq_depth; /* irq_save calls not yet restored */

static inline mcuprof_irq_state_t mcuprof_port_irq_save(void)
{
    return test_irq_depth++;
}

static inline void mcuprof_port_irq_restore(mcuprof_irq_state_t s)
{
    test_irq_depth = s;
}

static inline void mcuprof_port_barrier(void)
{
    void (*f)(void) = test_interrupt;
    test_interrupt = 0;
    if (f)
        f();
}

static inline void mcuprof_port_count_inc(volatile uint32_t *count)
{
    if (*count != UINT32_MAX)
        (*count)++;
}

static inline intptr_t mcuprof_port_semihost(uintptr_t op, const uintptr_t *args)
{
    (void)op;
    (void)args;
    return -1;
}
#endif

#endif

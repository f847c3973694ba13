/*
 * mcuprof_port.h - the porting contract: what each architecture supplies
 * to the portable runtime (one line per item). An architecture's folder
 * provides mcuprof_arch.h (inline functions and constants below) and the
 * hook and sampler entry points in its own files. The portable code
 * (common/) never tests an architecture: whatever differs between them,
 * down to the decoding of an instruction, is an item here.
 *
 * From mcuprof_arch.h:
 *   MCUPROF_ARCH_MACHINE          ELF e_machine of the target (image header)
 *   MCUPROF_PORT_HASH_SHIFT       low frompc bits that never differ between call sites
 *   MCUPROF_PORT_WIDE_MUL         1 if the core multiplies 32 x 32 into 64 bits in one
 *                                 instruction (the sampler's jitter, sample_timing.h)
 *   mcuprof_irq_state_t           saved interrupt state
 *   mcuprof_port_irq_save()       mask interrupts, return the previous state
 *   mcuprof_port_irq_restore(s)   restore the state saved by irq_save
 *   mcuprof_port_barrier()        order memory writes as a debugger sees them
 *   mcuprof_port_count_inc(p)     add 1 to an arc count, saturating, atomically with
 *                                 respect to the hook's fast path in an interrupt
 *   mcuprof_port_waited_before(pc)   the instruction before pc waits for an
 *                                 interrupt (WFI); MCUPROF_PORT_WAIT_INSN_BYTES read
 *   mcuprof_port_unmask_at(end)   an instruction that unmasks interrupts ends at end
 *                                 (a halfword pointer); reads the two halfwords before it
 *   MCUPROF_PORT_SPILL_CALL(bin, pc) optional: how the sampler calls the spill
 *                                 table's slow path (common/sample_body.h)
 *   MCUPROF_PORT_FRAMELESS        call paths: 1 if a profiled function can keep no frame
 *                                 (its sp after the prologue is its caller's)
 *   MCUPROF_PORT_STACKS           call paths: stack pointers the code can run on (1 or 2)
 *   mcuprof_port_stack_id()       call paths: which one the running code uses
 *   MCUPROF_PORT_RETURN_BIT0      call paths: bit 0 of a return address (not part of
 *                                 the code address where it is 1)
 *   mcuprof_port_called_before(pc)   call paths: the instruction that ends at pc is a
 *                                 call; MCUPROF_PORT_CALL_INSN_BYTES read
 *
 * From mcuprof_semihost.h (included by mcuprof_arch.h, and by board code):
 *   mcuprof_port_semihost(op,arg) one semihosting call; -1 when no debugger answers
 *                                 (the operations: common/mcuprof_semihost_ops.h)
 *
 * From the architecture's other files:
 *   the hook itself (__gnu_mcount_nc, _mcount): jumps through
 *     mcuprof_hook_dispatch to its entry points mcuprof_hook_off, _record and
 *     _slow, and mcuprof_hook_span {begin, end} of all its code (see
 *     common/hook_mode.c); calls mcuprof_record_arc() for everything but a
 *     hit at the head of a chain
 *   the sampler timer (common/sample_timing.h computes, the port programs):
 *     mcuprof_sampler_start()     mcuprof_timing_start() with its timer's limits,
 *                                 then mcuprof_timing_set_source(), then the timer on
 *     mcuprof_sampler_stop()      the timer off, then mcuprof_timing_stop()
 *     each tick, in its interrupt next period from mcuprof_timing_next_period()
 *                                 (period timers) or slot + mcuprof_timing_offset()
 *                                 (absolute compare); lateness to mcuprof_timing_late()
 *                                 where a clock can tell; then the sample:
 *                                 mcuprof_sample_pc(), or inline, without a call,
 *                                 mcuprof_freeze_poll() when mcuprof_freeze_pending()
 *                                 and mcuprof_sample_body() (common/sample_body.h)
 *   call paths (MCUPROF_CFG_PATHS > 0, common/paths.h): the hook's entry
 *     mcuprof_hook_paths, which calls mcuprof_path_enter() (the shadow
 *     stack and the arc) and leaves no frompc in the word under the
 *     function's sp; the sampler passes the interrupted sp to
 *     mcuprof_path_sample()
 */
#ifndef MCUPROF_PORT_H
#define MCUPROF_PORT_H

#include <stdint.h>
#include "mcuprof_arch.h"

/* The runtime must never call the hook itself: it is built without -pg,
 * and this keeps it so even where a build adds -pg to everything. */
#define MCUPROF_NOINSTR __attribute__((no_instrument_function))

/* What the call hook does. SLOW sends every call to mcuprof_record_arc(),
 * which counts it as lost while a host snapshot is in progress: the fast
 * path must not touch the tables then. */
enum mcuprof_hook_mode { MCUPROF_HOOK_OFF, MCUPROF_HOOK_RECORD, MCUPROF_HOOK_SLOW };
void mcuprof_hook_set_mode(enum mcuprof_hook_mode mode);
int mcuprof_pc_in_hook(uintptr_t pc); /* 1 if pc lies in the hook's own code */

/* Set the hook's mode from the header's state bits (common/control.c). */
void mcuprof_apply_hook_mode(void);

/* Serve a host's freeze request; called on every sampler tick with the
 * interrupted PC (common/freeze.c). */
void mcuprof_freeze_poll(uintptr_t pc);

/* Slow path of the hook: find or insert the arc (frompc, selfpc) and count
 * one call. Called by the architecture's hook with interrupts enabled. */
void mcuprof_record_arc(uintptr_t frompc, uintptr_t selfpc);

/* Add one to a loss counter without ever wrapping. */
static inline void mcuprof_count_saturating(volatile uint32_t *counter)
{
    uint32_t v = *counter + 1u; /* 0: it was at the maximum, and stays */
    if (v != 0u)
        *counter = v;
}

/* Add n to a loss counter without ever wrapping. */
static inline void mcuprof_count_add_saturating(volatile uint32_t *counter, uint64_t n)
{
    uint64_t v = (uint64_t)*counter + n;
    *counter = v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

#endif /* MCUPROF_PORT_H */

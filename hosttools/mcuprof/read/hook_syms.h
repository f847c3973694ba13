/*
 * hook_syms.h - where the firmware keeps its call hook's mode, from its
 * ELF: the pointer mcuprof_hook_dispatch and the three entry points it
 * may hold (target/common/hook_mode.c). The runtime switches that pointer
 * only when its own code changes the state bits, or at the sampler tick
 * that serves a freeze or its release (mcuprof_apply_hook_mode); a host
 * that changes the state bits of a halted core, with no freeze to end,
 * must switch the pointer itself.
 */
#ifndef MCUPROF_HOOK_SYMS_H
#define MCUPROF_HOOK_SYMS_H

#include <stdint.h>

enum mp_hook_mode { MP_HOOK_OFF, MP_HOOK_RECORD, MP_HOOK_SLOW, MP_HOOK_NMODES };

struct mp_hook_syms {
    uint64_t dispatch;              /* &mcuprof_hook_dispatch */
    uint64_t entry[MP_HOOK_NMODES]; /* mcuprof_hook_off, _record, _slow */
};

/* Read the four symbols from the ELF at PATH. Reports (naming PATH and the
 * missing symbol) and returns -1. */
int mp_hook_syms_read(struct mp_hook_syms *h, const char *path);

/* The mode the runtime derives from STATE (mcuprof_apply_hook_mode): off
 * without ARCS, the slow path while FROZEN, the fast path otherwise. */
enum mp_hook_mode mp_hook_mode_of(uint32_t state);

/* The mode whose entry point VALUE (read from mcuprof_hook_dispatch) is,
 * or -1. Bit 0 is ignored: on ARM it is the Thumb bit, which a function
 * pointer has and a symbol's address may not. */
int mp_hook_mode_at(const struct mp_hook_syms *h, uint64_t value);

/* The pointer value of MODE's entry point, with bit 0 as in CURRENT (a
 * value the runtime itself stored), so the core jumps in the same
 * instruction set. */
uint64_t mp_hook_entry_value(const struct mp_hook_syms *h, enum mp_hook_mode mode, uint64_t current);

#endif /* MCUPROF_HOOK_SYMS_H */

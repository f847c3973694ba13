/*
 * freeze.c - consistent snapshots while the core runs.
 *
 * A host (debugger) that wants to read the image without halting the core
 * writes a non-zero token to freeze_request and waits until freeze_ack
 * holds the same token. From then until it writes 0 to freeze_request (and
 * freeze_ack returns to 0), the hook and the sampler leave the tables alone
 * and count what they skip (lost_calls_frozen, lost_samples_frozen). While
 * frozen, the host may also zero the tables (drain).
 *
 * The request is served from the sampler's tick, so the hot path pays
 * nothing: the tick switches the hook to its slow path, which sees the
 * FROZEN state under masked interrupts, and acknowledges only at a tick
 * that did not interrupt the hook itself, so no fast-path update that
 * began before the freeze can land after the acknowledgement. (A hook
 * interrupted by a handler that the tick in turn interrupted is not seen;
 * such a call can still add one count during the read.) Without a running
 * sampler timer nothing acknowledges: the host must halt the core instead.
 */
#include "mcuprof_layout.h"
#include "mcuprof_port.h"

MCUPROF_NOINSTR void mcuprof_freeze_poll(uintptr_t pc)
{
    struct mcuprof_header *h = &mcuprof_region.header;
    uint32_t request = h->freeze_request;
    if (request == h->freeze_ack)
        return;
    if (request != 0u) {
        if (!(h->state & MCUPROF_STATE_FROZEN_Msk)) {
            h->state |= MCUPROF_STATE_FROZEN_Msk;
            mcuprof_apply_hook_mode();
        }
        if (mcuprof_pc_in_hook(pc))
            return; /* a call is in flight: acknowledge at a later tick */
    } else {
        h->state &= ~MCUPROF_STATE_FROZEN_Msk;
        mcuprof_apply_hook_mode();
    }
    mcuprof_port_barrier();
    h->freeze_ack = request;
    mcuprof_port_barrier();
}

/*
 * no_calls_warn.c - `convert` and `report` on an image with samples but
 * not one call: say why, and the fix (no_calls_warn.h).
 *
 * The typical cause is link-time optimisation: with -flto GCC makes the
 * code at link and takes -pg for it from the link command alone, so -pg
 * given only at compile time reaches no function. The firmware runs and
 * samples, and gprof would print a flat profile with no call counts and
 * no call graph, without a word. With the ELF, its code tells that case
 * (no function calls the hook) from profiling that was off while the
 * profiled functions ran.
 */
#include "no_calls_warn.h"

#include <inttypes.h>

#include "diag.h"
#include "elf_scan.h"

void mp_warn_no_calls(const struct mp_model *m)
{
    struct mp_time_seen seen;
    struct ck c;

    /* an image's runtime built without an arc table records no call */
    if (m->narcs || !m->nranges || (m->has_header && m->header.arcs_capacity == 0))
        return;
    mp_model_time_seen(m, &seen);
    if (!seen.taken)
        return;
    if (!m->elf_path) {
        mp_warn(m->name, "%" PRIu64 " samples but no call was recorded: no call counts, no call graph;"
                " if the firmware was built with -flto, -pg (with the -O and -flto) must be on the link"
                " command too (mcuprof_instrument() puts it there); --elf and 'mcuprof check ELF' tell more",
                seen.taken);
        return;
    }
    mp_diag_quiet(1);
    if (mp_elf_scan(&c, m->elf_path) < 0) {
        mp_diag_quiet(0);
        mp_elf_scan_done(&c);
        return;
    }
    mp_diag_quiet(0);
    if (!c.profiled)
        mp_warn(m->name, "%" PRIu64 " samples but no call was recorded: no function of %s calls %s, so"
                " nothing was built with -pg; with -flto GCC makes the code at link and takes -pg from"
                " the link command only: link with -pg (and the -O and -flto) too, as"
                " mcuprof_instrument() does (docs/instrumenting.md, Link-time optimisation)",
                seen.taken, m->elf_path, c.hook_name);
    else
        mp_warn(m->name, "%" PRIu64 " samples but no call was recorded, though %u functions of %s call"
                " %s: profiling was stopped (mcuprof_start) while they ran, or none of them ran",
                seen.taken, c.profiled, m->elf_path, c.hook_name);
    mp_elf_scan_done(&c);
}

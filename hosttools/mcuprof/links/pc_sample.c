/*
 * pc_sample.c - sampling the PC from the host (pc_sample.h).
 */
#include "pc_sample.h"

#include <inttypes.h>
#include <string.h>

#include "arch.h"
#include "diag.h"
#include "net.h"

static const char *const names[] = {"auto", "pcsr", "halt"};

int mp_pc_method_parse(const char *name, enum mp_pc_method *m)
{
    unsigned i;

    for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (strcmp(name, names[i]) == 0) {
            *m = (enum mp_pc_method)i;
            return 0;
        }
    return mp_error(NULL, "sample: --method '%s' is none of auto, pcsr, halt", name);
}

const char *mp_pc_method_name(enum mp_pc_method m)
{
    return names[m];
}

/* Whether the PC sample register is there: a few reads, one of them not
 * zero (0xFFFFFFFF too: implemented, the core halted or asleep). Quiet:
 * a link that cannot read it is an answer too. */
static int pcsr_implemented(struct mp_pc_sampler *s)
{
    uint32_t w[4];
    unsigned i;
    int r;

    mp_diag_quiet(1);
    r = s->l->ops->sample_word(s->l, s->pcsr, w, 4);
    mp_diag_quiet(0);
    for (i = 0; r == 0 && i < 4; i++)
        if (w[i] != 0)
            return 1;
    return 0;
}

int mp_pc_sampler_init(struct mp_pc_sampler *s, struct mp_link *l, uint16_t machine, unsigned reg_bytes,
                       enum mp_pc_method want, unsigned batch)
{
    const struct mp_arch *a = mp_arch_of(machine);
    int can_pcsr = a && a->pc_sample_reg && l->live_access && l->ops->sample_word;
    int can_halt = a && l->ops->sample_halt;

    memset(s, 0, sizeof(*s));
    s->l = l;
    s->batch = batch;
    l->reg_bytes = reg_bytes;
    if (!a)
        return mp_error(l->name, "machine %u: no PC sampling for an architecture mcuprof does not know", machine);
    s->pc_reg = a->gdb_pc_regnum;
    s->pcsr = a->pc_sample_reg;
    if (want == MP_PC_PCSR) {
        if (!a->pc_sample_reg)
            return mp_error(l->name, "--method pcsr: %s cores have no PC sample register (use --method halt)", a->name);
        if (!can_pcsr)
            return mp_error(l->name, "--method pcsr: this link cannot read memory while the core runs (OpenOCD's "
                                     "Tcl port can: --openocd; or use --method halt)");
        if (!pcsr_implemented(s))
            return mp_error(l->name, "--method pcsr: DWT_PCSR (0x%08" PRIx64 ") reads as 0: this core has none "
                                     "(use --method halt)", s->pcsr);
        s->method = MP_PC_PCSR;
        s->why = "asked for";
        return 0;
    }
    if (want == MP_PC_AUTO && can_pcsr && pcsr_implemented(s)) {
        s->method = MP_PC_PCSR;
        s->why = "DWT_PCSR is implemented";
        return 0;
    }
    if (!can_halt)
        return mp_error(l->name, "this link can neither read a PC sample register while the core runs nor halt it");
    s->method = MP_PC_HALT;
    s->why = want == MP_PC_HALT ? "asked for"
             : !a->pc_sample_reg ? "the core has no PC sample register"
             : !can_pcsr         ? "the link cannot read DWT_PCSR while the core runs"
                                 : "DWT_PCSR reads as 0: not implemented";
    return 0;
}

int mp_pc_sample(struct mp_pc_sampler *s, uint64_t *pcs, unsigned max, unsigned *n)
{
    struct mp_link *l = s->l;
    uint64_t t0;

    *n = 0;
    if (!l->running && l->ops->resume(l) < 0)
        return -1;
    t0 = mp_now_us();
    if (s->method == MP_PC_HALT) {
        uint64_t stopped;

        if (max == 0 || l->ops->sample_halt(l, s->pc_reg, &pcs[0], &stopped) < 0)
            return -1;
        s->stopped_us += stopped;
        *n = 1;
    } else {
        uint32_t w[MP_PC_BATCH_MAX];
        unsigned i, want = s->batch < max ? s->batch : max;

        if (want > MP_PC_BATCH_MAX)
            want = MP_PC_BATCH_MAX;
        if (l->ops->sample_word(l, s->pcsr, w, want) < 0)
            return -1;
        for (i = 0; i < want; i++) {
            if (w[i] == MP_PCSR_NONE)
                s->no_sample++;
            else
                pcs[(*n)++] = w[i];
        }
    }
    s->exchange_us += mp_now_us() - t0;
    s->exchanges++;
    return 0;
}

/*
 * model_elf.c - name a model's functions from the firmware's ELF
 * (model.h): gprof's symbol rules (elf_funcs.h), self samples charged
 * exactly as gprof charges them (gprof_attrib.h), calls per callee, and
 * each arc's caller and callee function.
 */
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "elf_funcs.h"
#include "gprof_attrib.h"
#include "image_read.h"
#include "model.h"

static void model_range(const void *ctx, unsigned r, uint64_t *low, uint64_t *high, uint64_t *nbins)
{
    const struct mp_model *m = ctx;

    *low = m->ranges[r].low;
    *high = m->ranges[r].high;
    *nbins = m->ranges[r].nbins;
}

static uint64_t model_bin(const void *ctx, unsigned r, uint64_t i)
{
    const struct mp_model *m = ctx;

    return m->ranges[r].bins[i];
}

/* 1 when T is for the model's machine and address width, else 0 and,
 * unless OTHER_OK, an error (-1). An image states both, 0 included; a
 * gmon.out (or a model made by hand) names neither: its machine is 0
 * until the ELF gives it. */
static int same_machine(const struct mp_model *m, const struct mp_functab *t, int other_ok)
{
    const char *em = mp_machine_name(t->machine), *im = mp_machine_name(m->machine);
    int image = m->source == MP_MODEL_IMAGE && m->image_version;

    if ((image || m->machine) && t->machine != m->machine)
        return other_ok ? 0
                        : mp_error(t->path,
                                   "ELF machine %u (%s) differs from %s's machine %u (%s): not this firmware's ELF",
                                   (unsigned)t->machine, em ? em : "unknown", image ? "the image" : m->name,
                                   (unsigned)m->machine, im ? im : "unknown");
    if ((image || m->ptr_size) && t->ptr_size != m->ptr_size) {
        if (other_ok)
            return 0;
        if (image)
            return mp_error(t->path,
                            "%u-byte ELF addresses differ from the image's ptr_size %u: not this firmware's ELF",
                            t->ptr_size, m->ptr_size);
        return mp_error(t->path, "%u-byte ELF addresses differ from %s's %u-byte addresses: not this firmware's ELF",
                        t->ptr_size, m->name, m->ptr_size);
    }
    return 1;
}

static int copy_funcs(struct mp_model *m, const struct mp_functab *t, const struct mp_attrib *a)
{
    size_t i;

    if (!(m->funcs = mp_model_alloc(m, (t->n ? t->n : 1) * sizeof(*m->funcs))))
        return -1;
    for (i = 0; i < t->n; i++) {
        struct mp_model_func *f = &m->funcs[i];

        if (mp_model_name_func(m, f, t->f[i].name) < 0)
            return -1;
        f->addr = t->f[i].addr;
        f->end = t->f[i].end;
        f->size = t->f[i].size;
        f->hidden = t->f[i].hidden;
        f->is_static = t->f[i].is_static;
        f->self = a->credit[i];
        f->shared = a->shared[i];
    }
    m->nfuncs = t->n;
    m->outside = a->outside;
    m->hidden = a->hidden;
    m->gprof_total = a->gprof_total;
    m->shared_samples = a->shared_samples;
    m->shared_bins = a->shared_bins;
    m->finer_shift = a->finer_shift;
    m->finer_ram = a->finer_ram;
    if (!(m->pairs = mp_model_alloc(m, (a->npairs ? a->npairs : 1) * sizeof(*m->pairs))))
        return -1;
    memcpy(m->pairs, a->pairs, a->npairs * sizeof(*m->pairs));
    m->npairs = a->npairs;
    return 0;
}

/* Name M's functions from T, of M's machine. */
static int name_functions(struct mp_model *m, const struct mp_functab *t)
{
    struct mp_attrib_source src = {m, (unsigned)m->nranges, m->bin_shift,
                                   m->counter_bytes ? m->counter_bytes : 4, model_range, model_bin};
    struct mp_attrib a;
    size_t i;
    int ret = -1;

    if (mp_attrib_compute_from(&a, &src, t) < 0)
        return -1;
    if (!(m->elf_path = mp_model_strdup(m, t->path)) || copy_funcs(m, t, &a) < 0)
        goto out;
    if (!m->machine) {
        m->machine = t->machine;
        m->ptr_size = t->ptr_size;
    }
    for (i = 0; i < m->narcs; i++) {
        struct mp_model_arc *arc = &m->arcs[i];

        arc->caller = arc->callsite ? mp_model_find_func(m, arc->callsite) : -1;
        arc->callee_fn = mp_model_find_func(m, arc->callee);
        if (arc->callee_fn >= 0)
            m->funcs[arc->callee_fn].calls += arc->count;
    }
    if (mp_model_find_groups(m) < 0 || (mp_model_clone_view_grouped() && mp_model_group_clones(m) < 0))
        goto out;
    ret = 0;
out:
    mp_attrib_free(&a);
    return ret;
}

/* 1: named; 0: the ELF is another machine's and OTHER_OK; -1: failed
 * (reported). */
static int attach(struct mp_model *m, const char *elf_path, int other_ok)
{
    struct mp_functab t;
    int ret;

    if (mp_functab_read(&t, elf_path) < 0)
        return -1;
    ret = same_machine(m, &t, other_ok);
    if (ret > 0 && name_functions(m, &t) < 0)
        ret = -1;
    mp_functab_free(&t);
    return ret;
}

int mp_model_attach_elf(struct mp_model *m, const char *elf_path)
{
    return attach(m, elf_path, 0) < 0 ? -1 : 0;
}

int mp_model_attach_elf_if_same(struct mp_model *m, const char *elf_path)
{
    return attach(m, elf_path, 1);
}

int mp_model_attach_functab(struct mp_model *m, const struct mp_functab *t)
{
    return same_machine(m, t, 0) < 0 ? -1 : name_functions(m, t);
}

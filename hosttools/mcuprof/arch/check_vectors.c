/*
 * check_vectors.c - `mcuprof check` on Cortex-M: does the sampling
 * timer's vector reach the runtime's sampler (check_model.h)?
 */
#include "check_model.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static const struct ck_sym *func_or_label_at(const struct ck *c, uint64_t addr)
{
    const struct ck_sym *f = ck_func_at(c, addr);

    if (f)
        return f;
    for (size_t i = 0; i < c->nsyms; i++) {
        if (c->syms[i].addr == addr && !c->syms[i].abs)
            return &c->syms[i];
    }
    return NULL;
}

/* Where the vector table lies: by the names startup code gives it, its
 * section, else the lowest loaded section (a Cortex-M boots from the
 * table at its start). Its size: __Vectors_End, the symbol's or the
 * section's size, else the 16 system entries. Word 0 is the initial SP. */
int ck_thumb_vector_table(const struct ck *c, uint64_t *base, uint64_t *size, uint64_t *sp)
{
    static const char *const tables[] = {"__isr_vector", "__Vectors", "g_pfnVectors",
                                         "__vectors", "vector_table", "_vectors"};
    const struct ck_sym *sym, *end;
    const struct ck_sec *vsec = NULL;
    uint32_t word;

    *base = 0;
    *size = 0;
    for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]) && !*base; i++) {
        if ((sym = ck_sym_named(c, tables[i])) != NULL && !sym->abs) {
            *base = sym->addr;
            *size = sym->size;
        }
    }
    for (size_t i = 0; i < c->nsecs && !*base; i++) {
        if (c->secs[i].name && (strcmp(c->secs[i].name, ".vectors") == 0 ||
                                strcmp(c->secs[i].name, ".isr_vector") == 0)) {
            *base = c->secs[i].addr;
            *size = c->secs[i].size;
        }
    }
    for (size_t i = 0; i < c->nsecs && !*base; i++) { /* the lowest loaded section */
        if (!vsec || c->secs[i].addr < vsec->addr)
            vsec = &c->secs[i];
    }
    if (!*base && vsec)
        *base = vsec->addr;
    if ((end = ck_sym_named(c, "__Vectors_End")) != NULL && end->addr > *base)
        *size = end->addr - *base;
    if (!*size)
        *size = 16 * 4;
    if (ck_rd32(c, *base, &word) < 0)
        return -1;
    *sp = word;
    return 0;
}

/* Cortex-M: the SysTick slot (15) of the vector table, or any slot, must
 * reach mcuprof_sample_isr. */
void ck_check_vectors(struct ck *c)
{
    const struct ck_sym *isr = ck_sym_named(c, "mcuprof_sample_isr"), *sym;
    uint64_t base, size, sp, limit;
    uint32_t word;

    if (!isr) {
        ck_finding(c, 0, NULL, "the sampler is not linked (no mcuprof_sample_isr): no time "
                "profile; fix: link the runtime's sample_isr.S and start the sampler");
        return;
    }
    if (ck_thumb_vector_table(c, &base, &size, &sp) < 0 || ck_rd32(c, ck_end(base, 15 * 4), &word) < 0) {
        ck_finding(c, 0, NULL, "no vector table found (no .vectors or .isr_vector section): the "
                "sampler's vector is not checked");
        return;
    }
    sym = func_or_label_at(c, word & ~1u);
    if ((word & ~1u) == isr->addr || (sym && (sym->func || sym->size) && ck_thumb_reaches(c, sym, isr->addr)))
        return;
    if (sym && sym->func) {
        const struct ck_sym *pc_fn = ck_sym_named(c, "mcuprof_sample_pc");

        if (pc_fn && ck_thumb_reaches(c, sym, pc_fn->addr))
            return;
    }
    /* another timer's slot may hold the sampler */
    limit = 16 + 240;
    for (uint64_t k = 16; k < limit; k++) {
        if (ck_rd32(c, ck_end(base, k * 4), &word) < 0)
            break;
        if ((word & ~1u) == isr->addr)
            return;
    }
    ck_finding(c, 1, "SysTick", "the vector at 0x%" PRIx64 " leads to %s (0x%" PRIx32 "), not to "
            "mcuprof_sample_isr: no samples will be taken; fix: put mcuprof_sample_isr in the "
            "sampling timer's vector, or let the runtime's SysTick_Handler in (no "
            "NO_DEFAULT_VECTORS)", ck_end(base, 15 * 4), sym ? sym->name : "no function", word);
}

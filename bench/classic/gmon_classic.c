/*
 * gmon_classic.c - the classic BSD mcount, written from the published
 * 4.4BSD design (see gmon_classic.h), with interrupts masked around the
 * table update as the classic embedded ports do. Built without -pg.
 */
#include "gmon_classic.h"

/* Interrupt masking as mcuprof's port does it (PRIMASK, mstatus.MIE):
 * the classic embedded ports mask the same way. */
#include "mcuprof_arch.h"

#define NOPROF __attribute__((no_instrument_function))

struct classic_gmonparam classic_gmonparam = {.state = CLASSIC_OFF};

NOPROF uint32_t classic_monstartup(uintptr_t lowpc, uintptr_t highpc, uint32_t tolimit, void *ram,
                                   void *ram_end)
{
    struct classic_gmonparam *p = &classic_gmonparam;
    uintptr_t textsize = highpc - lowpc;
    uintptr_t fromssize = textsize / CLASSIC_HASHFRACTION; /* bytes */

    if (tolimit == 0u) {
        tolimit = (uint32_t)(textsize * CLASSIC_ARCDENSITY / 100u);
        if (tolimit < CLASSIC_MINARCS)
            tolimit = CLASSIC_MINARCS;
        else if (tolimit > CLASSIC_MAXARCS)
            tolimit = CLASSIC_MAXARCS;
    }
    fromssize = (fromssize + sizeof(uintptr_t) - 1u) & ~(uintptr_t)(sizeof(uintptr_t) - 1u);
    uintptr_t tossize = (uintptr_t)tolimit * sizeof(struct classic_tos);
    if ((uintptr_t)ram_end - (uintptr_t)ram < fromssize + tossize)
        return 0;

    p->state = CLASSIC_OFF;
    p->lowpc = lowpc;
    p->textsize = textsize;
    p->froms = (uint16_t *)ram;
    p->tos = (struct classic_tos *)(void *)((char *)ram + fromssize);
    p->tolimit = tolimit;
    /* volatile: no memset call in a freestanding build */
    for (volatile char *c = ram; c != (char *)ram + fromssize + tossize; c++)
        *c = 0;
    return (uint32_t)(fromssize + tossize);
}

NOPROF void classic_moncontrol(int mode)
{
    classic_gmonparam.state = mode ? CLASSIC_ON : CLASSIC_OFF;
}

/* A new record {selfpc, 1, link}; 0 if none is left. */
NOPROF static inline uint16_t new_arc(struct classic_gmonparam *p, uintptr_t selfpc, uint16_t link)
{
    uint16_t toindex = ++p->tos[0].link;
    if (toindex >= p->tolimit)
        return 0;
    struct classic_tos *top = &p->tos[toindex];
    top->selfpc = selfpc;
    top->count = 1;
    top->link = link;
    return toindex;
}

NOPROF void classic_mcount(uintptr_t frompc, uintptr_t selfpc)
{
    struct classic_gmonparam *p = &classic_gmonparam;
    uint16_t *frompcindex;
    struct classic_tos *top, *prevtop;
    uint16_t toindex;

    /* Off, busy (a re-entered call) or in error: nothing recorded. */
    if (p->state != CLASSIC_ON)
        return;
    mcuprof_irq_state_t s = mcuprof_port_irq_save();
    p->state = CLASSIC_BUSY;

    frompc -= p->lowpc;
    if (frompc > p->textsize)
        goto done;
    frompcindex = &p->froms[frompc / (CLASSIC_HASHFRACTION * sizeof(*p->froms))];
    toindex = *frompcindex;
    if (toindex == 0) {
        /* the first call from this call site (the allocation is written out
         * twice, as in the published code: a shared helper costs the common
         * path registers) */
        toindex = new_arc(p, selfpc, 0);
        if (toindex == 0)
            goto overflow;
        *frompcindex = toindex;
        goto done;
    }
    top = &p->tos[toindex];
    if (top->selfpc == selfpc) {
        /* the arc at the head of its chain: the common case */
        top->count++;
        goto done;
    }
    for (;;) {
        if (top->link == 0) {
            /* end of the chain: a new arc, put at the head */
            toindex = new_arc(p, selfpc, *frompcindex);
            if (toindex == 0)
                goto overflow;
            *frompcindex = toindex;
            goto done;
        }
        prevtop = top;
        top = &p->tos[top->link];
        if (top->selfpc == selfpc) {
            /* found further down: count it and move it to the head */
            top->count++;
            toindex = prevtop->link;
            prevtop->link = top->link;
            top->link = *frompcindex;
            *frompcindex = toindex;
            goto done;
        }
    }
done:
    p->state = CLASSIC_ON;
    mcuprof_port_irq_restore(s);
    return;
overflow:
    /* The classic behaviour: profiling stops for good (the state stays
     * ERROR, every later call returns at once). */
    p->state = CLASSIC_ERROR;
    mcuprof_port_irq_restore(s);
}

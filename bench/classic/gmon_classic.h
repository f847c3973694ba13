/*
 * gmon_classic.h - the classic BSD call-graph tables (4.4BSD gmon design),
 * the reference mcuprof is measured against. Lives in bench/ only; never
 * shipped.
 *
 * froms[] has one 16-bit entry per HASHFRACTION * sizeof(*froms) = 4 bytes
 * of profiled text, indexed directly by the call site's offset from the text
 * start; it holds the index of the first tos[] record of that call site's
 * chain. Each tos[] record is one arc {selfpc, count, link}; the call site
 * is implied by the froms[] slot, never stored. tos[0].link is the number of
 * records allocated so far. RAM: textsize / HASHFRACTION bytes of froms,
 * plus tolimit records (textsize * ARCDENSITY / 100 by default).
 */
#ifndef GMON_CLASSIC_H
#define GMON_CLASSIC_H

#include <stdint.h>

/* 2: one froms[] slot per 4 bytes of text. A call instruction is at least
 * 4 bytes on Thumb-2 (bl) and on RV without C, so no two call sites share
 * a slot there; a larger value saves RAM but merges call sites (wrong arcs),
 * a smaller one wastes RAM. */
#define CLASSIC_HASHFRACTION 2u
/* Arc records as a percentage of the text size in bytes: 2 in 4.4BSD,
 * 3 in glibc (and the ports that copied it). */
#define CLASSIC_ARCDENSITY 2u
#define CLASSIC_MINARCS 50u
/* Record indexes are 16-bit (froms[] and link). */
#define CLASSIC_MAXARCS 65534u

enum classic_state { CLASSIC_ON, CLASSIC_BUSY, CLASSIC_ERROR, CLASSIC_OFF };

struct classic_tos {
    uintptr_t selfpc;
    unsigned long count;
    uint16_t link;
    uint16_t pad;
};

struct classic_gmonparam {
    volatile int state;
    uintptr_t lowpc;
    uintptr_t textsize;
    uint16_t *froms;
    struct classic_tos *tos;
    uint32_t tolimit; /* records, tos[0] included */
};

extern struct classic_gmonparam classic_gmonparam;

/* Carve the tables out of [ram, ram_end) for the text [lowpc, highpc);
 * tolimit 0 takes the classic formula. Returns the bytes used, 0 if they
 * do not fit. Profiling stays off. */
uint32_t classic_monstartup(uintptr_t lowpc, uintptr_t highpc, uint32_t tolimit, void *ram,
                            void *ram_end);
/* 1: record, 0: stop (4.4BSD moncontrol). */
void classic_moncontrol(int mode);
/* The portable body of mcount: count one call frompc -> selfpc. */
void classic_mcount(uintptr_t frompc, uintptr_t selfpc);

#endif

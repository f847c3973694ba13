/*
 * prof_classic.c - prof.h on the classic BSD tables (bench/classic). Like
 * monstartup() they cover the whole .text and take their RAM from the heap,
 * here the board's free RAM between .mcuprof and the stack.
 */
#include "prof.h"

#include "gmon_classic.h"

#define NOPROF __attribute__((no_instrument_function))

extern char __mcuprof_text0_start[], __mcuprof_text0_end[]; /* the board's .text */
extern char __heap_start[], __heap_end[];

static uint32_t ram_bytes;

NOPROF void bench_prof_init(void)
{
    /* + 1: tos[0] is the allocation counter, not a record */
    ram_bytes = classic_monstartup((uintptr_t)__mcuprof_text0_start, (uintptr_t)__mcuprof_text0_end,
                                   BENCH_ARCS + 1u, __heap_start, __heap_end);
}

NOPROF void bench_prof_on(void) { classic_moncontrol(1); }
NOPROF void bench_prof_off(void) { classic_moncontrol(0); }

NOPROF void bench_prof_reset(void)
{
    int on = classic_gmonparam.state != CLASSIC_OFF;
    bench_prof_init();
    classic_moncontrol(on);
}

NOPROF uint32_t bench_prof_arcs_used(void)
{
    uint32_t n = classic_gmonparam.tos[0].link;
    return n < classic_gmonparam.tolimit ? n : classic_gmonparam.tolimit - 1u;
}

/* The classic tables count nothing: a full table stops all profiling. */
NOPROF uint32_t bench_prof_lost(void) { return classic_gmonparam.state == CLASSIC_ERROR; }
NOPROF uint32_t bench_prof_ram(void) { return ram_bytes; }
NOPROF const char *bench_prof_name(void) { return "classic"; }

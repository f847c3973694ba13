/* prof_ours.c - prof.h on the mcuprof runtime. */
#include "prof.h"

#include "mcuprof.h"
#include "mcuprof/image.h"

#define NOPROF __attribute__((no_instrument_function))

static const volatile struct mcuprof_header *header(void)
{
    return (const volatile struct mcuprof_header *)mcuprof_image();
}

NOPROF void bench_prof_init(void) { mcuprof_init(); }
NOPROF void bench_prof_on(void) { mcuprof_start(); }
NOPROF void bench_prof_off(void) { mcuprof_stop(); }
NOPROF void bench_prof_reset(void) { mcuprof_reset(); }
NOPROF uint32_t bench_prof_arcs_used(void) { return header()->arcs_used; }
NOPROF uint32_t bench_prof_lost(void) { return header()->lost_arcs_table_full; }
NOPROF uint32_t bench_prof_ram(void) { return mcuprof_image_size(); }
#if defined(BENCH_PATHS)
NOPROF const char *bench_prof_name(void) { return "paths"; }
#else
NOPROF const char *bench_prof_name(void) { return "ours"; }
#endif

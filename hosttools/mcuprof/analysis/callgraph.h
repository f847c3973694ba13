/*
 * callgraph.h - time propagated along the call graph, the way gprof does
 * it (the gprof paper, binutils gprof cg_propagate): a callee's inclusive
 * time is shared among its callers in proportion to their call counts;
 * functions that call each other in a cycle are one node for the
 * propagation, and self-recursive arcs carry no time.
 *
 * It assumes every call of a function costs the same, which is wrong
 * whenever one caller's calls are dearer than another's; outputs that use
 * it say so. Needs a model with functions (mp_model_attach_elf).
 */
#ifndef MCUPROF_CALLGRAPH_H
#define MCUPROF_CALLGRAPH_H

#include <stddef.h>

#include "model.h"

/* Times are in samples, like the model's self time. */
struct mp_callgraph {
    double *inclusive;   /* per function: self + what its callees pass up;
                          * a cycle's members: the cycle's total */
    double *arc_time;    /* per model arc: the callee's inclusive time charged to that arc
                          * (0 for self calls, calls inside a cycle and callees that are
                          * no function) */
    unsigned *cycle;     /* per function: its cycle's number, 0 outside any cycle */
    unsigned ncycles;
    double *cycle_time;  /* per cycle number 1..ncycles ([0] unused): its total */
    double spontaneous;  /* charged to arcs whose caller is no function */
};

/* Fill G from M (which must have functions to be of use: without them
 * every arc carries nothing). On error (out of memory, an arc naming a
 * function the model lacks) reports it, leaves G empty and returns -1.
 * A call count is a weight here; saturated counts weigh what they say. */
int mp_callgraph_compute(struct mp_callgraph *g, const struct mp_model *m);
/* Free G's arrays; G may be zeroed or already freed. */
void mp_callgraph_free(struct mp_callgraph *g);

#endif /* MCUPROF_CALLGRAPH_H */

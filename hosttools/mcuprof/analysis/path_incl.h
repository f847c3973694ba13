/*
 * path_incl.h - inclusive time measured from the call paths the sampler
 * recorded (model.h paths), where gprof can only estimate it
 * (callgraph.h): a function's inclusive samples are the samples of the
 * paths it is on, and a caller->callee edge's those of the paths in which
 * the caller called the callee.
 *
 * Each path counts once per function and once per edge, however often
 * recursion repeats them in it: a sample spent under f is under f once.
 * Frames in no function of the ELF count for nothing here. Truncated and
 * cut paths (outer frames missing) count for the frames they have, so the
 * outermost functions' figures are lower bounds by what those lost;
 * samples the path table had no room for are in no path at all.
 */
#ifndef MCUPROF_PATH_INCL_H
#define MCUPROF_PATH_INCL_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"

/* A caller->callee pair of functions and the samples of the paths in
 * which the one called the other directly. */
struct mp_path_edge {
    long caller, callee;
    uint64_t samples;
};

struct mp_path_incl {
    uint64_t *incl;             /* per function of the model */
    struct mp_path_edge *edges; /* sorted by caller, then callee */
    size_t nedges;
    uint64_t recorded;          /* samples in every path */
    uint64_t total;             /* recorded + the table's lost: every share's 100 % */
};

/* Fill PI from M (which needs functions and paths to give anything but
 * zeros). Reports and returns -1 on out of memory, PI left empty. */
int mp_path_incl_compute(struct mp_path_incl *pi, const struct mp_model *m);
void mp_path_incl_free(struct mp_path_incl *pi);

/* Samples of the paths in which CALLER called CALLEE; 0 when none. */
uint64_t mp_path_incl_edge(const struct mp_path_incl *pi, long caller, long callee);

#endif /* MCUPROF_PATH_INCL_H */

/* PLACEHOLDER: being written. */
#include "callgraph.h"
#include "diag.h"

int mp_callgraph_compute(struct mp_callgraph *g, const struct mp_model *m)
{
    (void)g;
    return mp_error(m->name, "call graph: not available yet");
}

void mp_callgraph_free(struct mp_callgraph *g)
{
    (void)g;
}

/* PLACEHOLDER: being written. */
#include "diag.h"
#include "formats.h"

static int write_pprof(const struct mp_model *m, FILE *f)
{
    (void)f;
    return mp_error(m->name, "format pprof: not available yet");
}

const struct mp_format mp_format_pprof = {"pprof", "mcuprof.pprof", "(not available yet)", 0, NULL, write_pprof};

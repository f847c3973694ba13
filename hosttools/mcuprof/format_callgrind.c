/* PLACEHOLDER: being written. */
#include "diag.h"
#include "formats.h"

static int write_callgrind(const struct mp_model *m, FILE *f)
{
    (void)f;
    return mp_error(m->name, "format callgrind: not available yet");
}

const struct mp_format mp_format_callgrind = {"callgrind", "mcuprof.callgrind", "(not available yet)", 0, NULL, write_callgrind};

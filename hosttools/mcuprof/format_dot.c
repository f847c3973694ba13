/* PLACEHOLDER: being written. */
#include "diag.h"
#include "formats.h"

static int write_dot(const struct mp_model *m, FILE *f)
{
    (void)f;
    return mp_error(m->name, "format dot: not available yet");
}

const struct mp_format mp_format_dot = {"dot", "mcuprof.dot", "(not available yet)", 0, NULL, write_dot};

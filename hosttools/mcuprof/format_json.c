/* PLACEHOLDER: being written. */
#include "diag.h"
#include "formats.h"

static int write_json(const struct mp_model *m, FILE *f)
{
    (void)f;
    return mp_error(m->name, "format json: not available yet");
}

const struct mp_format mp_format_json = {"json", "mcuprof.json", "(not available yet)", 0, NULL, write_json};

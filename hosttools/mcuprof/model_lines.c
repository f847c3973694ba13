/* PLACEHOLDER: being written. */
#include "diag.h"
#include "model.h"

int mp_model_attach_lines(struct mp_model *m)
{
    return mp_error(m->name, "source lines: not available yet");
}

int mp_model_line_at(const struct mp_model *m, uint64_t addr, const char **file, unsigned *line)
{
    (void)m; (void)addr; (void)file; (void)line;
    return -1;
}

/*
 * line_rows.c - looking up the model's line rows by address (model.h):
 * the rows are the model's, with or without the DWARF reader built in.
 */
#include "model.h"

size_t mp_model_row_after(const struct mp_model *m, uint64_t addr)
{
    size_t lo = 0, hi = m->nlinerows;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (m->linerows[mid].end <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

int mp_model_line_at(const struct mp_model *m, uint64_t addr, const char **file, unsigned *line)
{
    size_t r = mp_model_row_after(m, addr);

    if (r >= m->nlinerows || m->linerows[r].addr > addr)
        return -1;
    *file = m->linerows[r].file;
    *line = m->linerows[r].line;
    return 0;
}

/*
 * formats.c - the table of output formats (formats.h). Adding a format is
 * one file defining its struct mp_format and one line here.
 */
#include "formats.h"

#include <string.h>

#include "diag.h"
#include "file_io.h"

static const struct mp_format *const table[] = {
    &mp_format_gnu, &mp_format_bsd, &mp_format_pprof, &mp_format_callgrind, &mp_format_dot, &mp_format_json,
    &mp_format_order, &mp_format_folded,
};

#define NFORMATS (sizeof(table) / sizeof(table[0]))

const struct mp_format *mp_format_find(const char *name)
{
    char names[160];
    size_t i, n = 0;

    for (i = 0; i < NFORMATS; i++)
        if (strcmp(table[i]->name, name) == 0)
            return table[i];
    names[0] = '\0';
    for (i = 0; i < NFORMATS && n < sizeof(names); i++)
        n += (size_t)snprintf(names + n, sizeof(names) - n, "%s%s", i ? ", " : "", table[i]->name);
    mp_error(NULL, "unknown format '%s' (formats: %s)", name, names);
    return NULL;
}

size_t mp_formats_count(void)
{
    return NFORMATS;
}

const struct mp_format *mp_format_at(size_t i)
{
    return i < NFORMATS ? table[i] : NULL;
}

void mp_formats_help(FILE *f)
{
    size_t i;

    for (i = 0; i < NFORMATS; i++)
        fprintf(f, "                         %-10s %s%s (default file %s)\n", table[i]->name, table[i]->help,
                table[i]->needs & MP_NEEDS_ELF ? "; needs --elf" : "", table[i]->default_out);
}

int mp_format_check(const struct mp_format *fmt, const struct mp_model *m)
{
    if (fmt->needs & MP_NEEDS_ELF && !m->nfuncs)
        return mp_error(m->name, "--format %s needs the firmware's function names: give --elf", fmt->name);
    return fmt->check ? fmt->check(m) : 0;
}

int mp_format_write_file(const struct mp_format *fmt, const struct mp_model *m, const char *out)
{
    struct mp_atomic atomic;
    unsigned errors;

    if (mp_atomic_open(&atomic, out) < 0)
        return -1;
    errors = mp_error_count();
    if (fmt->write(m, atomic.f) < 0 || ferror(atomic.f)) {
        if (mp_error_count() == errors)
            mp_error(out, "write error in %s", atomic.tmp_path);
        mp_atomic_abort(&atomic);
        return -1;
    }
    return mp_atomic_commit(&atomic);
}

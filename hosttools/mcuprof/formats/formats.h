/*
 * formats.h - the output formats of `convert` and `pull`, one table entry
 * each (formats.c). A format is one file that fills one struct mp_format:
 * a writer reads only the model (model.h), so a new format is that file,
 * its entry in formats.c and its tests.
 */
#ifndef MCUPROF_FORMATS_H
#define MCUPROF_FORMATS_H

#include <stdio.h>

#include "model.h"

/* What a format needs beyond the image. */
#define MP_NEEDS_ELF 1u   /* function names: refused without --elf */
#define MP_WANTS_ELF 2u   /* better with --elf (names), written without */
#define MP_WANTS_LINES 4u /* source lines from DWARF when --elf has them */

struct mp_format {
    const char *name;       /* --format NAME */
    const char *default_out; /* output file when none is named */
    const char *help;       /* one line for --help */
    unsigned needs;         /* MP_NEEDS_* / MP_WANTS_* */
    /* Everything that can be refused is refused here, before the output
     * file is created: report one error and return -1. May be NULL. */
    int (*check)(const struct mp_model *m);
    /* Write M to F. Return 0, or -1: after reporting an error of its own,
     * or on a write error of F (the caller reports that, naming the file). */
    int (*write)(const struct mp_model *m, FILE *f);
};

/* The table: mp_format_at(0 .. mp_formats_count() - 1). */
size_t mp_formats_count(void);
const struct mp_format *mp_format_at(size_t i);

/* The format named NAME, or NULL after reporting the known names. */
const struct mp_format *mp_format_find(const char *name);

/* The --help lines of every format. */
void mp_formats_help(FILE *f);

/* Whether FMT can write M: its needs, then its own check. */
int mp_format_check(const struct mp_format *fmt, const struct mp_model *m);

/* Write M to OUT in format FMT, all or nothing (file_io.h): a temporary
 * file renamed into place. Call mp_format_check first. */
int mp_format_write_file(const struct mp_format *fmt, const struct mp_model *m, const char *out);

/* The formats (one file each). */
extern const struct mp_format mp_format_gnu, mp_format_bsd, mp_format_json, mp_format_pprof,
    mp_format_callgrind, mp_format_dot, mp_format_order, mp_format_folded;

#endif /* MCUPROF_FORMATS_H */

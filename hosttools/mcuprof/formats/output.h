/*
 * output.h - the outputs of `convert`, `pull` and `sample`: one or more
 * formats (formats.h), each to its own file, all checked and staged before
 * any is put in place; and the raw image. Every file written is said on
 * stderr once it is in place, one line each (wrote_line.h): a command
 * that writes through here prints no such line of its own.
 */
#ifndef MCUPROF_OUTPUT_H
#define MCUPROF_OUTPUT_H

#include <stddef.h>
#include <stdint.h>

#include "formats.h"
#include "image_read.h"

#define MP_OUTPUTS_MAX 8

struct mp_outputs {
    const struct mp_format *fmt[MP_OUTPUTS_MAX];
    const char *path[MP_OUTPUTS_MAX]; /* NULL: -o, or the format's default */
    char names[MP_OUTPUTS_MAX][4096]; /* FILE of --format NAME:FILE */
    unsigned n;
    const char *out;                  /* -o OUT: the output of a single format */
    int lines;                        /* --lines: source lines from DWARF */
};

/* Add a --format argument: NAME or NAME:FILE, several separated by commas
 * (the FILE ends at the next comma). Reports a usage error and returns -1. */
int mp_outputs_add(struct mp_outputs *o, const char *arg);

/* After option parsing: the default format (gnu) when none was given,
 * each output's file, and the rule that -o names one output only. */
int mp_outputs_finish(struct mp_outputs *o);

/* The formats' combined needs (MP_NEEDS_ELF ...). */
unsigned mp_outputs_needs(const struct mp_outputs *o);

/* Check every output file can be written (before reading a target). */
int mp_outputs_check(const struct mp_outputs *o);

/* Raw bytes written beside the formats (pull --image). */
struct mp_raw_output {
    const char *path;
    const uint8_t *data;
    size_t len;
};

/* Write every output of the model, and RAW unless NULL, all or nothing:
 * every format's checks run first, then every output is staged and made
 * ready (file_io.h), and only then is any put in place; if placing one
 * fails, its error line names those already written. */
int mp_outputs_write(const struct mp_outputs *o, const struct mp_model *m, const struct mp_raw_output *raw);
/* The same with NRAW raw outputs (at most MP_RAW_OUTPUTS_MAX): the
 * images `sample --images` keeps beside its profile. */
#define MP_RAW_OUTPUTS_MAX 2
int mp_outputs_write_raws(const struct mp_outputs *o, const struct mp_model *m, const struct mp_raw_output *raw,
                          unsigned nraw);

/* The --format lines of a command's help. */
void mp_outputs_help(FILE *f);

/* Write LEN bytes of DATA to OUT. */
int mp_output_raw(const uint8_t *data, size_t len, const char *out);

#endif /* MCUPROF_OUTPUT_H */

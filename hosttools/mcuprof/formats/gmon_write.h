/*
 * gmon_write.h - the gmon.out writers.
 *
 * Both write in the image's byte order and address width, which is what
 * gprof expects for the firmware's ELF (binutils gprof/gmon_io.c reads
 * every field with the ELF's byte order and address size).
 */
#ifndef MCUPROF_GMON_WRITE_H
#define MCUPROF_GMON_WRITE_H

#include <stdint.h>
#include <stdio.h>

#include "gmon_format.h"
#include "profile.h"

/* Size in bytes of the gmon.out the writer would produce, or -1 (after
 * reporting the error) when the profile cannot be written in FORMAT. */
int mp_gmon_size(const struct mp_profile *p, enum mp_gmon_format format, uint64_t *size);

/* Write P to F in FORMAT. Call mp_gmon_size first: it does every check.
 * Returns 0, or -1 if F reported a write error (not reported here: only
 * the caller knows the file's name). */
int mp_gmon_write(const struct mp_profile *p, enum mp_gmon_format format, FILE *f);

/* The formats gnu and bsd: check the model M can be written in FORMAT
 * (after reporting the profile's warnings), then write it to F. */
int mp_gmon_check_model(const struct mp_model *m, enum mp_gmon_format format);
int mp_gmon_write_model(const struct mp_model *m, enum mp_gmon_format format, FILE *f);

#endif /* MCUPROF_GMON_WRITE_H */

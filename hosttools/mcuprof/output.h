/*
 * output.h - write a validated image as gmon.out, or as the raw image,
 * always through a temporary file renamed into place (file_io.h): on any
 * failure OUT is left as it was.
 */
#ifndef MCUPROF_OUTPUT_H
#define MCUPROF_OUTPUT_H

#include <stddef.h>
#include <stdint.h>

#include "gmon_write.h"
#include "image_read.h"

/* Prepare IMG (mp_profile_prepare), check it fits FORMAT, write OUT. */
int mp_output_gmon(const struct mp_image *img, const char *out, enum mp_gmon_format format);

/* Write LEN bytes of DATA to OUT. */
int mp_output_raw(const uint8_t *data, size_t len, const char *out);

#endif /* MCUPROF_OUTPUT_H */

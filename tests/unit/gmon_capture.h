/*
 * gmon_capture.h - a prepared profile written as a gmon.out into a test's
 * buffer, through a temporary file as the tool writes it.
 */
#ifndef TESTS_GMON_CAPTURE_H
#define TESTS_GMON_CAPTURE_H

#include <stddef.h>
#include <stdint.h>

#include "gmon_write.h"

/* P as FORMAT into BUF (CAP bytes): its length, or -1 when mp_gmon_size
 * refuses P in FORMAT (after reporting, as the tool does). Fails the test
 * unless the writer then writes as many bytes as mp_gmon_size said. */
long gmon_capture(const struct mp_profile *p, enum mp_gmon_format format, uint8_t *buf, size_t cap);

#endif /* TESTS_GMON_CAPTURE_H */

/* gmon_capture.c - a gmon.out into a buffer (gmon_capture.h). */
#include "gmon_capture.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>

#include <cmocka.h>

long gmon_capture(const struct mp_profile *p, enum mp_gmon_format format, uint8_t *buf, size_t cap)
{
    uint64_t size;
    size_t len;
    FILE *f;

    if (mp_gmon_size(p, format, &size) < 0)
        return -1;
    f = tmpfile();
    assert_non_null(f);
    assert_int_equal(mp_gmon_write(p, format, f), 0);
    rewind(f);
    len = fread(buf, 1, cap, f);
    fclose(f);
    assert_int_equal(len, size);
    return (long)len;
}

/*
 * format_gnu.c - gmon.out for gprof, GNU tagged format (gmon_write.h).
 */
#include "formats.h"
#include "gmon_write.h"

static int check_gnu(const struct mp_model *m)
{
    return mp_gmon_check_model(m, MP_GMON_GNU);
}

static int write_gnu(const struct mp_model *m, FILE *f)
{
    return mp_gmon_write_model(m, MP_GMON_GNU, f);
}

const struct mp_format mp_format_gnu = {
    "gnu", "gmon.out", "gmon.out for gprof, GNU tagged format, several ranges", 0, check_gnu, write_gnu,
    .rank = 10,
};

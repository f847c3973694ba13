/*
 * format_bsd.c - gmon.out for gprof, BSD 4.4 layout (gmon_write.h).
 */
#include "formats.h"
#include "gmon_write.h"

static int check_bsd(const struct mp_model *m)
{
    return mp_gmon_check_model(m, MP_GMON_BSD);
}

static int write_bsd(const struct mp_model *m, FILE *f)
{
    return mp_gmon_write_model(m, MP_GMON_BSD, f);
}

const struct mp_format mp_format_bsd = {
    "bsd", "gmon.out", "gmon.out for gprof, BSD 4.4 layout, one range, bins above 65535 scaled", 0, check_bsd,
    write_bsd, .rank = 20,
};

/*
 * format_gmon.c - gmon.out for gprof, GNU tagged or BSD 4.4 (the writers
 * in gmon_write.h), as two entries of the format table.
 */
#include "diag.h"
#include "formats.h"
#include "gmon_write.h"
#include "profile.h"

/* check: prepare (its warnings are reported here, once) and size. */
static int check(const struct mp_model *m, enum mp_gmon_format format)
{
    struct mp_profile p;
    uint64_t size;
    int ret;

    if (mp_profile_prepare(&p, m) < 0)
        return -1;
    ret = mp_gmon_size(&p, format, &size);
    mp_profile_free(&p);
    return ret;
}

/* write: prepare again without repeating its warnings. */
static int write(const struct mp_model *m, enum mp_gmon_format format, FILE *f)
{
    struct mp_profile p;
    unsigned keep = mp_diag_held();
    int ret;

    mp_diag_quiet(1);
    ret = mp_profile_prepare(&p, m);
    mp_diag_quiet(0);
    mp_diag_drop_held(keep);
    if (ret < 0)
        return -1;
    ret = mp_gmon_write(&p, format, f);
    mp_profile_free(&p);
    return ret;
}

static int check_gnu(const struct mp_model *m)
{
    return check(m, MP_GMON_GNU);
}

static int write_gnu(const struct mp_model *m, FILE *f)
{
    return write(m, MP_GMON_GNU, f);
}

static int check_bsd(const struct mp_model *m)
{
    return check(m, MP_GMON_BSD);
}

static int write_bsd(const struct mp_model *m, FILE *f)
{
    return write(m, MP_GMON_BSD, f);
}

const struct mp_format mp_format_gnu = {
    "gnu", "gmon.out", "gmon.out for gprof, GNU tagged format, several ranges", 0, check_gnu, write_gnu,
};

const struct mp_format mp_format_bsd = {
    "bsd", "gmon.out", "gmon.out for gprof, BSD 4.4 layout, one range, bins above 65535 scaled", 0, check_bsd,
    write_bsd,
};

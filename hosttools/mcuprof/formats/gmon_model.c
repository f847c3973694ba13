/*
 * gmon_model.c - a model as gmon.out, GNU tagged or BSD 4.4: what the two
 * formats gnu (format_gnu.c) and bsd (format_bsd.c) share.
 */
#include "diag.h"
#include "gmon_write.h"

/* Prepare (its warnings are reported here, once) and size. */
int mp_gmon_check_model(const struct mp_model *m, enum mp_gmon_format format)
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

/* Prepare again without repeating its warnings. */
int mp_gmon_write_model(const struct mp_model *m, enum mp_gmon_format format, FILE *f)
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

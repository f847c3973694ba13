#include "gmon_write.h"

#include <inttypes.h>
#include <string.h>

#include "diag.h"
#include "gmon_internal.h"

int mp_gmon_size(const struct mp_profile *p, enum mp_gmon_format format, uint64_t *size)
{
    if (format == MP_GMON_BSD) {
        if (mp_bsd_check(p) < 0)
            return -1;
        *size = mp_bsd_size(p);
    } else {
        uint32_t k = mp_gnu_scale(p);

        if (k > 1)
            mp_warn(p->m->name,
                    "a histogram bin holds %" PRIu32 " samples, more than the %u records of its range a gmon.out"
                    " carries (65535 each): every bin and the rate (%" PRIu32 " Hz) divided by %" PRIu32
                    ", so seconds and shares stay right within rounding",
                    mp_hist_max(p), MP_GNU_HIST_RECORDS_MAX, p->rate, k);
        *size = mp_gnu_size(p);
    }
    if (*size > MP_OUTPUT_MAX)
        return mp_error(p->m->name,
                        "the gmon.out would be %" PRIu64 " bytes, more than the %" PRIu64
                        "-byte limit (bins too large or too many)",
                        *size, MP_OUTPUT_MAX);
    return 0;
}

int mp_gmon_write(const struct mp_profile *p, enum mp_gmon_format format, FILE *f)
{
    struct mp_out o;

    mp_out_init(&o, f, p->m->big, p->m->ptr_size);
    if (format == MP_GMON_BSD)
        mp_bsd_write(&o, p);
    else
        mp_gnu_write(&o, p);
    mp_out_flush(&o);
    return o.failed ? -1 : 0;
}

#include "output.h"

#include "diag.h"
#include "file_io.h"
#include "profile.h"

int mp_output_gmon(const struct mp_image *img, const char *out, enum mp_gmon_format format)
{
    struct mp_atomic atomic;
    struct mp_profile profile;
    uint64_t size;

    /* Everything that can be checked is checked before OUT is touched. */
    if (mp_profile_prepare(&profile, img) < 0 || mp_gmon_size(&profile, format, &size) < 0 ||
        mp_atomic_open(&atomic, out) < 0)
        return -1;
    if (mp_gmon_write(&profile, format, atomic.f) < 0) {
        mp_error(out, "write error in %s", atomic.tmp_path);
        mp_atomic_abort(&atomic);
        return -1;
    }
    return mp_atomic_commit(&atomic);
}

int mp_output_raw(const uint8_t *data, size_t len, const char *out)
{
    struct mp_atomic atomic;

    if (mp_atomic_open(&atomic, out) < 0)
        return -1;
    if (fwrite(data, 1, len, atomic.f) != len) {
        mp_error(out, "write error in %s", atomic.tmp_path);
        mp_atomic_abort(&atomic);
        return -1;
    }
    return mp_atomic_commit(&atomic);
}

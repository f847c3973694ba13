#include "build_check.h"

#include <string.h>

#include "diag.h"

static void to_hex(const uint8_t *id, size_t len, char *out)
{
    static const char hex[] = "0123456789abcdef";
    size_t i;

    for (i = 0; i < len; i++) {
        out[2 * i] = hex[id[i] >> 4];
        out[2 * i + 1] = hex[id[i] & 15];
    }
    out[2 * len] = '\0';
}

int mp_build_check(const struct mp_image *img, const struct mp_elf_info *elf, int force)
{
    char ih[2 * sizeof(img->build_id) + 1], eh[2 * sizeof(elf->build_id) + 1];

    if (img->build_id_len == 0 || elf->build_id_len == 0)
        return 0;
    if (img->build_id_len == elf->build_id_len &&
        memcmp(img->build_id, elf->build_id, elf->build_id_len) == 0)
        return 0;
    to_hex(img->build_id, img->build_id_len, ih);
    to_hex(elf->build_id, elf->build_id_len, eh);
    if (force) {
        mp_warn(img->name, "build-id %s does not match %s's %s (--force: converted anyway)", ih,
                elf->path, eh);
        return 0;
    }
    return mp_error(img->name, "build-id %s does not match %s's %s", ih, elf->path, eh);
}

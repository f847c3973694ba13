#include "build_check.h"

#include <inttypes.h>
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

/* An ELF for another machine, address width or byte order never names
 * the image's addresses. */
static int check_target(const struct mp_image *img, const struct mp_elf_info *elf, int force)
{
    const char *em = mp_machine_name(elf->machine), *im = mp_machine_name(img->machine);

    if (elf->machine == img->machine && elf->ptr_size == img->ptr_size && elf->big == img->big)
        return 0;
    if (force) {
        mp_warn(elf->path, "built for machine %u (%s), %u-bit, %s-endian, the image for %u (%s), "
                           "%u-bit, %s-endian (--force: converted anyway)",
                (unsigned)elf->machine, em ? em : "unknown", elf->ptr_size * 8,
                elf->big ? "big" : "little", (unsigned)img->machine, im ? im : "unknown",
                img->ptr_size * 8, img->big ? "big" : "little");
        return 0;
    }
    return mp_error(elf->path, "built for machine %u (%s), %u-bit, %s-endian, but the image is "
                               "for %u (%s), %u-bit, %s-endian: not this firmware's ELF",
                    (unsigned)elf->machine, em ? em : "unknown", elf->ptr_size * 8,
                    elf->big ? "big" : "little", (unsigned)img->machine, im ? im : "unknown",
                    img->ptr_size * 8, img->big ? "big" : "little");
}

/* The ELF's linker symbols say where the image lives and how large it is;
 * an image from elsewhere (another build, another ARCS or bin size) would
 * be read against the wrong code. */
static int check_place(const struct mp_image *img, const struct mp_elf_info *elf, int force)
{
    if (!elf->has_region || (img->image_addr == elf->start && img->image_size == elf->end - elf->start))
        return 0;
    /* symbols in the wrong order describe no image: said as they are, not as a size */
    if (elf->end < elf->start) {
        if (force) {
            mp_warn(elf->path, "__mcuprof_end 0x%" PRIx64 " lies below __mcuprof_start 0x%" PRIx64
                               ": no place to check the image against (--force: converted anyway)",
                    elf->end, elf->start);
            return 0;
        }
        return mp_error(elf->path, "__mcuprof_end 0x%" PRIx64 " lies below __mcuprof_start 0x%" PRIx64
                                   ": no place to check %s against",
                        elf->end, elf->start, img->name);
    }
    if (force) {
        mp_warn(img->name,
                "lies at 0x%" PRIx64 " (%" PRIu32 " bytes) but %s places the image at 0x%" PRIx64
                " (%" PRIu64 " bytes) (--force: converted anyway)",
                img->image_addr, img->image_size, elf->path, elf->start, elf->end - elf->start);
        return 0;
    }
    return mp_error(img->name,
                    "lies at 0x%" PRIx64 " (%" PRIu32 " bytes) but %s places the image at 0x%" PRIx64
                    " (%" PRIu64 " bytes, __mcuprof_start.._end): not this firmware's image",
                    img->image_addr, img->image_size, elf->path, elf->start, elf->end - elf->start);
}

int mp_build_id_missing(const char *name, size_t image_id_len, const struct mp_elf_info *elf)
{
    if (image_id_len == 0 && elf->build_id_len == 0)
        mp_warn(name, "neither the image nor %s carries a build-id: nothing shows they "
                      "belong together (link with -Wl,--build-id)", elf->path);
    else if (image_id_len == 0)
        mp_warn(name, "the image carries no build-id: nothing shows it comes from %s", elf->path);
    else if (elf->build_id_len == 0)
        mp_warn(elf->path, "has no build-id note (NT_GNU_BUILD_ID): nothing shows the image "
                           "comes from it (link with -Wl,--build-id)");
    else
        return 0;
    return 1;
}

int mp_build_check(const struct mp_image *img, const struct mp_elf_info *elf, int force)
{
    char ih[2 * sizeof(img->build_id) + 1], eh[2 * sizeof(elf->build_id) + 1];

    if (check_target(img, elf, force) < 0 || check_place(img, elf, force) < 0)
        return -1;
    if (mp_build_id_missing(img->name, img->build_id_len, elf))
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

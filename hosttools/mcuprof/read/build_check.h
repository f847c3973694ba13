/*
 * build_check.h - refuse a profile image that does not come from the ELF
 * gprof will read it with: addresses would name the wrong functions.
 */
#ifndef MCUPROF_BUILD_CHECK_H
#define MCUPROF_BUILD_CHECK_H

#include "elf_info.h"
#include "image_read.h"

/* Compare the image's machine, address width and byte order, then its
 * place (__mcuprof_start/_end), then its build-id, with the ELF's. A
 * difference: an error, or with FORCE a warning. A build-id missing on
 * either side: a warning (nothing to compare). Returns 0 to go on, -1 to
 * stop. */
int mp_build_check(const struct mp_image *img, const struct mp_elf_info *elf, int force);

/* The warning for a build-id missing on the image (IMAGE_ID_LEN 0, NAME
 * its name) or the ELF's side, or both: 1 when one was given, else 0. */
int mp_build_id_missing(const char *name, size_t image_id_len, const struct mp_elf_info *elf);

#endif /* MCUPROF_BUILD_CHECK_H */

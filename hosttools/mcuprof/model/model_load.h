/*
 * model_load.h - a profile model from any input file a command takes: a
 * profile image, a gmon.out, or a JSON document of `convert --format
 * json`, with the firmware's function names from its ELF.
 */
#ifndef MCUPROF_MODEL_LOAD_H
#define MCUPROF_MODEL_LOAD_H

#include <stddef.h>
#include <stdint.h>

#include "input_kind.h"
#include "model.h"

/* Read PATH into M, as what *KIND is set to (input_kind.h). With ELF_PATH (may be NULL): an image is checked
 * against it (machine, place, build-id: build_check.h), a gmon.out's
 * inferred byte order and address width too, and the functions are
 * named from it; a JSON document that names its functions already keeps
 * its own names. Reports and returns -1 on failure (M is then empty). */
int mp_model_load(struct mp_model *m, const char *path, const char *elf_path, enum mp_input_kind *kind);

/* mp_model_load of the LEN bytes at DATA, read already from PATH. */
int mp_model_load_bytes(struct mp_model *m, const char *path, const uint8_t *data, size_t len, const char *elf_path,
                        enum mp_input_kind *kind);

/* Whether the functions attached to M (a gmon.out or a JSON document:
 * neither ties itself to an ELF by a build-id) are its firmware's. Refused
 * (reported, -1) when no arc calls into a function and under 10 % of the
 * binned samples lie in one: another program's ELF. A warning, once, when
 * some arcs call into no function or more than half the samples lie in
 * none. Every command that names such a profile's functions asks it. */
int mp_model_check_fit(const struct mp_model *m);

/* How a command reads an image with the firmware's ELF. */
struct mp_image_elf {
    const char *path;  /* the ELF, NULL: none (no functions named) */
    int build_check;   /* first compare machine, place and build-id (build_check.h) */
    int force;         /* with build_check: a difference is a warning, not a failure */
    int other_machine; /* an ELF of another machine or address width names
                        * nothing (the model keeps no functions) instead of failing */
};

/* The model of the image of LEN bytes at DATA (named NAME in messages),
 * validated completely first, its functions named from E->path: the one
 * place a command's image is read. Reports and returns -1 on failure (M
 * is then empty). */
int mp_model_load_image(struct mp_model *m, const char *name, const uint8_t *data, size_t len,
                        const struct mp_image_elf *e);

#endif /* MCUPROF_MODEL_LOAD_H */

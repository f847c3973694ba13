/*
 * model_load.h - a profile model from any input file a command takes: a
 * profile image, a gmon.out, or a JSON document of `convert --format
 * json`, with the firmware's function names from its ELF.
 */
#ifndef MCUPROF_MODEL_LOAD_H
#define MCUPROF_MODEL_LOAD_H

#include "input_kind.h"
#include "model.h"

/* Read PATH into M, as what *KIND is set to (input_kind.h). With ELF_PATH (may be NULL): an image is checked
 * against it (machine, place, build-id: build_check.h), a gmon.out's
 * inferred byte order and address width too, and the functions are
 * named from it; a JSON document that names its functions already keeps
 * its own names. Reports and returns -1 on failure (M is then empty). */
int mp_model_load(struct mp_model *m, const char *path, const char *elf_path, enum mp_input_kind *kind);

#endif /* MCUPROF_MODEL_LOAD_H */

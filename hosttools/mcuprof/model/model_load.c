/*
 * model_load.c - an input file of any kind into a profile model
 * (model_load.h).
 */
#include "model_load.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build_check.h"
#include "diag.h"
#include "elf_info.h"
#include "file_io.h"
#include "image_read.h"

/* An image is at most 4 GiB (image_size is 32 bits); a gmon.out or a
 * JSON document has a smaller bound of its own (input_kind.h). */
#define INPUT_MAX ((size_t)UINT32_MAX)

int mp_model_load_image(struct mp_model *m, const char *name, const uint8_t *data, size_t len,
                        const struct mp_image_elf *e)
{
    struct mp_image img;
    struct mp_elf_info elf;

    mp_model_init(m, name, MP_MODEL_IMAGE);
    if (mp_image_parse(&img, name, data, len) < 0)
        return -1;
    if (e->path && e->build_check && (mp_elf_read(&elf, e->path) < 0 || mp_build_check(&img, &elf, e->force) < 0))
        return -1;
    if (mp_model_from_image(m, &img) < 0)
        return -1;
    if (e->path &&
        (e->other_machine ? mp_model_attach_elf_if_same(m, e->path) : mp_model_attach_elf(m, e->path)) < 0) {
        mp_model_free(m);
        return -1;
    }
    return 0;
}

/* gmon.out states neither: what was inferred must be what the ELF says. */
static int check_gmon_elf(const struct mp_model *m, const char *elf_path)
{
    struct mp_elf_info elf;

    if (mp_elf_read(&elf, elf_path) < 0)
        return -1;
    if (elf.ptr_size != m->ptr_size || elf.big != m->big)
        return mp_error(elf_path,
                        "%u-bit, %s-endian, but %s reads as %u-bit, %s-endian: not this firmware's gmon.out",
                        elf.ptr_size * 8, elf.big ? "big" : "little", m->name, m->ptr_size * 8,
                        m->big ? "big" : "little");
    return 0;
}

/* The share of the samples (in %) under which a profile with no arc into
 * the ELF's functions is not this firmware's: binned samples lie in the
 * profiled ranges, which the firmware's functions cover all but their
 * padding, so even 10 % in them with no call among them is chance. */
#define FIT_MIN_PCT 10.0
/* The share of the samples outside every function above which the names
 * are partly wrong: a warning. */
#define FIT_WARN_PCT 50.0

int mp_model_check_fit(const struct mp_model *m)
{
    size_t i, stray = 0;
    double in_pct = m->c.binned ? 100.0 * ((double)m->c.binned - m->outside) / (double)m->c.binned : 0.0;

    for (i = 0; i < m->narcs; i++)
        stray += m->arcs[i].callee_fn < 0;
    if ((m->narcs == 0 || stray == m->narcs) && in_pct < FIT_MIN_PCT)
        return mp_error(m->elf_path,
                        "none of %s's %zu arcs calls into its functions and %.1f %% of its %" PRIu64
                        " samples lie in them (under %.0f %%): not this firmware's ELF",
                        m->name, m->narcs, in_pct, m->c.binned, FIT_MIN_PCT);
    if (stray || (m->c.binned && 100.0 - in_pct > FIT_WARN_PCT))
        mp_warn(m->name,
                "%zu of %zu arcs call addresses in no function of %s, and %.1f %% of the %" PRIu64
                " samples lie in none: is it this firmware's ELF?",
                stray, m->narcs, m->elf_path, m->c.binned ? 100.0 - in_pct : 0.0, m->c.binned);
    return 0;
}

int mp_model_load_bytes(struct mp_model *m, const char *path, const uint8_t *data, size_t len, const char *elf_path,
                        enum mp_input_kind *kind)
{
    int ret = -1;

    mp_model_init(m, path, MP_MODEL_IMAGE);
    *kind = mp_input_kind(data, len);
    switch (*kind) {
    case MP_INPUT_IMAGE: {
        struct mp_image_elf e = {elf_path, 1, 0, 0};

        ret = mp_model_load_image(m, path, data, len, &e);
        break;
    }
    case MP_INPUT_GMON:
        ret = mp_model_from_gmon(m, path, data, len);
        if (ret == 0 && elf_path && check_gmon_elf(m, elf_path) < 0)
            ret = -1;
        break;
    case MP_INPUT_JSON:
        ret = mp_model_from_json(m, path, data, len);
        break;
    }
    if (ret < 0) {
        mp_model_free(m);
        return -1;
    }
    /* an image's are named already (its build-id checked); a document
     * that named its functions keeps its names */
    if (elf_path && *kind != MP_INPUT_IMAGE && m->nfuncs == 0 &&
        (mp_model_attach_elf(m, elf_path) < 0 || mp_model_check_fit(m) < 0)) {
        mp_model_free(m);
        return -1;
    }
    return 0;
}

int mp_model_load(struct mp_model *m, const char *path, const char *elf_path, enum mp_input_kind *kind)
{
    uint8_t *data = NULL;
    size_t len;
    int ret;

    mp_model_init(m, path, MP_MODEL_IMAGE);
    mp_file_note_input(path);
    if (elf_path)
        mp_file_note_input(elf_path);
    if (mp_read_file(path, INPUT_MAX, &data, &len) < 0)
        return -1;
    ret = mp_model_load_bytes(m, path, data, len, elf_path, kind);
    free(data);
    return ret;
}

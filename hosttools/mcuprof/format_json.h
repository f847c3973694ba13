/*
 * format_json.h - the profile model as one JSON document
 * (docs/formats/json.md): what `convert --format json` writes and
 * `info --json` prints, and what json_read.c reads back.
 */
#ifndef MCUPROF_FORMAT_JSON_H
#define MCUPROF_FORMAT_JSON_H

#include "json_write.h"
#include "model.h"

/* The document's schema name and the major version written and read. */
#define MP_JSON_SCHEMA "mcuprof-profile"
#define MP_JSON_VERSION 1u

/* Whether M can be written (JSON has no NaN or infinity, and every
 * counter needs its name): report one error and return -1 if not. */
int mp_json_check(const struct mp_model *m);

/* Open the document's object on W and write every member of M; the
 * caller may add members of its own, then closes it with mp_jw_end. */
void mp_json_profile(struct mp_jw *w, const struct mp_model *m);

#endif /* MCUPROF_FORMAT_JSON_H */

/*
 * format_json.h - the profile model as one JSON document
 * (docs/formats/json.md): what `convert --format json` writes and
 * `info --json` prints, and what json_read.c reads back.
 */
#ifndef MCUPROF_FORMAT_JSON_H
#define MCUPROF_FORMAT_JSON_H

#include "json_write.h"
#include "model.h"
#include "model_json.h"

/* Whether M can be written (JSON has no NaN or infinity, every counter
 * and path flag needs its name, and no path is deeper than a document
 * may be): report one error and return -1 if not. */
int mp_json_check(const struct mp_model *m);

/* Open the document's object on W and write every member of M; the
 * caller may add members of its own, then closes it with mp_jw_end. */
void mp_json_profile(struct mp_jw *w, const struct mp_model *m);

#endif /* MCUPROF_FORMAT_JSON_H */

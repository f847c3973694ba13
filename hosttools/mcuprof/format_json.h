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

/* The most frames a call path of a document may have: the most an image's
 * path entry can hold (its entry_size is 16 bits, a frame at least 4
 * bytes), so every image's paths are written and read back, and a
 * document cannot make one path cost more. */
#define MP_JSON_PATH_DEPTH_MAX ((unsigned)(UINT16_MAX - sizeof(struct mcuprof_path)) / 4u)

/* The path flags by name, bit 0 (MCUPROF_PATH_TRUNCATED) first: a name
 * tells a script what is missing without the image format's header. */
#define MP_JSON_PATH_FLAGS 2u
extern const char *const mp_json_path_flags[MP_JSON_PATH_FLAGS];

/* The blocker flags by name, bit 0 (MCUPROF_BLOCKER_SEEN_BLOCKING) first. */
#define MP_JSON_BLOCKER_FLAGS 2u
extern const char *const mp_json_blocker_flags[MP_JSON_BLOCKER_FLAGS];

/* Whether M can be written (JSON has no NaN or infinity, every counter
 * and path flag needs its name, and no path is deeper than a document
 * may be): report one error and return -1 if not. */
int mp_json_check(const struct mp_model *m);

/* Open the document's object on W and write every member of M; the
 * caller may add members of its own, then closes it with mp_jw_end. */
void mp_json_profile(struct mp_jw *w, const struct mp_model *m);

#endif /* MCUPROF_FORMAT_JSON_H */

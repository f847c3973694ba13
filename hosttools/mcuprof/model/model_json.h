/*
 * model_json.h - the names the profile's JSON document (docs/formats/json.md)
 * shares between its writer (formats/format_json.c) and its reader
 * (json_read.c): the schema, the version and the flags by name.
 */
#ifndef MCUPROF_MODEL_JSON_H
#define MCUPROF_MODEL_JSON_H

#include <stdint.h>

#include <mcuprof/image.h>

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
#define MP_JSON_PATH_FLAGS 3u
extern const char *const mp_json_path_flags[MP_JSON_PATH_FLAGS];

/* The blocker flags by name, bit 0 (MCUPROF_BLOCKER_SEEN_BLOCKING) first. */
#define MP_JSON_BLOCKER_FLAGS 2u
extern const char *const mp_json_blocker_flags[MP_JSON_BLOCKER_FLAGS];

/* The image's state bits by name, bit 0 (MCUPROF_STATE_ARCS) first: jq
 * before 1.7 has no bitwise and, and a script asks "frozen?" by name. */
#define MP_JSON_STATE_FLAGS 3u
extern const char *const mp_json_state_flags[MP_JSON_STATE_FLAGS];

#endif /* MCUPROF_MODEL_JSON_H */

/*
 * json_read.h - what the files of the JSON document's reader share
 * (mp_model_from_json, model.h): the reader's state, the top-level
 * members, the typed getters (json_get.c), the growable arrays
 * (json_vec.c), the readers of each part of the document and the checks
 * across parts (json_checks.c). Only the reader's files include it.
 */
#ifndef MCUPROF_JSON_READ_H
#define MCUPROF_JSON_READ_H

#include <stddef.h>
#include <stdint.h>

#include "json_parse.h"
#include "model.h"

/* A growable array, copied into the model's memory when complete. */
struct vec {
    void *p;
    size_t n, cap, size;
};

/* Where a range sits, for the overlap check's message. */
struct range_pos {
    uint64_t low, high;
    size_t off;
};

struct rd {
    struct mp_jp p;
    struct mp_model *m;
    uint32_t seen;              /* top-level members seen (TOP_*) */
    int clones_grouped;         /* "clones": the document's view */
    size_t top_off[32];         /* offset of each one's value */
    uint64_t version;
    struct vec ranges, range_pos, bins, arcs, funcs, func_off, calls, lines, rows, contexts, tasks, late, blockers;
    struct vec paths, path_first, frames; /* a path's frames start at its path_first in frames */
    const char *last_str;       /* the last string kept: line rows repeat their file */
    size_t nhist;               /* header.hist_offsets listed */
};

enum top {
    TOP_SCHEMA, TOP_VERSION, TOP_SOURCE, TOP_MACHINE, TOP_BUILD_ID, TOP_IMAGE_VERSION, TOP_RATE, TOP_BIN_SHIFT,
    TOP_COUNTER_BYTES, TOP_COUNTERS, TOP_RANGES, TOP_ARCS, TOP_CONTEXTS, TOP_TASKS, TOP_PATHS, TOP_ELF, TOP_FUNCTIONS,
    TOP_ATTRIBUTION, TOP_LINES_MISSING, TOP_LINES, TOP_LINE_TABLE, TOP_LATE, TOP_BLOCKERS, TOP_HELD, TOP_HEADER, TOP_CLONES,
    TOP_COUNT
};

/* The top-level members' names, by enum top, NULL-terminated. */
extern const char *const jr_top_keys[];

#define BIT(k) (1u << (k))

/* ---- the growable arrays (json_vec.c) ---------------------------------- */

void jr_vec_init(struct vec *v, size_t size);
/* A zeroed new item at the end of V (NULL on OOM, reported). */
void *jr_vec_push(struct rd *r, struct vec *v);
/* V's items into the model's memory (NULL when there are none and
 * NONEMPTY is 0, as the other readers leave an empty table); V is left
 * empty. */
int jr_vec_keep(struct rd *r, struct vec *v, void *out, size_t *n, int nonempty);

/* ---- members and typed values (json_get.c) ------------------------------ */

/* The next member of the object WHERE: 1 with *IDX its index in KEYS (-1
 * for one this reader does not know), 0 at the object's end. */
int jr_member(struct rd *r, const char *where, const char *const *keys, uint32_t *seen, int *idx);
/* Every member of REQ (bits of KEYS) must be in SEEN; OFF is the
 * object's offset. */
int jr_required(struct rd *r, size_t off, const char *where, const char *const *keys, uint32_t seen, uint32_t req);
/* Integers within a field's width, a flag, samples (a finite number not
 * below 0), an address ("0x" and 1 to 16 hex digits; KEY NULL: WHERE
 * names it), a string kept in the model (NULLABLE: null gives NULL). */
int jr_u64(struct rd *r, const char *where, const char *key, uint64_t *v);
int jr_u32(struct rd *r, const char *where, const char *key, uint32_t *v);
int jr_u16(struct rd *r, const char *where, const char *key, unsigned *v);
int jr_unsigned(struct rd *r, const char *where, const char *key, unsigned *v);
int jr_flag(struct rd *r, const char *where, const char *key, unsigned char *v);
int jr_samples(struct rd *r, const char *where, const char *key, double *v);
int jr_addr(struct rd *r, const char *where, const char *key, uint64_t *v);
int jr_str(struct rd *r, const char *where, const char *key, const char **out, int nullable);
/* The array NAME, each item read by ITEM, named NAME[i] in messages. */
int jr_read_list(struct rd *r, const char *name, int (*item)(struct rd *r, const char *where));

/* ---- the parts of the document: each reads one top-level member -------- */

/* passes 0 and 1, what the rest is read against (json_read_shape.c; the
 * ELF's functions in json_read_elf.c); KEY: TOP_BIN_SHIFT or
 * TOP_COUNTER_BYTES */
int jr_read_schema(struct rd *r);
int jr_read_machine(struct rd *r);
int jr_read_shape_number(struct rd *r, int key);
int jr_read_functions(struct rd *r);
/* "clones": how the document shows GCC's clones (clone_group.c). */
int jr_read_clones(struct rd *r);

/* identity, counters, the image's header words (json_read_counts.c) */
int jr_read_source(struct rd *r);
int jr_read_build_id(struct rd *r);
int jr_read_counters(struct rd *r);
int jr_read_header(struct rd *r);

/* the histogram and the arcs (json_read_ranges.c, json_read_arcs.c) */
int jr_read_ranges(struct rd *r);
int jr_read_arcs(struct rd *r);

/* the tables (json_read_tables.c): "lost" (and a second count, named
 * SECOND: "invalid", "truncated"), then "entries", each read by ITEM */
int jr_read_table(struct rd *r, const char *name, uint64_t *lost, const char *second, uint64_t *invalid,
                  int (*item)(struct rd *r, const char *where));
int jr_read_context(struct rd *r, const char *where);
int jr_read_task(struct rd *r, const char *where);
int jr_read_path(struct rd *r, const char *where);
int jr_read_late(struct rd *r, const char *where);
int jr_read_blocker(struct rd *r, const char *where);
int jr_read_held(struct rd *r);

/* what the ELF adds (json_read_elf.c): attribution, source lines and
 * line-table rows (items of jr_read_list) */
int jr_read_attribution(struct rd *r);
int jr_read_line(struct rd *r, const char *where);
int jr_read_row(struct rd *r, const char *where);

/* ---- across parts, once every part is read (json_checks.c) ------------- */

/* The schema and a version this reader reads (after pass 0). */
int jr_check_version(struct rd *r);
/* The members that come with the ELF's functions, all or none. */
int jr_check_elf_members(struct rd *r);
/* What the counters state against what the ranges, arcs, paths hold,
 * and the samples held off against the counters. */
int jr_check_sums(struct rd *r);
/* The header's arc table and ranges are the document's. */
int jr_check_header(struct rd *r);

#endif /* MCUPROF_JSON_READ_H */

/*
 * json_read_tables.c - the JSON document's tables (json_read.h): samples
 * by context, by task and by call path, where late samples landed, the
 * interrupts the sampler cannot preempt and the samples held off. Flags
 * come by name; a name this reader does not know is refused.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "json_read.h"
#include "model_json.h"

/* "lost" (and a second count, named SECOND: "invalid", "truncated"),
 * then "entries", an array read by ITEM. */
int jr_read_table(struct rd *r, const char *name, uint64_t *lost, const char *second, uint64_t *invalid,
                  int (*item)(struct rd *r, const char *where))
{
    const char *const keys[] = {"lost", "entries", second, NULL};
    size_t off = mp_jp_offset(&r->p), n = 0;
    uint32_t seen = 0;
    char where[40];
    int k, idx, j;

    if (mp_jp_object(&r->p, "", name) < 0)
        return -1;
    while ((k = jr_member(r, name, keys, &seen, &idx)) == 1) {
        if (idx == 0) {
            k = jr_u64(r, name, "lost", lost);
        } else if (idx == 1) {
            if (mp_jp_array(&r->p, name, "entries") < 0)
                return -1;
            while ((j = mp_jp_item(&r->p, name)) == 1) {
                snprintf(where, sizeof(where), "%s.entries[%zu]", name, n++);
                if (item(r, where) < 0)
                    return -1;
            }
            k = j;
        } else if (idx == 2) {
            k = jr_u64(r, name, second, invalid);
        } else {
            k = mp_jp_skip(&r->p, name, r->p.key);
        }
        if (k < 0)
            return -1;
    }
    return k < 0 ? -1 : jr_required(r, off, name, keys, seen, second ? 7 : 3);
}

int jr_read_context(struct rd *r, const char *where)
{
    static const char *const keys[] = {"key", "samples", NULL};
    size_t off = mp_jp_offset(&r->p);
    struct mp_model_context *c;
    uint32_t seen = 0;
    int k, idx;

    if (!(c = jr_vec_push(r, &r->contexts)) || mp_jp_object(&r->p, where, NULL) < 0)
        return -1;
    while ((k = jr_member(r, where, keys, &seen, &idx)) == 1) {
        if (idx == 0)
            k = jr_u32(r, where, "key", &c->key);
        else if (idx == 1)
            k = jr_u64(r, where, "samples", &c->samples);
        else
            k = mp_jp_skip(&r->p, where, r->p.key); /* name: derived */
        if (k < 0)
            return -1;
    }
    return k < 0 ? -1 : jr_required(r, off, where, keys, seen, 3);
}

int jr_read_task(struct rd *r, const char *where)
{
    static const char *const keys[] = {"handle", "name", "samples", "deleted", NULL};
    size_t off = mp_jp_offset(&r->p);
    struct mp_model_task *t;
    uint32_t seen = 0;
    int k, idx;

    if (!(t = jr_vec_push(r, &r->tasks)) || mp_jp_object(&r->p, where, NULL) < 0)
        return -1;
    while ((k = jr_member(r, where, keys, &seen, &idx)) == 1) {
        switch (idx) {
        case 0: k = jr_addr(r, where, "handle", &t->handle); break;
        case 1: k = jr_str(r, where, "name", &t->name, 0); break;
        case 2: k = jr_u64(r, where, "samples", &t->samples); break;
        case 3: k = jr_flag(r, where, "deleted", &t->deleted); break;
        default: k = mp_jp_skip(&r->p, where, r->p.key); break;
        }
        if (k < 0)
            return -1;
    }
    return k < 0 ? -1 : jr_required(r, off, where, keys, seen, 0xf);
}

/* Flags by name, NAMES[i] for bit i (N of them; KNOWN lists them for
 * the message). A name this reader does not know is refused, as the
 * image reader refuses a path flag bit it does not know: a path flag
 * says which frames are missing, and a partial path shown whole
 * misleads. The same name twice is the same flag. */
static int read_flags(struct rd *r, const char *where, const char *const *names, unsigned n, const char *what,
                      unsigned *flags)
{
    char w[56];
    int k;

    snprintf(w, sizeof(w), "%s.flags", where);
    if (mp_jp_array(&r->p, where, "flags") < 0)
        return -1;
    while ((k = mp_jp_item(&r->p, w)) == 1) {
        size_t off = mp_jp_offset(&r->p);
        const char *s;
        unsigned i;

        if (mp_jp_string(&r->p, w, NULL, &s) < 0)
            return -1;
        for (i = 0; i < n && strcmp(s, names[i]) != 0; i++)
            ;
        if (i == n)
            return mp_jp_fail(&r->p, off, "%s: \"%.40s\" is no %s", w, s, what);
        *flags |= 1u << i;
    }
    return k;
}

/* A path's frames, outermost first, at most MP_JSON_PATH_DEPTH_MAX. */
static int read_path_frames(struct rd *r, const char *where, unsigned *depth)
{
    char w[56], fw[72];
    int k;

    snprintf(w, sizeof(w), "%s.frames", where);
    if (mp_jp_array(&r->p, where, "frames") < 0)
        return -1;
    while ((k = mp_jp_item(&r->p, w)) == 1) {
        uint64_t *f;

        if (*depth == MP_JSON_PATH_DEPTH_MAX)
            return mp_jp_fail(&r->p, mp_jp_offset(&r->p), "%s: more than %u frames, deeper than any image holds", w,
                              MP_JSON_PATH_DEPTH_MAX);
        snprintf(fw, sizeof(fw), "%s[%u]", w, *depth);
        if (!(f = jr_vec_push(r, &r->frames)) || jr_addr(r, fw, NULL, f) < 0)
            return -1;
        ++*depth;
    }
    return k;
}

/* A 0 frame is the gap: once, in a path flagged "gap", as in an image. */
static int check_gap(struct rd *r, size_t off, const char *where, const struct mp_model_path *path,
                     size_t first)
{
    unsigned k, n = 0;

    /* frames.p is no array at all while no path has a frame */
    for (k = 0; k < path->depth; k++)
        n += ((const uint64_t *)r->frames.p)[first + k] == 0;
    if (n != ((path->flags & MCUPROF_PATH_GAP) ? 1u : 0u))
        return mp_jp_fail(&r->p, off, "%s: %u frames 0x0: a 0 frame is the gap, once in a path flagged \"gap\"",
                          where, n);
    return 0;
}

int jr_read_path(struct rd *r, const char *where)
{
    static const char *const keys[] = {"samples", "flags", "frames", "task", "context", NULL};
    size_t off = mp_jp_offset(&r->p), *first;
    struct mp_model_path *path;
    uint32_t seen = 0;
    uint64_t task;
    int k, idx;

    if (!(path = jr_vec_push(r, &r->paths)) || !(first = jr_vec_push(r, &r->path_first)) ||
        mp_jp_object(&r->p, where, NULL) < 0)
        return -1;
    *first = r->frames.n;
    /* task and context are left out when not known (an older runtime's
     * paths, a build without the table) */
    path->task = -1;
    path->context = MCUPROF_PATH_NO_CONTEXT;
    while ((k = jr_member(r, where, keys, &seen, &idx)) == 1) {
        size_t voff = mp_jp_offset(&r->p);

        switch (idx) {
        case 0:
            /* the model leaves out a path nobody sampled (model_image.c) */
            if ((k = jr_u64(r, where, "samples", &path->samples)) == 0 && path->samples == 0)
                k = mp_jp_fail(&r->p, voff, "%s.samples: expected at least 1: a path without samples is never written",
                               where);
            break;
        case 1:
            k = read_flags(r, where, mp_json_path_flags, MP_JSON_PATH_FLAGS,
                           "path flag this mcuprof knows (\"truncated\", \"cut\", \"gap\"): it may mean frames are"
                           " missing",
                           &path->flags);
            break;
        case 2: k = read_path_frames(r, where, &path->depth); break;
        case 3: /* an index into tasks.entries, checked once every table is read (json_checks.c) */
            if ((k = mp_jp_uint(&r->p, where, "task", MCUPROF_PATH_NO_TASK - 1u, &task)) == 0)
                path->task = (long)task;
            break;
        case 4: k = jr_u32(r, where, "context", &path->context); break;
        default: k = mp_jp_skip(&r->p, where, r->p.key); break; /* functions, task_name, context_name: derived */
        }
        if (k < 0)
            return -1;
    }
    if (k < 0 || jr_required(r, off, where, keys, seen, 7) < 0)
        return -1;
    return check_gap(r, off, where, path, *first);
}

/* Where late samples landed: a PC the sampler took (never 0). */
int jr_read_late(struct rd *r, const char *where)
{
    static const char *const keys[] = {"pc", "samples", "missed", NULL};
    size_t off = mp_jp_offset(&r->p);
    struct mp_model_late *l;
    uint32_t seen = 0;
    int k, idx;

    if (!(l = jr_vec_push(r, &r->late)) || mp_jp_object(&r->p, where, NULL) < 0)
        return -1;
    while ((k = jr_member(r, where, keys, &seen, &idx)) == 1) {
        size_t voff = mp_jp_offset(&r->p);

        switch (idx) {
        case 0:
            if ((k = jr_addr(r, where, "pc", &l->pc)) == 0 && l->pc == 0)
                k = mp_jp_fail(&r->p, voff, "%s.pc: 0 is no PC the sampler took", where);
            break;
        case 1: k = jr_u64(r, where, "samples", &l->samples); break;
        case 2: k = jr_u64(r, where, "missed", &l->missed); break;
        default: k = mp_jp_skip(&r->p, where, r->p.key); break; /* function: derived */
        }
        if (k < 0)
            return -1;
    }
    return k < 0 ? -1 : jr_required(r, off, where, keys, seen, 7);
}

/* The late samples held off (struct mcuprof_held): counts of samples
 * and periods, checked against the counters in jr_check_sums. */
int jr_read_held(struct rd *r)
{
    static const char *const keys[] = {"samples", "periods", "threshold", "scans", NULL};
    struct mp_model_held *h = &r->m->held;
    size_t off = mp_jp_offset(&r->p);
    uint32_t seen = 0;
    int k, idx;

    r->m->has_held = 1;
    if (mp_jp_object(&r->p, "", "held") < 0)
        return -1;
    while ((k = jr_member(r, "held", keys, &seen, &idx)) == 1) {
        switch (idx) {
        case 0: k = jr_u64(r, "held", "samples", &h->samples); break;
        case 1: k = jr_u64(r, "held", "periods", &h->periods); break;
        case 2: k = jr_u32(r, "held", "threshold", &h->threshold); break;
        case 3: k = jr_u64(r, "held", "scans", &h->scans); break;
        default: k = mp_jp_skip(&r->p, "held", r->p.key); break;
        }
        if (k < 0)
            return -1;
    }
    if (k < 0 || jr_required(r, off, "held", keys, seen, 0xf) < 0)
        return -1;
    if (h->periods && !h->samples)
        return mp_jp_fail(&r->p, off, "held: %" PRIu64 " periods missed before samples held off, but no sample",
                          h->periods);
    return 0;
}

/* An interrupt the sampler cannot preempt: a context key of either
 * architecture's interrupts. */
int jr_read_blocker(struct rd *r, const char *where)
{
    static const char *const keys[] = {"source", "priority", "sampler_priority", "flags", NULL};
    size_t off = mp_jp_offset(&r->p);
    struct mp_model_blocker *b;
    uint32_t seen = 0, kind;
    int k, idx;

    if (!(b = jr_vec_push(r, &r->blockers)) || mp_jp_object(&r->p, where, NULL) < 0)
        return -1;
    while ((k = jr_member(r, where, keys, &seen, &idx)) == 1) {
        size_t voff = mp_jp_offset(&r->p);

        switch (idx) {
        case 0:
            k = jr_u32(r, where, "source", &b->source);
            kind = b->source & MCUPROF_CTX_KIND_Msk;
            if (k == 0 && kind != MCUPROF_CTX_ARM_EXCEPTION && kind != MCUPROF_CTX_RV_INTERRUPT)
                k = mp_jp_fail(&r->p, voff, "%s.source: 0x%08" PRIx32 " is neither an ARM exception (0x10000000 |"
                               " number) nor a RISC-V interrupt (0x20000000 | mcause code)", where, b->source);
            break;
        case 1: k = jr_unsigned(r, where, "priority", &b->priority); break;
        case 2: k = jr_unsigned(r, where, "sampler_priority", &b->sampler_priority); break;
        case 3:
            k = read_flags(r, where, mp_json_blocker_flags, MP_JSON_BLOCKER_FLAGS,
                           "blocker flag this mcuprof knows (\"blocking\", \"preemptible\")", &b->flags);
            break;
        default: k = mp_jp_skip(&r->p, where, r->p.key); break; /* name: derived */
        }
        if (k < 0)
            return -1;
    }
    if (k == 0 && (b->priority > UINT8_MAX || b->sampler_priority > UINT8_MAX))
        return mp_jp_fail(&r->p, off, "%s: priority %u or sampler_priority %u is not a priority byte (0..255)", where,
                          b->priority, b->sampler_priority);
    return k < 0 ? -1 : jr_required(r, off, where, keys, seen, 15);
}

/*
 * format_folded.c - the call paths as folded stacks (Brendan Gregg's
 * stackcollapse format), what flamegraph.pl, inferno, speedscope and
 * most flame-graph tools read: one line per path,
 *
 *     outer;middle;inner COUNT
 *
 * the functions from the ELF (hex addresses without it, or for a frame in
 * no function), COUNT the samples taken on that path. A path whose outer
 * frames are missing starts with a pseudo-frame that says why, so it is
 * never drawn as if its outermost function were a root:
 *   [truncated]          deeper than the shadow stack (outer frames dropped,
 *                        by runtimes before the gap)
 *   [cut at task switch] the frames the task had before it was switched in
 * A path deeper than the shadow stack has the pseudo-frame [...] where
 * frames were dropped, between its root side and its leaf side.
 * A sample taken with no profiled function live is `[no profiled function]`.
 *
 * Lines are sorted by their bytes and equal stacks merged, so one image
 * gives one file. The format has no comments: what the path table lost
 * goes to the trust warnings on stderr (trust.c), and so does how GCC's
 * clones are shown (with --group-clones, foo -> foo.part.0 is one frame).
 *
 * `folded-task` (format_folded_task.c) writes the same lines rooted at
 * the task each path ran in, `[task NAME]`, then `[CONTEXT]` when the
 * sample interrupted something other than the task's own code (a
 * handler, the core waiting), so a flame graph has one tower per task.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "folded.h"
#include "formats.h"
#include "sort.h"
#include "text_safe.h"

struct line {
    char *stack;
    uint64_t samples;
};

/* A growing string; failed set once an allocation failed. */
struct buf {
    char *s;
    size_t len, cap;
    int failed;
};

static void put(struct buf *b, const char *s, size_t n)
{
    if (b->failed)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 128;
        char *p;

        while (cap < b->len + n + 1)
            cap *= 2;
        if (!(p = realloc(b->s, cap))) {
            b->failed = 1;
            return;
        }
        b->s = p;
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

static void put_str(struct buf *b, const char *s)
{
    put(b, s, strlen(s));
}

/* A function name as one frame: escaped by the rule of text_safe.h, so
 * no control character ends the line or reaches a reader that prints it,
 * and ';', which separates frames, as '?'. Spaces stay: readers take the
 * count after the last one. */
static void put_name(struct buf *b, const char *name)
{
    size_t start = b->len;
    char *p;

    put_str(b, mp_esc(name));
    if (b->failed)
        return;
    for (p = b->s + start; *p; p++)
        if (*p == ';')
            *p = '?';
}

static void put_frame(struct buf *b, const struct mp_model *m, const struct mp_model_path *p, unsigned k)
{
    long fn = mp_model_path_func(m, p, k);
    char hex[24];

    if (fn >= 0) {
        put_name(b, m->funcs[fn].name);
    } else if (mp_model_path_gap(p, k)) {
        put_str(b, MP_PATH_GAP_NAME);
    } else {
        snprintf(hex, sizeof(hex), "0x%" PRIx64, p->frames[k]);
        put_str(b, hex);
    }
}

/* `[task NAME];` and, but for a thread sample, `[CONTEXT];`. */
static void put_task_root(struct buf *b, const struct mp_model *m, const struct mp_model_path *p)
{
    const char *task = mp_model_task_label(m, p->task);
    char context[48];

    put_str(b, "[task ");
    put_name(b, task ? task : "not recorded");
    put_str(b, "];");
    if (p->context != MCUPROF_PATH_NO_CONTEXT && p->context != MCUPROF_CTX_THREAD) {
        put_str(b, "[");
        put_name(b, mp_context_name(m->machine, p->context, context, sizeof(context)));
        put_str(b, "];");
    }
}

/* The stack of path P, pseudo-frames first; NULL on out of memory. */
static char *stack_of(const struct mp_model *m, const struct mp_model_path *p, int by_task)
{
    struct buf b = {NULL, 0, 0, 0};
    unsigned k;

    if (by_task)
        put_task_root(&b, m, p);
    if (p->flags & MCUPROF_PATH_TRUNCATED)
        put_str(&b, "[truncated];");
    if (p->flags & MCUPROF_PATH_CUT)
        put_str(&b, "[cut at task switch];");
    if (!p->depth)
        put_str(&b, "[no profiled function];");
    for (k = 0; k < p->depth; k++) {
        if (k && !mp_model_path_gap(p, k) && !mp_model_path_gap(p, k - 1) &&
            mp_model_own_piece(m, p->frames[k - 1], p->frames[k]))
            continue;
        put_frame(&b, m, p, k);
        put_str(&b, ";");
    }
    if (b.failed) {
        free(b.s);
        return NULL;
    }
    b.s[b.len - 1] = '\0'; /* the last separator */
    return b.s;
}

static int cmp_line(const void *x, const void *y)
{
    return strcmp(((const struct line *)x)->stack, ((const struct line *)y)->stack);
}

int mp_folded_write(const struct mp_model *m, FILE *f, int by_task)
{
    struct line *lines = malloc((m->npaths ? m->npaths : 1) * sizeof(*lines));
    size_t n = 0, i;
    int ret = -1;

    if (!lines)
        return mp_error(m->name, "folded: out of memory for %zu paths", m->npaths);
    for (i = 0; i < m->npaths; i++) {
        if (!m->paths[i].samples)
            continue;
        if (!(lines[n].stack = stack_of(m, &m->paths[i], by_task))) {
            mp_error(m->name, "folded: out of memory");
            goto out;
        }
        lines[n++].samples = m->paths[i].samples;
    }
    mp_sort(lines, n, sizeof(*lines), cmp_line);
    for (i = 0; i < n; i++) {
        uint64_t samples = lines[i].samples;

        /* paths that read alike (static functions of one name in two
         * files) are one stack to a reader: one line */
        while (i + 1 < n && strcmp(lines[i].stack, lines[i + 1].stack) == 0)
            samples += lines[++i].samples;
        if (fprintf(f, "%s %" PRIu64 "\n", lines[i].stack, samples) < 0)
            goto out;
    }
    ret = 0;
out:
    for (i = 0; i < n; i++)
        free(lines[i].stack);
    free(lines);
    return ret;
}

int mp_folded_check(const struct mp_model *m, const char *format)
{
    char view[128];

    if (!m->has_paths)
        return mp_error(m->name, "--format %s needs call paths, and the image has no path table: the runtime"
                                 " was built without PATHS (MCUPROF_CFG_PATHS)",
                        format);
    /* the format has no comments: the view goes where its warnings go
     * (a note: said once for folded and folded-task, silenced by -q) */
    if (mp_model_clone_view(m, view, sizeof(view)))
        mp_note(m->name, "folded stacks: %s", view);
    return 0;
}

static int write_folded(const struct mp_model *m, FILE *f)
{
    return mp_folded_write(m, f, 0);
}

static int check_folded(const struct mp_model *m)
{
    return mp_folded_check(m, "folded");
}

const struct mp_format mp_format_folded = {
    "folded", "mcuprof.folded",
    "folded call stacks for flame graphs (flamegraph.pl, speedscope); needs a PATHS build", MP_WANTS_ELF,
    check_folded, write_folded, .rank = 80,
};

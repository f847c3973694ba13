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
 *   [truncated]          deeper than the shadow stack (outer frames dropped)
 *   [cut at task switch] the frames the task had before it was switched in
 * A sample taken with no profiled function live is `[no profiled function]`.
 *
 * Lines are sorted by their bytes and equal stacks merged, so one image
 * gives one file. The format has no comments: what the path table lost
 * goes to the trust warnings on stderr (trust.c), and so does how GCC's
 * clones are shown (with --group-clones, foo -> foo.part.0 is one frame).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "formats.h"

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

/* A function name as one frame: ';' separates frames and a control
 * character would end the line, so each becomes '?' (as the DOT writer
 * shows them). Spaces stay: readers take the count after the last one. */
static void put_name(struct buf *b, const char *name)
{
    size_t start = b->len;
    char *p;

    put_str(b, name);
    if (b->failed)
        return;
    for (p = b->s + start; *p; p++)
        if (*p == ';' || (unsigned char)*p < 0x20 || *p == 0x7f)
            *p = '?';
}

static void put_frame(struct buf *b, const struct mp_model *m, uint64_t addr)
{
    long fn = m->nfuncs ? mp_model_find_func(m, addr) : -1;
    char hex[24];

    if (fn >= 0) {
        put_name(b, m->funcs[fn].name);
    } else {
        snprintf(hex, sizeof(hex), "0x%" PRIx64, addr);
        put_str(b, hex);
    }
}

/* The stack of path P, pseudo-frames first; NULL on out of memory. */
static char *stack_of(const struct mp_model *m, const struct mp_model_path *p)
{
    struct buf b = {NULL, 0, 0, 0};
    unsigned k;

    if (p->flags & MCUPROF_PATH_TRUNCATED)
        put_str(&b, "[truncated];");
    if (p->flags & MCUPROF_PATH_CUT)
        put_str(&b, "[cut at task switch];");
    if (!p->depth)
        put_str(&b, "[no profiled function];");
    for (k = 0; k < p->depth; k++) {
        if (k && mp_model_own_piece(m, p->frames[k - 1], p->frames[k]))
            continue;
        put_frame(&b, m, p->frames[k]);
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

static int write_folded(const struct mp_model *m, FILE *f)
{
    struct line *lines = malloc((m->npaths ? m->npaths : 1) * sizeof(*lines));
    size_t n = 0, i;
    int ret = -1;

    if (!lines)
        return mp_error(m->name, "folded: out of memory for %zu paths", m->npaths);
    for (i = 0; i < m->npaths; i++) {
        if (!m->paths[i].samples)
            continue;
        if (!(lines[n].stack = stack_of(m, &m->paths[i]))) {
            mp_error(m->name, "folded: out of memory");
            goto out;
        }
        lines[n++].samples = m->paths[i].samples;
    }
    qsort(lines, n, sizeof(*lines), cmp_line);
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

static int check_folded(const struct mp_model *m)
{
    char view[128];

    if (!m->has_paths)
        return mp_error(m->name, "--format folded needs call paths, and the image has no path table: the runtime"
                                 " was built without PATHS (MCUPROF_CFG_PATHS)");
    /* the format has no comments: the view goes where its warnings go */
    if (mp_model_clone_view(m, view, sizeof(view)))
        fprintf(stderr, "%s: note: folded stacks: %s\n", m->name, view);
    return 0;
}

const struct mp_format mp_format_folded = {
    "folded", "mcuprof.folded",
    "folded call stacks for flame graphs (flamegraph.pl, speedscope); needs a PATHS build", MP_WANTS_ELF,
    check_folded, write_folded, .rank = 80,
};

/*
 * line_samples.c - self samples per source line (line_samples.h).
 *
 * A bin's samples are charged to functions exactly as gprof charges them
 * (gprof_attrib.c, in gprof's 2-byte units and its rounding), and each
 * function's part of the bin is then split among the line-table rows it
 * covers in proportion to their bytes, the bytes no row covers going to
 * "??":0. So a function's lines add up to its self samples, and the
 * per-line figures carry the same assumption as gprof's per-function
 * ones: samples spread evenly over a bin.
 */
#include "line_samples.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "grow.h"
#include "sort.h"

struct pieces {
    struct mp_model_line *p;
    size_t n, cap;
};

static int add_piece(struct mp_model *m, struct pieces *ps, long func, const char *file, unsigned line,
                     uint64_t addr, double samples)
{
    struct mp_model_line *last = ps->n ? &ps->p[ps->n - 1] : NULL;
    size_t cap;

    if (samples <= 0.0)
        return 0;
    if (last && last->func == func && last->file == file && last->line == line) {
        last->samples += samples;
        if (addr < last->addr)
            last->addr = addr;
        return 0;
    }
    if (ps->n == ps->cap && (cap = mp_grow(&ps->p, &ps->cap, sizeof(*ps->p), 256)))
        return mp_error(m->elf_path, "out of memory for %zu source-line samples", cap);
    ps->p[ps->n++] = (struct mp_model_line){func, file, line, addr, samples};
    return 0;
}

/* Split CREDIT, function FUNC's samples of the bytes [LO, HI), among the
 * rows there by bytes. */
static int split(struct mp_model *m, struct pieces *ps, long func, uint64_t lo, uint64_t hi, double credit,
                 const char *unknown)
{
    double per_byte = credit / (double)(hi - lo);
    uint64_t cursor = lo, gap = 0, gap_at = 0;
    size_t k;

    for (k = mp_model_row_after(m, lo); k < m->nlinerows && m->linerows[k].addr < hi; k++) {
        const struct mp_model_linerow *r = &m->linerows[k];
        uint64_t a = r->addr > lo ? r->addr : lo, b = r->end < hi ? r->end : hi;

        if (a > cursor) {
            gap_at = gap ? gap_at : cursor;
            gap += a - cursor;
        }
        if (add_piece(m, ps, func, r->file, r->line, a, per_byte * (double)(b - a)) < 0)
            return -1;
        cursor = b;
    }
    if (cursor < hi) {
        gap_at = gap ? gap_at : cursor;
        gap += hi - cursor;
    }
    return gap ? add_piece(m, ps, func, unknown, 0, gap_at, per_byte * (double)gap) : 0;
}

/* First function whose extent ends above unit address LO (as gprof_attrib.c). */
static size_t first_func(const struct mp_model *m, uint64_t lo)
{
    size_t l = 0, h = m->nfuncs;

    while (l < h) {
        size_t mid = l + (h - l) / 2;

        if (m->funcs[mid].end / 2 <= lo)
            l = mid + 1;
        else
            h = mid;
    }
    return l;
}

/* gprof's hist_assign_samples, with each function's credit split by line. */
static int split_range(struct mp_model *m, struct pieces *ps, const struct mp_model_range *rg,
                       const char *unknown)
{
    uint64_t lowu = rg->low / 2, i;
    double scale = (double)((rg->high - rg->low) / 2) / (double)rg->nbins;

    for (i = 0; i < rg->nbins; i++) {
        uint64_t count = rg->bins[i], blo, bhi;
        size_t j;

        if (!count)
            continue;
        blo = lowu + (uint64_t)(scale * (double)i);
        bhi = lowu + (uint64_t)(scale * (double)(i + 1));
        for (j = first_func(m, blo); j < m->nfuncs && m->funcs[j].addr / 2 < bhi; j++) {
            uint64_t slo = m->funcs[j].addr / 2, shi = m->funcs[j].end / 2;
            uint64_t olo = blo > slo ? blo : slo, ohi = bhi < shi ? bhi : shi;

            if (ohi <= olo)
                continue;
            if (split(m, ps, mp_model_shown(m, (long)j), olo * 2, ohi * 2, (double)(ohi - olo) * (double)count / scale,
                      unknown) < 0)
                return -1;
        }
    }
    return 0;
}

static int cmp_key(const void *x, const void *y)
{
    const struct mp_model_line *l = x, *r = y;

    if (l->func != r->func)
        return l->func < r->func ? -1 : 1;
    if (l->file != r->file)
        return (uintptr_t)l->file < (uintptr_t)r->file ? -1 : 1;
    return l->line < r->line ? -1 : l->line > r->line;
}

/* The model's order: by function, then most samples first; ties by file
 * and line, so the output never depends on the sort. */
static int cmp_order(const void *x, const void *y)
{
    const struct mp_model_line *l = x, *r = y;
    int c;

    if (l->func != r->func)
        return l->func < r->func ? -1 : 1;
    if (l->samples != r->samples)
        return l->samples > r->samples ? -1 : 1;
    if ((c = strcmp(l->file, r->file)) != 0)
        return c;
    return l->line < r->line ? -1 : l->line > r->line;
}

int mp_line_samples(struct mp_model *m)
{
    struct pieces ps = {0};
    const char *unknown;
    size_t r, i, n = 0;
    int ret = -1;

    if (!(unknown = mp_model_strdup(m, MP_LINE_UNKNOWN_FILE)))
        return -1;
    for (r = 0; r < m->nranges; r++) {
        if (m->ranges[r].nbins && m->ranges[r].high - m->ranges[r].low >= 2 &&
            split_range(m, &ps, &m->ranges[r], unknown) < 0)
            goto out;
    }
    /* File names are interned (model_lines.c): one pointer per name. */
    mp_sort(ps.p, ps.n, sizeof(*ps.p), cmp_key);
    for (i = 0; i < ps.n; i++) {
        struct mp_model_line *last = n ? &ps.p[n - 1] : NULL;

        if (last && cmp_key(last, &ps.p[i]) == 0) {
            last->samples += ps.p[i].samples;
            if (ps.p[i].addr < last->addr)
                last->addr = ps.p[i].addr;
        } else {
            ps.p[n++] = ps.p[i];
        }
    }
    mp_sort(ps.p, n, sizeof(*ps.p), cmp_order);
    if (n) {
        if (!(m->lines = mp_model_alloc(m, n * sizeof(*m->lines))))
            goto out;
        memcpy(m->lines, ps.p, n * sizeof(*m->lines));
    }
    m->nlines = n;
    ret = 0;
out:
    free(ps.p);
    return ret;
}

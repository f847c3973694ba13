/*
 * format_order.c - the functions in the order of their first call, as a
 * linker script fragment (the BSD gmon "arc orders" idea, for an XIP flash
 * cache or a small instruction cache: code that runs together lies
 * together, and code that never ran lies apart).
 *
 * The runtime adds an arc record the first time a call site calls a
 * callee and never moves it, so the records' order is the order of first
 * calls: each arc brings its caller (when not seen yet), then its callee.
 * Interrupt handlers come where their first call came. Functions that
 * were never called are not listed: the linker places them after.
 *
 * The fragment names input sections, so the firmware must be built with
 * -ffunction-sections; it goes first inside the .text output section:
 *     .text : { INCLUDE mcuprof_order.ld  *(.text*) ... }
 * A summary comment at the top says what the order saves: the cache lines
 * the functions that ran span in this build, and packed in this order.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "formats.h"
#include "text_safe.h"

#define LINE_BYTES 32u /* a common XIP cache line; the summary states it */

static uint64_t extent(const struct mp_model_func *f)
{
    return f->size ? f->size : f->end - f->addr;
}

/* The largest alignment (up to 32) every listed function has: what the
 * build aligned functions to, kept in the packed estimate. */
static uint64_t alignment(const struct mp_model *m, const long *order, size_t n)
{
    uint64_t a = 32;
    size_t i;

    for (i = 0; i < n; i++)
        while (a > 1 && m->funcs[order[i]].addr % a)
            a /= 2;
    return a;
}

/* Cache lines the listed functions touch as they lie in the ELF. */
static uint64_t lines_in_elf(const struct mp_model *m, const long *order, size_t n)
{
    uint64_t *first = malloc((n ? n : 1) * sizeof(*first)), lines = 0, last = UINT64_MAX;
    size_t i, j;

    if (!first)
        return 0;
    for (i = 0; i < n; i++)
        first[i] = m->funcs[order[i]].addr;
    /* by address (insertion sort: a few hundred functions at most) */
    for (i = 1; i < n; i++)
        for (j = i; j > 0 && first[j - 1] > first[j]; j--) {
            uint64_t t = first[j];

            first[j] = first[j - 1];
            first[j - 1] = t;
        }
    for (i = 0; i < n; i++) {
        long k = mp_model_find_func(m, first[i]);
        uint64_t lo = first[i] / LINE_BYTES, hi;

        if (k < 0)
            continue;
        hi = (first[i] + (extent(&m->funcs[k]) ? extent(&m->funcs[k]) : 1) - 1) / LINE_BYTES;
        if (last != UINT64_MAX && lo <= last)
            lo = last + 1;
        if (hi >= lo)
            lines += hi - lo + 1;
        if (last == UINT64_MAX || hi > last)
            last = hi;
    }
    free(first);
    return lines;
}

/* The same functions packed in order, each at the build's alignment. */
static uint64_t lines_packed(const struct mp_model *m, const long *order, size_t n, uint64_t align)
{
    uint64_t at = 0;
    size_t i;

    for (i = 0; i < n; i++) {
        at = (at + align - 1) / align * align;
        at += extent(&m->funcs[order[i]]);
    }
    return (at + LINE_BYTES - 1) / LINE_BYTES;
}

static int add(const struct mp_model *m, long k, unsigned char *seen, long *order, size_t *n)
{
    if (k < 0 || seen[k] || m->funcs[k].hidden)
        return 0;
    seen[k] = 1;
    order[(*n)++] = k;
    return 1;
}

static int write_order(const struct mp_model *m, FILE *f)
{
    unsigned char *seen = calloc(m->nfuncs ? m->nfuncs : 1, 1);
    long *order = malloc((m->nfuncs ? m->nfuncs : 1) * sizeof(*order));
    size_t i, n = 0;
    uint64_t align;

    if (!seen || !order) {
        free(seen);
        free(order);
        return mp_error(m->name, "out of memory for %zu functions", m->nfuncs);
    }
    for (i = 0; i < m->narcs; i++) {
        add(m, m->arcs[i].caller, seen, order, &n);
        add(m, m->arcs[i].callee_fn, seen, order, &n);
    }
    align = alignment(m, order, n);
    fprintf(f, "/* mcuprof: %zu functions in the order of their first call, from %s.\n", n, mp_esc(m->name));
    fprintf(f, " * Build with -ffunction-sections and INCLUDE this first in .text.\n");
    fprintf(f, " * The functions that ran span %" PRIu64 " %u-byte cache lines in %s;\n", lines_in_elf(m, order, n),
            LINE_BYTES, mp_esc(m->elf_path));
    fprintf(f, " * packed in this order (%" PRIu64 "-byte aligned), %" PRIu64 ". */\n", align,
            lines_packed(m, order, n, align));
    for (i = 0; i < n; i++) {
        const struct mp_model_func *fn = &m->funcs[order[i]];

        /* the section is named after the symbol; a C++ reader gets the
         * demangled name beside it */
        fprintf(f, "*(.text.%s)", mp_model_func_symbol(fn));
        if (fn->symbol && !strstr(fn->name, "*/"))
            fprintf(f, " /* %s */", mp_esc(fn->name));
        fputc('\n', f);
    }
    free(seen);
    free(order);
    return 0;
}

/* A name the linker script cannot carry (a space, a quote, a wildcard)
 * would make the fragment fail to parse: refuse it here, naming it. */
static int check_order(const struct mp_model *m)
{
    size_t i;

    /* a section per symbol: foo.constprop.0 is .text.foo.constprop.0 */
    if (m->clones_grouped)
        return mp_error(m->name, "--format order names each symbol's section: not with --group-clones");

    /* every function write_order lists: both ends of an arc */
    for (i = 0; i < 2 * m->narcs; i++) {
        long k = i % 2 ? m->arcs[i / 2].caller : m->arcs[i / 2].callee_fn;
        const char *p;

        if (k < 0 || m->funcs[k].hidden)
            continue;
        for (p = mp_model_func_symbol(&m->funcs[k]); *p; p++)
            if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
                  strchr("_.$", *p)))
                return mp_error(m->elf_path, "function name '%s' cannot stand in a linker script section name",
                                mp_model_func_symbol(&m->funcs[k]));
    }
    return 0;
}

const struct mp_format mp_format_order = {
    "order", "mcuprof_order.ld",
    "linker script fragment: functions in first-call order (build with -ffunction-sections)", MP_NEEDS_ELF,
    check_order, write_order, .rank = 70,
};

/*
 * model_lines.c - the firmware's source lines from its DWARF (libdw):
 * every row of every line table as a sorted list of address ranges, and
 * each function's declaration (model.h). The samples per line are split
 * from the bins in line_samples.c.
 *
 * File names are the ones DWARF gives (libdw joins them with their
 * directory), shortened to a path relative to the compilation directory
 * when the file lies under it: a build tree keeps its generated sources
 * readable, and sources outside it (the usual out-of-tree build) keep
 * their absolute path rather than a chain of "../".
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "dwarf_check.h"
#include "dwarf_elf.h"
#include "grow.h"
#include "line_samples.h"
#include "model.h"
#include "sort.h"

/* Interned file names: one model string per distinct name, so a large
 * line table costs one copy of each path. Open addressing on the text. */
struct names {
    const char **slot;
    size_t cap, used;
    const char *last_src, *last_dir, *last_name; /* consecutive rows share a file */
};

static size_t hash_str(const char *s)
{
    size_t h = 2166136261u;

    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

static int names_grow(struct mp_model *m, struct names *n)
{
    size_t cap = n->cap ? n->cap * 2 : 64, i;
    const char **slot = calloc(cap, sizeof(*slot));

    if (!slot)
        return mp_error(m->elf_path, "out of memory for %zu file names", cap);
    for (i = 0; i < n->cap; i++) {
        size_t k;

        if (!n->slot[i])
            continue;
        for (k = hash_str(n->slot[i]) & (cap - 1); slot[k]; k = (k + 1) & (cap - 1))
            ;
        slot[k] = n->slot[i];
    }
    free(n->slot);
    n->slot = slot;
    n->cap = cap;
    return 0;
}

/* SRC as the model names it: relative to COMP_DIR when under it. */
static const char *intern(struct mp_model *m, struct names *n, const char *src, const char *comp_dir)
{
    const char *name = src;
    size_t k, dl = comp_dir ? strlen(comp_dir) : 0;

    if (src == n->last_src && comp_dir == n->last_dir)
        return n->last_name;
    while (dl > 0 && comp_dir[dl - 1] == '/')
        dl--;
    if (dl && strncmp(src, comp_dir, dl) == 0 && src[dl] == '/' && src[dl + 1] != '\0')
        name = src + dl + 1;
    if ((n->used + 1) * 2 > n->cap && names_grow(m, n) < 0)
        return NULL;
    for (k = hash_str(name) & (n->cap - 1); n->slot[k]; k = (k + 1) & (n->cap - 1)) {
        if (strcmp(n->slot[k], name) == 0)
            break;
    }
    if (!n->slot[k]) {
        if (!(n->slot[k] = mp_model_strdup(m, name)))
            return NULL;
        n->used++;
    }
    n->last_src = src;
    n->last_dir = comp_dir;
    n->last_name = n->slot[k];
    return n->slot[k];
}

/* The rows of every unit before they are sorted and made disjoint. */
struct rows {
    struct mp_model_linerow *r;
    size_t n, cap;
};

static int rows_add(struct mp_model *m, struct rows *rs, uint64_t addr, uint64_t end, const char *file,
                    unsigned line)
{
    struct mp_model_linerow *last = rs->n ? &rs->r[rs->n - 1] : NULL;
    size_t cap;

    /* A statement's several rows (views, is_stmt changes) are one range. */
    if (last && last->end == addr && last->file == file && last->line == line) {
        last->end = end;
        return 0;
    }
    if (rs->n == rs->cap && (cap = mp_grow(&rs->r, &rs->cap, sizeof(*rs->r), 1024)))
        return mp_error(m->elf_path, "out of memory for %zu line-table rows", cap);
    rs->r[rs->n++] = (struct mp_model_linerow){addr, end, file, line};
    return 0;
}

static const char *comp_dir_of(Dwarf_Die *cu)
{
    Dwarf_Attribute attr;

    return dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &attr));
}

/* One unit's line table: each row covers the code up to the next row
 * (libdw sorts a unit's rows by address; an end-of-sequence row ends the
 * code before it and covers nothing). Rows of line 0 (code no source line
 * produced) cover nothing either, so their bytes count as "no line".
 * Code the linker discarded keeps its unrelocated addresses, from 0 up:
 * where no function lies at 0, rows below the first function are that. */
static int unit_rows(struct mp_model *m, struct names *nm, struct rows *rs, Dwarf_Die *cu)
{
    const char *comp_dir = comp_dir_of(cu);
    uint64_t lowest = m->nfuncs && mp_model_find_func(m, 0) < 0 ? m->funcs[0].addr : 0;
    Dwarf_Lines *lines;
    size_t n, i;

    if (dwarf_getsrclines(cu, &lines, &n) != 0)
        return 0; /* a unit without a line table (no -g for that file) */
    for (i = 0; i + 1 < n; i++) {
        Dwarf_Line *l = dwarf_onesrcline(lines, i), *next = dwarf_onesrcline(lines, i + 1);
        Dwarf_Addr addr, next_addr;
        bool end_seq = true;
        int lineno = 0;
        const char *src, *file;

        if (!l || !next || dwarf_lineaddr(l, &addr) != 0 || dwarf_lineaddr(next, &next_addr) != 0 ||
            dwarf_lineendsequence(l, &end_seq) != 0)
            return -1;
        if (end_seq || addr < lowest || next_addr <= addr || dwarf_lineno(l, &lineno) != 0 ||
            lineno <= 0 || !(src = dwarf_linesrc(l, NULL, NULL)))
            continue;
        if (!(file = intern(m, nm, src, comp_dir)) ||
            rows_add(m, rs, addr, next_addr, file, (unsigned)lineno) < 0)
            return -2;
    }
    return 0;
}

static int cmp_row(const void *x, const void *y)
{
    const struct mp_model_linerow *l = x, *r = y;

    if (l->addr != r->addr)
        return l->addr < r->addr ? -1 : 1;
    return l->end < r->end ? 1 : l->end > r->end ? -1 : 0;
}

/* Sorted and disjoint: where two units claim the same bytes (duplicated
 * code, broken tables) the row that starts first keeps them. */
static int rows_finish(struct mp_model *m, struct rows *rs)
{
    size_t i, n = 0;

    mp_sort(rs->r, rs->n, sizeof(*rs->r), cmp_row);
    for (i = 0; i < rs->n; i++) {
        struct mp_model_linerow r = rs->r[i];

        if (n && r.addr < rs->r[n - 1].end) {
            if (r.end <= rs->r[n - 1].end)
                continue;
            r.addr = rs->r[n - 1].end;
        }
        if (n && rs->r[n - 1].end == r.addr && rs->r[n - 1].file == r.file && rs->r[n - 1].line == r.line)
            rs->r[n - 1].end = r.end;
        else
            rs->r[n++] = r;
    }
    if (!n)
        return 0;
    if (!(m->linerows = mp_model_alloc(m, n * sizeof(*m->linerows))))
        return -1;
    memcpy(m->linerows, rs->r, n * sizeof(*m->linerows));
    m->nlinerows = n;
    return 0;
}

/* Each function's declaration, from the subprogram whose low_pc is its
 * address (out-of-line copies of inline functions name their origin's). */
static int unit_decls(struct mp_model *m, struct names *nm, Dwarf_Die *cu)
{
    const char *comp_dir = comp_dir_of(cu);
    Dwarf_Die die;
    int rc;

    for (rc = dwarf_child(cu, &die); rc == 0; rc = dwarf_siblingof(&die, &die)) {
        Dwarf_Addr low;
        const char *src;
        int line = 0;
        long f;

        if (dwarf_tag(&die) != DW_TAG_subprogram || dwarf_lowpc(&die, &low) != 0)
            continue;
        low = mp_code_addr(m->machine, low); /* a Thumb function's address, as the model keeps it */
        f = mp_model_find_func(m, low);
        if (f < 0 || m->funcs[f].addr != low || m->funcs[f].file)
            continue;
        if (!(src = dwarf_decl_file(&die)) || dwarf_decl_line(&die, &line) != 0 || line <= 0)
            continue;
        if (!(m->funcs[f].file = intern(m, nm, src, comp_dir)))
            return -2;
        m->funcs[f].line = (unsigned)line;
    }
    return rc < 0 ? -1 : 0;
}

/* Every compile unit: rows and declarations. -1: broken DWARF (warned by
 * the caller), -2: out of memory (reported). */
static int read_units(struct mp_model *m, Dwarf *dw, struct names *nm, struct rows *rs)
{
    Dwarf_CU *unit = NULL;
    Dwarf_Die cu;
    uint8_t type;
    int rc;

    while ((rc = dwarf_get_units(dw, unit, &unit, NULL, &type, &cu, NULL)) == 0) {
        int tag = dwarf_tag(&cu), r;

        if (tag != DW_TAG_compile_unit && tag != DW_TAG_partial_unit)
            continue; /* type units hold no code */
        if ((r = unit_rows(m, nm, rs, &cu)) < 0 || (r = unit_decls(m, nm, &cu)) < 0)
            return r;
    }
    return rc < 0 ? -1 : 0;
}

static void no_lines(struct mp_model *m, const char *why)
{
    size_t i;

    /* Declarations found before the DWARF turned out broken stay out too:
     * either the lines come from one whole table or not at all. */
    for (i = 0; i < m->nfuncs; i++) {
        m->funcs[i].file = NULL;
        m->funcs[i].line = 0;
    }
    m->linerows = NULL;
    m->nlinerows = 0;
    m->lines_missing = 1;
    mp_warn(m->elf_path, "%s", why);
}

#define NO_TABLE "no DWARF line table: build with -g for source lines"

/* No lines, for the reason WHY the DWARF is unreadable. */
static void broken(struct mp_model *m, const char *why)
{
    char line[320];

    snprintf(line, sizeof(line), "broken DWARF (%s): no source lines", why);
    no_lines(m, line);
    m->lines_broken = 1;
}

/* Whether the ELF has a line table at all (stripped with --strip-debug,
 * or built without -g, it has none): libdw does not tell that apart from
 * broken DWARF in its public interface. */
static int has_line_table(Elf *elf)
{
    Elf_Scn *scn = NULL;
    size_t shstrndx;

    if (elf_getshdrstrndx(elf, &shstrndx) != 0)
        return 0;
    while ((scn = elf_nextscn(elf, scn)) != NULL) {
        GElf_Shdr sh;
        const char *name;

        if (gelf_getshdr(scn, &sh) && (name = elf_strptr(elf, shstrndx, sh.sh_name)) &&
            (strcmp(name, ".debug_line") == 0 || strcmp(name, ".zdebug_line") == 0) && sh.sh_type != SHT_NOBITS &&
            sh.sh_size > 0)
            return 1;
    }
    return 0;
}

/* The lines of ELF, open (M's elf_path names it in messages). libdw reads
 * guarded copies of the DWARF sections, checked first (dwarf_check.h): a
 * malformed section is one warning and no lines, as broken DWARF is. */
static int lines_of(struct mp_model *m, Elf *elf)
{
    struct names nm = {0};
    struct rows rs = {0};
    struct mp_dwarf_guard g;
    char why[256];
    Dwarf *dw;
    int ret = -1, r;

    if (!has_line_table(elf)) {
        no_lines(m, NO_TABLE);
        return 0;
    }
    if ((r = mp_dwarf_guard(&g, elf, m->elf_path, why, sizeof(why))) < 0)
        return -1;
    if (r == 1) {
        broken(m, why);
        return 0;
    }
    if (!(dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL))) {
        broken(m, dwarf_errmsg(-1));
        ret = 0;
        goto out_guard;
    }
    r = mp_dwarf_check(&g, elf, dw, m->elf_path, why, sizeof(why));
    if (r == -2)
        goto out_dw;
    if (r == -1) {
        broken(m, why);
        ret = 0;
        goto out_dw;
    }
    r = read_units(m, dw, &nm, &rs);
    if (r == -2)
        goto out_dw;
    if (r == -1) {
        broken(m, dwarf_errmsg(-1));
    } else if (rows_finish(m, &rs) < 0) {
        goto out_dw;
    } else if (!m->nlinerows) {
        no_lines(m, NO_TABLE);
    } else if (mp_line_samples(m) < 0) {
        goto out_dw;
    }
    ret = 0;
out_dw:
    dwarf_end(dw);
out_guard:
    mp_dwarf_unguard(&g);
    free(rs.r);
    free(nm.slot);
    return ret;
}

int mp_have_source_lines(void)
{
    return 1;
}

int mp_model_attach_lines(struct mp_model *m)
{
    struct mp_dwarf_elf d;
    int ret;

    if (!m->elf_path)
        return mp_error(m->name, "source lines need the firmware's ELF: give --elf");
    if (mp_dwarf_elf_open(&d, m->elf_path) < 0)
        return -1;
    ret = lines_of(m, d.elf);
    mp_dwarf_elf_close(&d);
    return ret;
}

int mp_model_lines_from_memory(struct mp_model *m, const void *buf, size_t size)
{
    struct mp_dwarf_elf d;
    int ret;

    if (mp_dwarf_elf_from_memory(&d, m->elf_path, buf, size) < 0)
        return -1;
    ret = lines_of(m, d.elf);
    mp_dwarf_elf_close(&d);
    return ret;
}

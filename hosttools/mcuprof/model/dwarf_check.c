/*
 * dwarf_check.c - DWARF sections guarded and checked before libdw reads
 * them (dwarf_check.h). The line table checks follow DWARF 5 section 6.2
 * (and 2 to 4 for older units): what they accept is what GCC and Clang
 * write, and what libdw reads inside the bounds they check.
 */
#include "dwarf_check.h"

#include <dwarf.h>
#include <gelf.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "grow.h"
#include "sort.h"

/* ---- the private copies ------------------------------------------------ */

/* A section libdw may take as DWARF: it matches any of these prefixes
 * (plain, GNU-compressed, split and LTO spellings). */
static bool dwarf_name(const char *name)
{
    return name && (strncmp(name, ".debug_", 7) == 0 || strncmp(name, ".zdebug_", 8) == 0 ||
                    strncmp(name, ".gnu.debuglto_.debug_", 21) == 0);
}

static const char *section_name(Elf *elf, size_t shstrndx, Elf_Scn *scn, GElf_Shdr *sh)
{
    if (!gelf_getshdr(scn, sh))
        return NULL;
    return elf_strptr(elf, shstrndx, sh->sh_name);
}

/* What a compressed section says it expands to (SHF_COMPRESSED: its
 * Elf_Chdr; GNU .zdebug: "ZLIB" and a big-endian size), 0 when it is
 * not compressed. */
static uint64_t expands_to(Elf_Scn *scn, const GElf_Shdr *sh, const char *name)
{
    GElf_Chdr ch;
    Elf_Data *d;
    uint64_t v = 0;
    unsigned i;

    if (sh->sh_flags & SHF_COMPRESSED)
        return gelf_getchdr(scn, &ch) ? ch.ch_size : 0;
    if (name[1] != 'z' || !(d = elf_getdata(scn, NULL)) || !d->d_buf || d->d_size < 12 || memcmp(d->d_buf, "ZLIB", 4))
        return 0;
    for (i = 4; i < 12; i++)
        v = v << 8 | ((const uint8_t *)d->d_buf)[i];
    return v;
}

/* A GNU-compressed section whose expanded bytes start as one again: libdw
 * would expand it a second time, past the copy. */
static bool compressed_twice(Elf_Scn *scn, const char *name)
{
    Elf_Data *d = elf_getdata(scn, NULL);

    return name[1] == 'z' && d && d->d_buf && d->d_size >= 4 && memcmp(d->d_buf, "ZLIB", 4) == 0;
}

int mp_dwarf_guard(struct mp_dwarf_guard *g, Elf *elf, const char *path, char *why, size_t whylen)
{
    Elf_Scn *scn = NULL;
    size_t shstrndx, cap = 0;
    uint64_t expanded = 0;

    memset(g, 0, sizeof(*g));
    if (elf_getshdrstrndx(elf, &shstrndx) != 0)
        return 0; /* libdw refuses it the same way */
    while ((scn = elf_nextscn(elf, scn)) != NULL) {
        GElf_Shdr sh;
        const char *name = section_name(elf, shstrndx, scn, &sh);
        Elf_Data *d;
        uint8_t *copy;
        uint64_t grows;

        if (!dwarf_name(name) || sh.sh_type == SHT_NOBITS)
            continue;
        /* Expanded here as dwarf_begin_elf would (it then finds them
         * expanded): the copy must be of what libdw reads. A section that
         * does not expand is ignored by libdw when SHF_COMPRESSED, read
         * as it is when GNU-compressed: copied as it is. What they say
         * they expand to is bounded first: zlib expands up to 1032 times. */
        if ((grows = expands_to(scn, &sh, name)) > MP_DWARF_MAX_EXPANDED - expanded) {
            snprintf(why, whylen, "%s expands to %llu bytes: more than the %u MiB of compressed DWARF read", name,
                     (unsigned long long)grows, MP_DWARF_MAX_EXPANDED >> 20);
            mp_dwarf_unguard(g);
            return 1;
        }
        expanded += grows;
        if ((sh.sh_flags & SHF_COMPRESSED) && elf_compress(scn, 0, 0) < 0)
            continue;
        if (name[1] == 'z' && elf_compress_gnu(scn, 0, 0) == 1 && compressed_twice(scn, name)) {
            snprintf(why, whylen, "%s is compressed twice", name);
            mp_dwarf_unguard(g);
            return 1;
        }
        if (!(d = elf_getdata(scn, NULL)) || !d->d_buf || d->d_size == 0)
            continue;
        if (g->ncopies == cap && mp_grow(&g->copies, &cap, sizeof(*g->copies), 16))
            goto oom;
        if (!(copy = malloc(d->d_size + MP_DWARF_GUARD)))
            goto oom;
        memcpy(copy, d->d_buf, d->d_size);
        memset(copy + d->d_size, 0, MP_DWARF_GUARD);
        g->copies[g->ncopies++] = (struct mp_dwarf_copy){scn, d, d->d_buf, copy};
        d->d_buf = copy;
    }
    return 0;
oom:
    mp_dwarf_unguard(g);
    return mp_error(path, "out of memory for a copy of the DWARF sections");
}

void mp_dwarf_unguard(struct mp_dwarf_guard *g)
{
    size_t i;

    for (i = 0; i < g->ncopies; i++) {
        g->copies[i].data->d_buf = g->copies[i].orig;
        free(g->copies[i].copy);
    }
    free(g->copies);
    free(g->line_units);
    memset(g, 0, sizeof(*g));
}

/* ---- reading a section, bounded ---------------------------------------- */

struct rd {
    const uint8_t *base, *p, *end; /* base: the section's start, for offsets */
    bool big;                      /* the ELF's byte order */
};

struct ck {
    char *why;
    size_t whylen;
    const char *sec; /* the section being checked, for the sentence */
};

static int fail(struct ck *c, const struct rd *r, const char *fmt, ...) MP_PRINTF(3, 4);

/* WHY: "SECTION offset 0x..: what"; always -1. */
static int fail(struct ck *c, const struct rd *r, const char *fmt, ...)
{
    va_list ap;
    int n = snprintf(c->why, c->whylen, "%s offset 0x%zx: ", c->sec, (size_t)(r->p - r->base));

    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < c->whylen)
        vsnprintf(c->why + n, c->whylen - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

static bool has(const struct rd *r, size_t n)
{
    return (size_t)(r->end - r->p) >= n;
}

static uint64_t get(struct rd *r, unsigned n)
{
    uint64_t v = 0;
    unsigned i;

    for (i = 0; i < n; i++)
        v |= (uint64_t)r->p[i] << (8 * (r->big ? n - 1 - i : i));
    r->p += n;
    return v;
}

/* A LEB128 that ends before r->end (libdw reads its first byte unchecked)
 * and fits 64 bits. */
static int leb(struct ck *c, struct rd *r, uint64_t *v, const char *what)
{
    unsigned shift = 0;

    *v = 0;
    for (;;) {
        uint8_t b;

        if (!has(r, 1))
            return fail(c, r, "%s runs past the end", what);
        b = *r->p++;
        if (shift < 64)
            *v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            return 0;
        if ((shift += 7) >= 70)
            return fail(c, r, "%s is longer than 10 bytes", what);
    }
}

/* The unit at u->p (DWARF 5 7.4 initial length): u->p is left after its
 * length, u->end at its end, *OFFSET_SIZE 4 or 8. */
static int unit_length(struct ck *c, struct rd *u, unsigned *offset_size)
{
    struct rd start = *u;
    uint64_t len;

    *offset_size = 4;
    if (!has(u, 4))
        return fail(c, u, "a unit length runs past the section");
    len = get(u, 4);
    if (len == 0xffffffffu) {
        if (!has(u, 8))
            return fail(c, u, "a 64-bit unit length runs past the section");
        len = get(u, 8);
        *offset_size = 8;
    } else if (len >= 0xfffffff0u) {
        return fail(c, &start, "unit length 0x%llx is a reserved value", (unsigned long long)len);
    }
    if (!has(u, len))
        return fail(c, &start, "unit length 0x%llx runs past the section's end (%zu bytes left)",
                    (unsigned long long)len, (size_t)(u->end - u->p));
    u->end = u->p + len;
    return 0;
}

/* ---- string sections --------------------------------------------------- */

/* The sections the line tables and unit names read, as found. */
struct secs {
    struct rd line, line_str, str, str_offsets;
    bool have_line, have_line_str, have_str, have_str_offsets;
};

/* The section NAME (".debug_x") stands for, or NULL: the spellings libdw
 * takes for it. Several candidates are all checked; string offsets are
 * then checked against the smallest. */
static bool spells(const char *name, const char *base)
{
    size_t bl = strlen(base);
    const char *tail;

    if (strncmp(name, ".gnu.debuglto_", 14) == 0)
        return strcmp(name + 14, base) == 0;
    if (name[1] == 'z') {
        if (strncmp(name + 2, base + 1, bl - 1) != 0)
            return false;
        tail = name + bl + 1;
    } else {
        if (strncmp(name, base, bl) != 0)
            return false;
        tail = name + bl;
    }
    return *tail == '\0' || strcmp(tail, ".dwo") == 0;
}

static int ends_with_nul(struct ck *c, const struct rd *r)
{
    struct rd at = *r;

    if (r->end == r->base)
        return 0;
    at.p = r->end - 1;
    if (*at.p != '\0')
        return fail(c, &at, "the section's last byte is not the NUL that ends every string");
    return 0;
}

/* Keep the smaller of two candidates' sizes (see spells). */
static void keep(struct rd *dst, bool *have, const struct rd *r)
{
    if (!*have || r->end - r->base < dst->end - dst->base)
        *dst = *r;
    *have = true;
}

/* ---- line tables (DWARF 5 6.2.4) --------------------------------------- */

/* A string form's value at r->p, checked against its section. */
static int string_value(struct ck *c, struct rd *r, const struct secs *s, uint64_t form, unsigned offset_size)
{
    const struct rd *target = form == DW_FORM_line_strp ? &s->line_str : &s->str;
    bool have = form == DW_FORM_line_strp ? s->have_line_str : s->have_str;
    uint64_t off;

    if (form == DW_FORM_string) {
        const uint8_t *nul = memchr(r->p, '\0', (size_t)(r->end - r->p));

        if (!nul)
            return fail(c, r, "a file or directory name runs past the header");
        r->p = nul + 1;
        return 0;
    }
    if (!has(r, offset_size))
        return fail(c, r, "a string offset runs past the header");
    off = get(r, offset_size);
    if (!have || off >= (uint64_t)(target->end - target->base)) {
        r->p -= offset_size;
        return fail(c, r, "string offset 0x%llx is outside %s (%zu bytes)", (unsigned long long)off,
                    form == DW_FORM_line_strp ? ".debug_line_str" : ".debug_str",
                    have ? (size_t)(target->end - target->base) : (size_t)0);
    }
    return 0;
}

/* One value of FORM, one of those a line table header may use and libdw
 * reads for it. */
static int form_value(struct ck *c, struct rd *r, const struct secs *s, uint64_t form, unsigned offset_size)
{
    uint64_t n;
    static const struct {
        uint64_t form;
        unsigned size;
    } fixed[] = {{DW_FORM_data1, 1}, {DW_FORM_data2, 2}, {DW_FORM_data4, 4}, {DW_FORM_data8, 8}, {DW_FORM_data16, 16}};
    size_t i;

    switch (form) {
    case DW_FORM_string:
    case DW_FORM_line_strp:
    case DW_FORM_strp:
        return string_value(c, r, s, form, offset_size);
    case DW_FORM_udata:
        return leb(c, r, &n, "a ULEB128 value");
    case DW_FORM_block:
        if (leb(c, r, &n, "a block length") < 0)
            return -1;
        if (!has(r, n))
            return fail(c, r, "a block of %llu bytes runs past the header", (unsigned long long)n);
        r->p += n;
        return 0;
    default:
        break;
    }
    for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
        if (fixed[i].form == form) {
            if (!has(r, fixed[i].size))
                return fail(c, r, "a %u-byte value runs past the header", fixed[i].size);
            r->p += fixed[i].size;
            return 0;
        }
    }
    return fail(c, r, "form 0x%llx in a file or directory entry is not one a line table uses",
                (unsigned long long)form);
}

/* DWARF 5 directory or file entries: their format, count, and each
 * entry. FILES: the entries need a directory index as well as a path. */
static int entries_v5(struct ck *c, struct rd *r, const struct secs *s, unsigned offset_size, bool files)
{
    uint64_t content[255], form[255], count, i;
    unsigned nformats, k;
    bool path = false, dir = false;

    if (!has(r, 1))
        return fail(c, r, "the entry format count runs past the header");
    nformats = (unsigned)get(r, 1);
    for (k = 0; k < nformats; k++) {
        const uint8_t *at = r->p;

        if (leb(c, r, &content[k], "an entry format") < 0 || leb(c, r, &form[k], "an entry format") < 0)
            return -1;
        if (content[k] == DW_LNCT_path) {
            if (form[k] != DW_FORM_string && form[k] != DW_FORM_line_strp && form[k] != DW_FORM_strp)
                return r->p = at, fail(c, r, "a path of form 0x%llx, not a string", (unsigned long long)form[k]);
            path = true;
        } else if (content[k] == DW_LNCT_directory_index) {
            if (form[k] != DW_FORM_data1 && form[k] != DW_FORM_data2 && form[k] != DW_FORM_udata)
                return r->p = at, fail(c, r, "a directory index of form 0x%llx", (unsigned long long)form[k]);
            dir = true;
        }
    }
    if (leb(c, r, &count, files ? "the file count" : "the directory count") < 0)
        return -1;
    if (count && (!path || (files && !dir)))
        return fail(c, r, "%s without a %s", files ? "files" : "directories", path ? "directory index" : "path");
    if (count > (uint64_t)(r->end - r->p))
        return fail(c, r, "%llu entries cannot fit the header", (unsigned long long)count);
    for (i = 0; i < count; i++)
        for (k = 0; k < nformats; k++)
            if (form_value(c, r, s, form[k], offset_size) < 0)
                return -1;
    return 0;
}

/* DWARF 2 to 4: include_directories then file_names, each list ended by
 * an empty entry. */
static int entries_v4(struct ck *c, struct rd *r)
{
    for (;;) { /* directories */
        const uint8_t *nul = memchr(r->p, '\0', (size_t)(r->end - r->p));

        if (!nul)
            return fail(c, r, "the directory list runs past the header");
        if (nul == r->p++)
            break;
        r->p = nul + 1;
    }
    for (;;) { /* files: name, directory, time, size */
        const uint8_t *nul = memchr(r->p, '\0', (size_t)(r->end - r->p));
        uint64_t v;
        int k;

        if (!nul)
            return fail(c, r, "the file list runs past the header");
        if (nul == r->p++)
            return 0;
        r->p = nul + 1;
        for (k = 0; k < 3; k++)
            if (leb(c, r, &v, "a file entry") < 0)
                return -1;
    }
}

/* The opcodes of one line program, up to the unit's end. */
static int program(struct ck *c, struct rd *r, const uint8_t *std_lengths, unsigned opcode_base)
{
    while (r->p < r->end) {
        unsigned op = *r->p++, k;
        uint64_t v;

        if (op >= opcode_base)
            continue; /* special opcode */
        if (op == 0) { /* extended: length, then that many bytes */
            if (leb(c, r, &v, "an extended opcode's length") < 0)
                return -1;
            if (v == 0 || !has(r, v))
                return fail(c, r, "an extended opcode of %llu bytes does not fit the unit", (unsigned long long)v);
            r->p += v;
            continue;
        }
        if (op == DW_LNS_fixed_advance_pc) {
            if (!has(r, 2))
                return fail(c, r, "DW_LNS_fixed_advance_pc runs past the unit");
            r->p += 2;
            continue;
        }
        for (k = 0; k < std_lengths[op - 1]; k++)
            if (leb(c, r, &v, "a standard opcode's operand") < 0)
                return -1;
    }
    return 0;
}

/* The line table at r->p (its unit_length first); r->p is left at its
 * end. */
static int line_unit(struct ck *c, struct rd *r, const struct secs *s)
{
    struct rd u = *r, h;
    uint64_t hlen;
    unsigned offset_size, version, opcode_base;
    const uint8_t *std_lengths;

    if (unit_length(c, &u, &offset_size) < 0)
        return -1;
    if (!has(&u, 2))
        return fail(c, &u, "the unit has no room for its version");
    version = (unsigned)get(&u, 2);
    if (version < 2 || version > 5)
        return fail(c, r, "line table version %u (2 to 5 are known)", version);
    if (version >= 5) {
        if (!has(&u, 2))
            return fail(c, &u, "the unit has no room for its address size");
        u.p += 2;
    }
    if (!has(&u, offset_size))
        return fail(c, &u, "the unit has no room for its header length");
    hlen = get(&u, offset_size);
    if (!has(&u, hlen))
        return fail(c, &u, "header length 0x%llx runs past the unit", (unsigned long long)hlen);
    h = u;
    h.end = u.p + hlen;
    u.p = h.end;
    /* minimum_instruction_length, [maximum_operations_per_instruction],
     * default_is_stmt, line_base, line_range, opcode_base */
    if (!has(&h, version >= 4 ? 6 : 5))
        return fail(c, &h, "the header is too short for its fields");
    h.p += version >= 4 ? 5 : 4;
    opcode_base = *h.p++;
    if (opcode_base == 0)
        return fail(c, &h, "opcode_base is 0");
    std_lengths = h.p;
    if (!has(&h, opcode_base - 1))
        return fail(c, &h, "the standard opcode lengths run past the header");
    /* libdw looks up DW_LNE_set_discriminator's (4) operand count there */
    if (opcode_base < 5 && (size_t)(u.end - std_lengths) < 4)
        return fail(c, &h, "opcode_base %u leaves no length for opcode 4 inside the unit", opcode_base);
    h.p += opcode_base - 1;
    if (version >= 5 ? entries_v5(c, &h, s, offset_size, false) < 0 || entries_v5(c, &h, s, offset_size, true) < 0
                     : entries_v4(c, &h) < 0)
        return -1;
    if (program(c, &u, std_lengths, opcode_base) < 0)
        return -1;
    r->p = u.end;
    return 0;
}

/* Every line table of S's .debug_line (named NAME), their offsets added
 * to G's (CAP: their room). -2 on out of memory (reported). */
static int line_tables(struct ck *c, struct mp_dwarf_guard *g, size_t *cap, const struct secs *s, const char *name,
                       const char *path)
{
    struct rd r = s->line;
    size_t grown;

    c->sec = name;
    while (r.p < r.end) {
        if (g->nline_units == *cap && (grown = mp_grow(&g->line_units, cap, sizeof(*g->line_units), 64)))
            return mp_error(path, "out of memory for %zu line tables", grown), -2;
        g->line_units[g->nline_units++] = (uint64_t)(r.p - r.base);
        if (line_unit(c, &r, s) < 0)
            return -1;
    }
    return 0;
}

/* ---- .debug_str_offsets (DWARF 5 7.26) --------------------------------- */

static int str_offsets(struct ck *c, const struct secs *s)
{
    struct rd r = s->str_offsets;
    uint64_t str_size = s->have_str ? (uint64_t)(s->str.end - s->str.base) : 0;

    c->sec = ".debug_str_offsets";
    while (r.p < r.end) {
        struct rd u = r;
        unsigned size;

        if (unit_length(c, &u, &size) < 0)
            return -1;
        if (!has(&u, 4))
            return fail(c, &r, "the unit has no room for its version");
        u.p += 4; /* version, padding */
        while (has(&u, size)) {
            uint64_t off = get(&u, size);

            if (off >= str_size) {
                u.p -= size;
                return fail(c, &u, "string offset 0x%llx is outside .debug_str (%llu bytes)", (unsigned long long)off,
                            (unsigned long long)str_size);
            }
        }
        r.p = u.end;
    }
    return 0;
}

/* ---- every unit's line table ------------------------------------------- */

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

    return x < y ? -1 : x > y;
}

/* Each unit's DW_AT_stmt_list names a table checked above: libdw parses
 * a line table from wherever it points. A unit libdw cannot read is left
 * to the reader, which warns of broken DWARF. */
static int stmt_lists(struct ck *c, const struct mp_dwarf_guard *g, Dwarf *dw)
{
    Dwarf_CU *unit = NULL;
    Dwarf_Die cu;

    while (dwarf_get_units(dw, unit, &unit, NULL, NULL, &cu, NULL) == 0) {
        Dwarf_Attribute attr;
        Dwarf_Word off;

        if (!dwarf_attr(&cu, DW_AT_stmt_list, &attr) || dwarf_formudata(&attr, &off) != 0)
            continue;
        if (!mp_bsearch(&off, g->line_units, g->nline_units, sizeof(off), cmp_u64)) {
            snprintf(c->why, c->whylen, ".debug_info offset 0x%llx: the unit's line table offset 0x%llx is no table's start in .debug_line",
                     (unsigned long long)dwarf_dieoffset(&cu), (unsigned long long)off);
            return -1;
        }
    }
    return 0;
}

/* ---- the whole check --------------------------------------------------- */

int mp_dwarf_check(struct mp_dwarf_guard *g, Elf *elf, Dwarf *dw, const char *path, char *why, size_t whylen)
{
    static const char *const strings[] = {".debug_str", ".debug_line_str"};
    struct ck c = {why, whylen, NULL};
    struct secs s;
    GElf_Ehdr eh;
    Elf_Scn *scn = NULL;
    size_t shstrndx, cap = 0, i;
    int r;

    memset(&s, 0, sizeof(s));
    if (elf_getshdrstrndx(elf, &shstrndx) != 0 || !gelf_getehdr(elf, &eh)) {
        snprintf(why, whylen, "no section names");
        return -1;
    }
    /* libdw reads the copies still: nothing expanded a section again */
    for (i = 0; i < g->ncopies; i++) {
        if (elf_getdata(g->copies[i].scn, NULL) != g->copies[i].data || g->copies[i].data->d_buf != g->copies[i].copy) {
            snprintf(why, whylen, "section %zu changed as libdw opened it", elf_ndxscn(g->copies[i].scn));
            return -1;
        }
    }
    while ((scn = elf_nextscn(elf, scn)) != NULL) {
        GElf_Shdr sh;
        const char *name = section_name(elf, shstrndx, scn, &sh);
        Elf_Data *d;
        struct rd rd;
        unsigned k;

        /* still compressed: it did not expand, and libdw ignores it */
        if (!dwarf_name(name) || sh.sh_type == SHT_NOBITS || (sh.sh_flags & SHF_COMPRESSED) ||
            !(d = elf_getdata(scn, NULL)) || !d->d_buf)
            continue;
        rd = (struct rd){d->d_buf, d->d_buf, (const uint8_t *)d->d_buf + d->d_size, eh.e_ident[EI_DATA] == ELFDATA2MSB};
        for (k = 0; k < 2; k++) {
            if (spells(name, strings[k])) {
                c.sec = name;
                if (ends_with_nul(&c, &rd) < 0)
                    return -1;
                if (k == 0)
                    keep(&s.str, &s.have_str, &rd);
                else
                    keep(&s.line_str, &s.have_line_str, &rd);
            }
        }
        if (spells(name, ".debug_line"))
            keep(&s.line, &s.have_line, &rd);
        if (spells(name, ".debug_str_offsets"))
            keep(&s.str_offsets, &s.have_str_offsets, &rd);
    }
    /* Every candidate .debug_line, whichever libdw takes: DW_AT_stmt_list
     * must name a table of one of them. */
    scn = NULL;
    while ((scn = elf_nextscn(elf, scn)) != NULL) {
        GElf_Shdr sh;
        const char *name = section_name(elf, shstrndx, scn, &sh);
        Elf_Data *d;
        struct secs one = s;

        if (!dwarf_name(name) || sh.sh_type == SHT_NOBITS || (sh.sh_flags & SHF_COMPRESSED) ||
            !spells(name, ".debug_line") || !(d = elf_getdata(scn, NULL)) || !d->d_buf)
            continue;
        one.line = (struct rd){d->d_buf, d->d_buf, (const uint8_t *)d->d_buf + d->d_size, s.line.big};
        if ((r = line_tables(&c, g, &cap, &one, name, path)) < 0)
            return r;
    }
    if (s.have_str_offsets && str_offsets(&c, &s) < 0)
        return -1;
    mp_sort(g->line_units, g->nline_units, sizeof(*g->line_units), cmp_u64);
    return dw ? stmt_lists(&c, g, dw) : 0;
}

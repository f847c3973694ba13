/*
 * check_model.c - reading a firmware ELF for `mcuprof check`: symbols,
 * code, and the findings' output (check_model.h).
 */
#include "check_model.h"

#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cxx_demangle.h"
#include "grow.h"
#include "sort.h"
#include "text_safe.h"

/* The message names functions and sections of the ELF: it is escaped
 * as a whole (text_safe.h), so no byte of a name reaches the terminal
 * raw. */
void ck_finding(struct ck *c, int error, const char *func, const char *fmt, ...)
{
    va_list ap;
    char *msg;
    int len;

    va_start(ap, fmt);
    len = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    msg = len >= 0 ? malloc((size_t)len + 1) : NULL;
    if (msg) {
        va_start(ap, fmt);
        vsnprintf(msg, (size_t)len + 1, fmt, ap);
        va_end(ap);
    }
    printf("%s: %s: %s: ", mp_esc(c->path), mp_esc(func ? func : "-"), error ? "error" : "warning");
    printf("%s\n", msg ? mp_esc(msg) : "(message not shown: out of memory)");
    free(msg);
    if (error)
        c->errors++;
    else
        c->warnings++;
}

/* ---- reading ----------------------------------------------------------- */

uint64_t ck_end(uint64_t addr, uint64_t size)
{
    return size > UINT64_MAX - addr ? UINT64_MAX : addr + size;
}

/* LEN bytes of code at ADDR: in the last section (by address) that
 * starts at or below ADDR, or NULL. No sum here can wrap. */
const unsigned char *ck_code(const struct ck *c, uint64_t addr, uint64_t len)
{
    size_t lo = 0, hi = c->nsecs;
    const struct ck_sec *s;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (c->secs[mid].addr <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return NULL;
    s = &c->secs[lo - 1];
    if (addr - s->addr >= s->size || s->size - (addr - s->addr) < len)
        return NULL;
    return s->bytes + (addr - s->addr);
}

uint32_t ck_get16(const struct ck *c, const unsigned char *p)
{
    return c->big ? (uint32_t)p[0] << 8 | p[1] : (uint32_t)p[1] << 8 | p[0];
}

int ck_rd16(const struct ck *c, uint64_t addr, uint32_t *v)
{
    const unsigned char *p = ck_code(c, addr, 2);

    if (!p)
        return -1;
    *v = ck_get16(c, p);
    return 0;
}

int ck_rd32(const struct ck *c, uint64_t addr, uint32_t *v)
{
    const unsigned char *p = ck_code(c, addr, 4);
    uint32_t lo, hi;

    if (!p)
        return -1;
    lo = ck_get16(c, p);
    hi = ck_get16(c, p + 2);
    *v = c->big ? lo << 16 | hi : hi << 16 | lo;
    return 0;
}

/* By address; at one address functions first, those whose code can be
 * read first, the longest first, then in symbol-table order: the first
 * is the one ck_func_at names and ck_scan_all decodes. */
static int cmp_sym(const void *x, const void *y)
{
    const struct ck_sym *a = x, *b = y;

    if (a->addr != b->addr)
        return a->addr < b->addr ? -1 : 1;
    if (a->func != b->func)
        return a->func ? -1 : 1;
    if ((a->range == CK_RANGE_OK) != (b->range == CK_RANGE_OK))
        return a->range == CK_RANGE_OK ? -1 : 1;
    if (a->size != b->size)
        return a->size > b->size ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

static int cmp_sec(const void *x, const void *y)
{
    const struct ck_sec *a = x, *b = y;

    return a->addr < b->addr ? -1 : a->addr > b->addr;
}

/* The highest address of the ELF's class, plus one (0: 2^64). */
static uint64_t space_end(const struct ck *c)
{
    return c->is64 ? 0 : (uint64_t)1 << 32;
}

/* Does [ADDR, ADDR + SIZE) fit in the address space of the ELF's class? */
static int fits(const struct ck *c, uint64_t addr, uint64_t size)
{
    uint64_t top = space_end(c);

    if (size > UINT64_MAX - addr)
        return 0;
    return top == 0 || (addr <= top && size <= top - addr);
}

/* An allocated section with bytes: kept in c->secs. Its bytes add up,
 * with the others', to at most the file's size: more means sections share
 * bytes in the file, and the decoders would read each (time without
 * bound). */
static int load_section(struct ck *c, size_t i, uint64_t *total)
{
    const struct mp_elf_shdr *sh = &c->elf.sh[i];
    const uint8_t *data;
    struct ck_sec *s;
    size_t len;

    if (!fits(c, sh->addr, sh->size)) {
        c->bad_secs++;
        return 0;
    }
    *total += sh->size;
    if (c->file_size && *total > c->file_size) {
        const char *name = mp_elf_section_name(&c->elf, i);

        return mp_error(c->path, "section %s: the allocated sections hold more bytes than the file "
                        "(%" PRIu64 "): they overlap in the file", name ? name : "?", c->file_size);
    }
    data = mp_elf_section_data(&c->elf, i, &len);
    if (!data || len < sh->size)
        return 0;
    s = realloc(c->secs, (c->nsecs + 1) * sizeof(*s));
    if (!s)
        return mp_error(c->path, "out of memory");
    c->secs = s;
    s[c->nsecs].addr = sh->addr;
    s[c->nsecs].size = sh->size;
    s[c->nsecs].bytes = data;
    s[c->nsecs].name = mp_elf_section_name(&c->elf, i);
    c->nsecs++;
    return 0;
}

/* Where function F's code lies against its section SS (CK_RANGE_*). */
static int func_range(const struct ck *c, const struct ck_sym *f, const struct mp_elf_shdr *ss)
{
    if (!f->size)
        return CK_RANGE_OK;
    if (!fits(c, f->addr, f->size))
        return CK_RANGE_WRAPS;
    if (f->addr < ss->addr || ck_end(f->addr, f->size) > ck_end(ss->addr, ss->size))
        return CK_RANGE_OUTSIDE;
    return CK_RANGE_OK;
}

/* The symbols of the symbol table (the first SHT_SYMTAB: an ELF has one). */
static int load_symbols(struct ck *c, size_t sec)
{
    const struct mp_elf_file *f = &c->elf;
    size_t cap = 0, count = mp_elf_symbol_count(f, sec);

    for (size_t i = 0; i < count; i++) {
        struct mp_elf_sym sym;
        const char *name;
        struct ck_sym *s;
        unsigned type;

        if (i > INT_MAX || mp_elf_symbol(f, sec, i, &sym) < 0)
            break;
        type = MP_ELF_ST_TYPE(sym.info);
        name = mp_elf_string(f, f->sh[sec].link, sym.name);
        if (!name || !name[0] || sym.shndx == MP_SHN_UNDEF || type == MP_STT_SECTION || type == MP_STT_FILE)
            continue;
        if (c->nsyms == cap && mp_grow(&c->syms, &cap, sizeof(*c->syms), 256))
            return mp_error(c->path, "out of memory reading %zu symbols", c->nsyms);
        s = &c->syms[c->nsyms];
        memset(s, 0, sizeof(*s));
        s->addr = sym.value;
        s->size = sym.size;
        s->symbol = name;
        s->demangled = mp_demangle(name);
        s->name = s->demangled ? s->demangled : name;
        s->abs = sym.shndx == MP_SHN_ABS;
        s->index = i;
        s->shndx = sym.shndx;
        if (type == MP_STT_FUNC && sym.shndx < MP_SHN_LORESERVE && sym.shndx < f->shnum &&
            (f->sh[sym.shndx].flags & MP_SHF_EXECINSTR)) {
            s->func = 1;
            s->addr &= ~c->arch->isa_bits;
            s->range = func_range(c, s, &f->sh[sym.shndx]);
            c->bad_ranges += s->range != CK_RANGE_OK;
        }
        c->nsyms++;
    }
    return 0;
}

int ck_load(struct ck *c)
{
    uint64_t total = 0;
    int have_symtab = 0;

    for (size_t i = 1; i < c->elf.shnum; i++) {
        const struct mp_elf_shdr *sh = &c->elf.sh[i];

        if (sh->type == MP_SHT_PROGBITS && (sh->flags & MP_SHF_ALLOC) && sh->size &&
            load_section(c, i, &total) < 0)
            return -1;
        if (sh->type != MP_SHT_SYMTAB || have_symtab)
            continue;
        have_symtab = 1;
        if (load_symbols(c, i) < 0)
            return -1;
    }
    if (!have_symtab)
        return mp_error(c->path, "no symbol table (stripped?): check needs the ELF as linked");
    /* (a user reads "no symbols" as stripped: the same refusal) */
    if (c->nsyms == 0)
        return mp_error(c->path, "the symbol table names no symbol (stripped?): check needs the ELF as linked");
    mp_sort(c->syms, c->nsyms, sizeof(*c->syms), cmp_sym);
    mp_sort(c->secs, c->nsecs, sizeof(*c->secs), cmp_sec);
    return 0;
}

void ck_free(struct ck *c)
{
    for (size_t i = 0; i < c->nsyms; i++)
        free(c->syms[i].demangled);
    free(c->syms);
    free(c->secs);
    free(c->br);
    c->syms = NULL;
    c->secs = NULL;
    c->br = NULL;
    c->nsyms = c->nsecs = c->nbr = c->capbr = 0;
}

const struct ck_sym *ck_sym_named(const struct ck *c, const char *name)
{
    for (size_t i = 0; i < c->nsyms; i++) {
        if (strcmp(c->syms[i].symbol, name) == 0)
            return &c->syms[i];
    }
    return NULL;
}

/* The first symbol at or above ADDR (nsyms: none). */
static size_t first_at(const struct ck *c, uint64_t addr)
{
    size_t lo = 0, hi = c->nsyms;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (c->syms[mid].addr < addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

const struct ck_sym *ck_func_at(const struct ck *c, uint64_t addr)
{
    size_t i = first_at(c, addr);

    /* at one address, functions sort first */
    return i < c->nsyms && c->syms[i].addr == addr && c->syms[i].func ? &c->syms[i] : NULL;
}

static int add_transfer(struct ck *c, size_t from, uint64_t pc, uint64_t target, int call)
{
    const struct ck_sym *to = ck_func_at(c, target);

    /* the checks follow only jumps and calls to another function's entry */
    if (!to || to->addr == c->syms[from].addr)
        return 0;
    if (c->nbr == c->capbr && mp_grow(&c->br, &c->capbr, sizeof(*c->br), 64))
        return mp_error(c->path, "out of memory for %zu branches", c->nbr);
    c->br[c->nbr].from = from;
    c->br[c->nbr].to = (size_t)(to - c->syms);
    c->br[c->nbr].pc = pc;
    c->br[c->nbr].call = call;
    c->nbr++;
    return 0;
}

int ck_add_branch(struct ck *c, size_t from, uint64_t pc, uint64_t target)
{
    return add_transfer(c, from, pc, target, 0);
}

int ck_add_call(struct ck *c, size_t from, uint64_t pc, uint64_t target)
{
    return add_transfer(c, from, pc, target, 1);
}

uint64_t ck_sext(uint64_t v, unsigned bits)
{
    uint64_t m = (uint64_t)1 << (bits - 1);

    return (v ^ m) - m;
}

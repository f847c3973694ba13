/*
 * check_model.c - reading a firmware ELF for `mcuprof check`: symbols,
 * code, and the findings' output (check_model.h).
 */
#include "check_model.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cxx_demangle.h"
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

static const unsigned char *code_at(const struct ck *c, uint64_t addr, size_t len)
{
    size_t i;

    for (i = 0; i < c->nsecs; i++) {
        const struct ck_sec *s = &c->secs[i];

        if (addr >= s->addr && addr - s->addr + len <= s->size)
            return s->bytes + (addr - s->addr);
    }
    return NULL;
}

int ck_rd16(const struct ck *c, uint64_t addr, uint32_t *v)
{
    const unsigned char *p = code_at(c, addr, 2);

    if (!p)
        return -1;
    *v = c->big ? (uint32_t)p[0] << 8 | p[1] : (uint32_t)p[1] << 8 | p[0];
    return 0;
}

int ck_rd32(const struct ck *c, uint64_t addr, uint32_t *v)
{
    uint32_t lo, hi;

    if (ck_rd16(c, addr, &lo) < 0 || ck_rd16(c, addr + 2, &hi) < 0)
        return -1;
    *v = c->big ? lo << 16 | hi : hi << 16 | lo;
    return 0;
}

static int cmp_sym(const void *x, const void *y)
{
    const struct ck_sym *a = x, *b = y;

    if (a->addr != b->addr)
        return a->addr < b->addr ? -1 : 1;
    return a->func < b->func ? 1 : a->func > b->func ? -1 : 0;
}

int ck_load(struct ck *c)
{
    Elf_Scn *scn = NULL;
    size_t cap = 0, shstrndx;
    int have_symtab = 0;

    if (elf_getshdrstrndx(c->elf, &shstrndx) != 0)
        return mp_error(c->path, "unreadable section headers: %s", elf_errmsg(-1));
    while ((scn = elf_nextscn(c->elf, scn)) != NULL) {
        GElf_Shdr sh;
        Elf_Data *data;

        if (!gelf_getshdr(scn, &sh))
            continue;
        if (sh.sh_type == SHT_PROGBITS && (sh.sh_flags & SHF_ALLOC) && sh.sh_size) {
            struct ck_sec *s;

            data = elf_getdata(scn, NULL);
            if (!data || !data->d_buf || data->d_size < sh.sh_size)
                continue;
            s = realloc(c->secs, (c->nsecs + 1) * sizeof(*s));
            if (!s)
                return mp_error(c->path, "out of memory");
            c->secs = s;
            s[c->nsecs].addr = sh.sh_addr;
            s[c->nsecs].size = sh.sh_size;
            s[c->nsecs].bytes = data->d_buf;
            s[c->nsecs].name = elf_strptr(c->elf, shstrndx, sh.sh_name);
            c->nsecs++;
        }
        if (sh.sh_type != SHT_SYMTAB || sh.sh_entsize == 0)
            continue;
        have_symtab = 1;
        data = elf_getdata(scn, NULL);
        if (!data)
            continue;
        for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
            GElf_Sym sym;
            GElf_Shdr ss;
            Elf_Scn *sec;
            const char *name;
            int type;

            if (!gelf_getsym(data, (int)i, &sym))
                break;
            type = GELF_ST_TYPE(sym.st_info);
            name = elf_strptr(c->elf, sh.sh_link, sym.st_name);
            if (!name || !name[0] || sym.st_shndx == SHN_UNDEF || type == STT_SECTION ||
                type == STT_FILE)
                continue;
            if (c->nsyms == cap) {
                struct ck_sym *n = realloc(c->syms, (cap = cap ? 2 * cap : 256) * sizeof(*n));

                if (!n)
                    return mp_error(c->path, "out of memory");
                c->syms = n;
            }
            memset(&c->syms[c->nsyms], 0, sizeof(c->syms[0]));
            c->syms[c->nsyms].addr = sym.st_value;
            c->syms[c->nsyms].size = sym.st_size;
            c->syms[c->nsyms].symbol = name;
            c->syms[c->nsyms].demangled = mp_demangle(name);
            c->syms[c->nsyms].name = c->syms[c->nsyms].demangled ? c->syms[c->nsyms].demangled : name;
            c->syms[c->nsyms].abs = sym.st_shndx == SHN_ABS;
            sec = sym.st_shndx < SHN_LORESERVE ? elf_getscn(c->elf, sym.st_shndx) : NULL;
            if (type == STT_FUNC && sec && gelf_getshdr(sec, &ss) && (ss.sh_flags & SHF_EXECINSTR)) {
                c->syms[c->nsyms].func = 1;
                c->syms[c->nsyms].addr &= ~c->arch->isa_bits;
            }
            c->nsyms++;
        }
    }
    if (!have_symtab)
        return mp_error(c->path, "no symbol table (stripped?): check needs the ELF as linked");
    qsort(c->syms, c->nsyms, sizeof(*c->syms), cmp_sym);
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

/* The function symbol that starts at ADDR, or NULL. */
const struct ck_sym *ck_func_at(const struct ck *c, uint64_t addr)
{
    for (size_t i = 0; i < c->nsyms; i++) {
        if (c->syms[i].func && c->syms[i].addr == addr)
            return &c->syms[i];
    }
    return NULL;
}

static int add_transfer(struct ck *c, size_t from, uint64_t pc, uint64_t target, int call)
{
    if (c->nbr == c->capbr) {
        struct ck_branch *b = realloc(c->br, (c->capbr = c->capbr ? 2 * c->capbr : 64) * sizeof(*b));

        if (!b)
            return mp_error(c->path, "out of memory");
        c->br = b;
    }
    c->br[c->nbr].from = from;
    c->br[c->nbr].pc = pc;
    c->br[c->nbr].target = target;
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

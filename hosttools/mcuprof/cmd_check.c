/*
 * cmd_check.c - `mcuprof check ELF`: what in a firmware will not be
 * profiled exactly, and why, read from the ELF alone (symbols and code).
 *
 * Each finding is one line on stdout, "ELF: FUNCTION: error|warning: what;
 * fix: how". Errors make the profile wrong (a call counted against the
 * wrong caller, a hook call before .data exists, no samples where they
 * are expected); warnings make it less precise. The exit status is 1 when
 * there is an error, so CI can gate on it.
 *
 * What is decoded: the instructions of every function with a size, for
 * calls of the hook (__gnu_mcount_nc on ARM, _mcount on RISC-V), for the
 * ARMv6-M prologue that hands the hook a high register instead of the
 * caller, and for branches to the entry of another profiled function (tail
 * calls). Literal pools inside a function may decode as instructions; a
 * branch found there must still land exactly on a profiled function's
 * entry to be reported.
 */
#include <getopt.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "diag.h"
#include "elf_funcs.h"
#include "elf_info.h"

#define EM_ARM_ 40
#define EM_RISCV_ 243

/* Shared bins listed one by one before the rest are summed up. */
#define MAX_BIN_LINES 20

struct ck_sym {
    uint64_t addr, size;
    const char *name;
    int func;     /* STT_FUNC in an executable section */
    int abs;      /* SHN_ABS: a linker-defined number */
    int profiled; /* calls the hook */
};

struct ck_sec {
    uint64_t addr, size;
    const unsigned char *bytes;
    const char *name;
};

struct ck_branch {
    size_t from; /* index in syms */
    uint64_t pc, target;
};

struct ck {
    const char *path;
    Elf *elf;
    int arm, is64, big;
    struct ck_sym *syms;
    size_t nsyms;
    struct ck_sec *secs;
    size_t nsecs;
    struct ck_branch *br;
    size_t nbr, capbr;
    uint64_t hook;
    const char *hook_name;
    unsigned errors, warnings, profiled;
};

static void finding(struct ck *c, int error, const char *func, const char *fmt, ...)
    MP_PRINTF(4, 5);

static void finding(struct ck *c, int error, const char *func, const char *fmt, ...)
{
    va_list ap;

    printf("%s: %s: %s: ", c->path, func ? func : "-", error ? "error" : "warning");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
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

static int rd16(const struct ck *c, uint64_t addr, uint32_t *v)
{
    const unsigned char *p = code_at(c, addr, 2);

    if (!p)
        return -1;
    *v = c->big ? (uint32_t)p[0] << 8 | p[1] : (uint32_t)p[1] << 8 | p[0];
    return 0;
}

static int rd32(const struct ck *c, uint64_t addr, uint32_t *v)
{
    uint32_t lo, hi;

    if (rd16(c, addr, &lo) < 0 || rd16(c, addr + 2, &hi) < 0)
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

static int load(struct ck *c)
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
            c->syms[c->nsyms].name = name;
            c->syms[c->nsyms].abs = sym.st_shndx == SHN_ABS;
            sec = sym.st_shndx < SHN_LORESERVE ? elf_getscn(c->elf, sym.st_shndx) : NULL;
            if (type == STT_FUNC && sec && gelf_getshdr(sec, &ss) && (ss.sh_flags & SHF_EXECINSTR)) {
                c->syms[c->nsyms].func = 1;
                if (c->arm)
                    c->syms[c->nsyms].addr &= ~(uint64_t)1;
            }
            c->nsyms++;
        }
    }
    if (!have_symtab)
        return mp_error(c->path, "no symbol table (stripped?): check needs the ELF as linked");
    qsort(c->syms, c->nsyms, sizeof(*c->syms), cmp_sym);
    return 0;
}

static const struct ck_sym *sym_named(const struct ck *c, const char *name)
{
    for (size_t i = 0; i < c->nsyms; i++) {
        if (strcmp(c->syms[i].name, name) == 0)
            return &c->syms[i];
    }
    return NULL;
}

/* The function symbol that starts at ADDR, or NULL. */
static const struct ck_sym *func_at(const struct ck *c, uint64_t addr)
{
    for (size_t i = 0; i < c->nsyms; i++) {
        if (c->syms[i].func && c->syms[i].addr == addr)
            return &c->syms[i];
    }
    return NULL;
}

static int add_branch(struct ck *c, size_t from, uint64_t pc, uint64_t target)
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
    c->nbr++;
    return 0;
}

static uint64_t sext(uint64_t v, unsigned bits)
{
    uint64_t m = (uint64_t)1 << (bits - 1);

    return (v ^ m) - m;
}

/* ---- Thumb --------------------------------------------------------------- */

/* Target of the BL or B.W (T4) at PC. */
static uint64_t thumb_bl_target(uint64_t pc, uint32_t hw, uint32_t hw2)
{
    uint32_t s = (hw >> 10) & 1, i1 = !(((hw2 >> 13) & 1) ^ s), i2 = !(((hw2 >> 11) & 1) ^ s);
    uint64_t off = sext((uint64_t)s << 24 | i1 << 23 | i2 << 22 | (hw & 0x3ffu) << 12 |
                            (hw2 & 0x7ffu) << 1, 25);

    return (pc + 4 + off) & 0xffffffffu;
}

/* One function: hook calls (and how they are set up), branches out. */
static int scan_thumb(struct ck *c, size_t fi)
{
    struct ck_sym *f = &c->syms[fi];
    uint64_t pc = f->addr, end = f->addr + f->size;
    uint32_t prev = 0;
    int high_into_lr = -1, hooked = 0;

    while (pc + 2 <= end) {
        uint32_t hw, hw2 = 0;
        int wide;

        if (rd16(c, pc, &hw) < 0)
            break;
        wide = (hw >> 11) == 0x1d || (hw >> 11) == 0x1e || (hw >> 11) == 0x1f;
        if (wide && rd16(c, pc + 2, &hw2) < 0)
            break;
        if (!wide && (hw & 0xff87) == 0x4686 && ((hw >> 3) & 0xf) >= 8 && !hooked) {
            high_into_lr = (int)((hw >> 3) & 0xf); /* mov lr, r8..r12 */
        } else if (wide && (hw & 0xf800) == 0xf000 && (hw2 & 0xd000) == 0xd000) {
            /* BL */
            uint64_t target = thumb_bl_target(pc, hw, hw2);

            if (target == c->hook && !hooked) {
                hooked = 1;
                f->profiled = 1;
                if (prev != 0xb500)
                    finding(c, 1, f->name, "the -pg call of %s at 0x%" PRIx64 " is not preceded by "
                            "`push {lr}`: the hook would pop a word that is not the caller; fix: "
                            "compile it with the GCC -pg sequence or without -pg", c->hook_name, pc);
                else if (high_into_lr >= 0)
                    finding(c, 1, f->name, "the prologue moves r%d into lr before `push {lr}; bl "
                            "%s`, so the hook takes r%d as the caller (GCC on ARMv6-M saving "
                            "r8-r11); fix: compile with -ffixed-r8 -ffixed-r9 -ffixed-r10 "
                            "-ffixed-r11 (mcuprof_instrument() adds them for v6-M)",
                            high_into_lr, c->hook_name, high_into_lr);
            }
        } else if (wide && (hw & 0xf800) == 0xf000 && (hw2 & 0xd000) == 0x9000) {
            /* B.W (T4) */
            if (add_branch(c, fi, pc, thumb_bl_target(pc, hw, hw2)) < 0)
                return -1;
        } else if (wide && (hw & 0xf800) == 0xf000 && (hw2 & 0xd000) == 0x8000 &&
                   ((hw >> 6) & 0xf) < 14) {
            /* B<cond>.W (T3) */
            uint64_t off = sext((uint64_t)((hw >> 10) & 1) << 20 | ((hw2 >> 11) & 1u) << 19 |
                                    ((hw2 >> 13) & 1u) << 18 | (hw & 0x3fu) << 12 |
                                    (hw2 & 0x7ffu) << 1, 21);

            if (add_branch(c, fi, pc, (pc + 4 + off) & 0xffffffffu) < 0)
                return -1;
        } else if (!wide && (hw & 0xf800) == 0xe000) {
            /* B (T2) */
            if (add_branch(c, fi, pc, (pc + 4 + sext((hw & 0x7ffu) << 1, 12)) & 0xffffffffu) < 0)
                return -1;
        } else if (!wide && (hw & 0xf000) == 0xd000 && ((hw >> 8) & 0xf) < 14) {
            /* B<cond> (T1) */
            if (add_branch(c, fi, pc, (pc + 4 + sext((hw & 0xffu) << 1, 9)) & 0xffffffffu) < 0)
                return -1;
        }
        prev = wide ? 0xffffffffu : hw;
        pc += wide ? 4 : 2;
    }
    return 0;
}

/* Does the Thumb handler F reach TARGET by a branch or a literal (ldr rX,
 * =TARGET; bx rX)? */
static int thumb_reaches(const struct ck *c, const struct ck_sym *f, uint64_t target)
{
    uint64_t pc = f->addr, end = f->addr + (f->size ? f->size : 16);

    while (pc + 2 <= end) {
        uint32_t hw, hw2 = 0, lit;
        int wide;

        if (rd16(c, pc, &hw) < 0)
            return 0;
        wide = (hw >> 11) == 0x1d || (hw >> 11) == 0x1e || (hw >> 11) == 0x1f;
        if (wide && rd16(c, pc + 2, &hw2) < 0)
            return 0;
        if (!wide && (hw & 0xf800) == 0x4800 &&
            rd32(c, ((pc + 4) & ~(uint64_t)3) + (hw & 0xffu) * 4, &lit) == 0 &&
            (lit & ~1u) == target)
            return 1;
        if (wide && (hw & 0xf800) == 0xf000 && (hw2 & 0x9000) == 0x9000 &&
            thumb_bl_target(pc, hw, hw2) == target)
            return 1;
        if (!wide && (hw & 0xf800) == 0xe000 &&
            ((pc + 4 + sext((hw & 0x7ffu) << 1, 12)) & 0xffffffffu) == target)
            return 1;
        pc += wide ? 4 : 2;
    }
    return 0;
}

/* ---- RISC-V --------------------------------------------------------------- */

/* The integer register an RV instruction writes (0: none or x0). Only
 * a0 matters here, so FP and CSR writes may come out as 0. */
static unsigned rv_dest(uint32_t ins, int len, int is64)
{
    if (len == 4) {
        switch (ins & 0x7f) {
        case 0x23: case 0x63: case 0x27: case 0x07: case 0x53: case 0x0f:
            return 0; /* stores, branches, FP, fences */
        default:
            return (ins >> 7) & 0x1f;
        }
    }
    switch ((ins & 3) << 3 | ((ins >> 13) & 7)) {
    case 0 << 3 | 0: case 0 << 3 | 2: case 0 << 3 | 3:
        return 8 + ((ins >> 2) & 7); /* c.addi4spn, c.lw, c.ld: rd' */
    case 1 << 3 | 0: case 1 << 3 | 2: case 1 << 3 | 3:
    case 2 << 3 | 0: case 2 << 3 | 2: case 2 << 3 | 3:
        return (ins >> 7) & 0x1f;
    case 1 << 3 | 1:
        return is64 ? (ins >> 7) & 0x1f : 1; /* c.addiw; RV32 c.jal writes ra */
    case 1 << 3 | 4:
        return 8 + ((ins >> 7) & 7); /* c.srli .. c.and: rd' */
    case 2 << 3 | 4:
        return (ins >> 2) & 0x1f ? (ins >> 7) & 0x1f : ((ins >> 12) & 1) ? 1 : 0; /* mv/add, jalr/jr */
    default:
        return 0;
    }
}

static int scan_riscv(struct ck *c, size_t fi)
{
    struct ck_sym *f = &c->syms[fi];
    uint64_t pc = f->addr, end = f->addr + f->size, mask = c->is64 ? ~(uint64_t)0 : 0xffffffffu;
    int a0_is_ra = 0, hooked = 0;
    int auipc_rd = -1;
    uint64_t auipc_val = 0;

    while (pc + 2 <= end) {
        uint32_t hw, w = 0;
        uint64_t target = 0;
        int len, link = -1, was_auipc = 0;

        if (rd16(c, pc, &hw) < 0)
            break;
        len = (hw & 3) == 3 ? 4 : 2;
        if (len == 4 && rd32(c, pc, &w) < 0)
            break;
        if (len == 2) {
            if ((hw & 0xe003) == 0xa001 || (!c->is64 && (hw & 0xe003) == 0x2001)) {
                /* c.j, c.jal (RV32) */
                uint64_t off = ((hw >> 12) & 1u) << 11 | ((hw >> 11) & 1u) << 4 |
                               ((hw >> 9) & 3u) << 8 | ((hw >> 8) & 1u) << 10 |
                               ((hw >> 7) & 1u) << 6 | ((hw >> 6) & 1u) << 7 |
                               ((hw >> 3) & 7u) << 1 | ((hw >> 2) & 1u) << 5;

                target = (pc + sext(off, 12)) & mask;
                link = (hw & 0xe003) == 0x2001 ? 1 : 0;
            }
        } else {
            uint32_t op = w & 0x7f, rd = (w >> 7) & 0x1f;

            if (op == 0x6f) { /* jal */
                uint64_t off = ((w >> 31) & 1u) << 20 | ((w >> 21) & 0x3ffu) << 1 |
                               ((w >> 20) & 1u) << 11 | ((w >> 12) & 0xffu) << 12;

                target = (pc + sext(off, 21)) & mask;
                link = rd == 0 ? 0 : rd == 1 ? 1 : -1;
            } else if (op == 0x17) { /* auipc */
                was_auipc = 1;
                auipc_rd = (int)rd;
                auipc_val = (pc + sext(w & 0xfffff000u, 32)) & mask;
            } else if (op == 0x67 && auipc_rd >= 0 && (int)((w >> 15) & 0x1f) == auipc_rd) {
                target = (auipc_val + sext(w >> 20, 12)) & mask; /* call / tail */
                link = rd == 0 ? 0 : rd == 1 ? 1 : -1;
            }
        }
        if (link == 1 && target == c->hook && !hooked) {
            hooked = 1;
            f->profiled = 1;
            if (!a0_is_ra)
                finding(c, 1, f->name, "the -pg call of %s at 0x%" PRIx64 " does not get ra in "
                        "a0 (`mv a0, ra`): the hook would take a0 as the caller; fix: compile it "
                        "with the GCC -pg sequence or without -pg", c->hook_name, pc);
        } else if (link == 0 && add_branch(c, fi, pc, target) < 0) {
            return -1;
        }
        if (!was_auipc)
            auipc_rd = -1;
        if (hw == 0x8506 || (len == 4 && w == 0x00008513)) /* mv a0, ra */
            a0_is_ra = 1;
        else if (rv_dest(len == 4 ? w : hw, len, c->is64) == 10)
            a0_is_ra = 0;
        pc += (uint64_t)len;
    }
    return 0;
}

/* ---- the checks ------------------------------------------------------------ */

static void check_tail_calls(struct ck *c)
{
    for (size_t i = 0; i < c->nbr; i++) {
        const struct ck_sym *from = &c->syms[c->br[i].from], *to = func_at(c, c->br[i].target);

        /* A function without the hook is invisible to gprof: its callee
         * being charged to its caller is what an inlined call would give. */
        if (!to || to == from || !to->profiled || !from->profiled)
            continue;
        finding(c, 1, from->name, "jumps to %s at 0x%" PRIx64 " instead of calling it (a tail "
                "call): %s's hook sees %s's caller as its own; fix: compile %s with "
                "-fno-optimize-sibling-calls (mcuprof_instrument() adds it)",
                to->name, c->br[i].pc, to->name, from->name, from->name);
    }
}

static int ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), k = strlen(tail);

    return n >= k && strcmp(s + n - k, tail) == 0;
}

static void check_names(struct ck *c)
{
    static const char *const early[] = {"Reset_Handler", "_start", "SystemInit", "__start"};

    for (size_t i = 0; i < c->nsyms; i++) {
        const struct ck_sym *s = &c->syms[i];

        if (!s->func || !s->profiled)
            continue;
        /* (the *_chain functions are the firmware's, called by the runtime) */
        if ((strncmp(s->name, "mcuprof_", 8) == 0 && !ends_with(s->name, "_chain")) ||
            strcmp(s->name, "__gnu_mcount_nc") == 0 || strcmp(s->name, "_mcount") == 0)
            finding(c, 1, s->name, "the runtime is built with -pg and calls its own hook; fix: "
                    "compile target/ without -pg (mcuprof_instrument() does)");
        for (size_t k = 0; k < sizeof(early) / sizeof(early[0]); k++) {
            if (strcmp(s->name, early[k]) == 0)
                finding(c, 1, s->name, "runs before .data and .bss are set up and calls the "
                        "hook; fix: __attribute__((no_instrument_function)) or compile it "
                        "without -pg");
        }
    }
}

static const struct ck_sym *func_or_label_at(const struct ck *c, uint64_t addr)
{
    const struct ck_sym *f = func_at(c, addr);

    if (f)
        return f;
    for (size_t i = 0; i < c->nsyms; i++) {
        if (c->syms[i].addr == addr && !c->syms[i].abs)
            return &c->syms[i];
    }
    return NULL;
}

/* Cortex-M: the SysTick slot (15) of the vector table, or any slot, must
 * reach mcuprof_sample_isr. */
static void check_vectors(struct ck *c)
{
    static const char *const tables[] = {"__isr_vector", "__Vectors", "g_pfnVectors",
                                         "__vectors", "vector_table", "_vectors"};
    const struct ck_sym *isr = sym_named(c, "mcuprof_sample_isr"), *sym;
    const struct ck_sec *vsec = NULL;
    uint64_t base = 0, limit;
    uint32_t word;

    if (!isr) {
        finding(c, 0, NULL, "the sampler is not linked (no mcuprof_sample_isr): no time "
                "profile; fix: link the runtime's sample_isr.S and start the sampler");
        return;
    }
    for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]) && !base; i++) {
        if ((sym = sym_named(c, tables[i])) != NULL && !sym->abs)
            base = sym->addr;
    }
    for (size_t i = 0; i < c->nsecs && !base; i++) {
        if (c->secs[i].name && (strcmp(c->secs[i].name, ".vectors") == 0 ||
                                strcmp(c->secs[i].name, ".isr_vector") == 0))
            base = c->secs[i].addr;
    }
    for (size_t i = 0; i < c->nsecs && !base; i++) { /* the lowest loaded section */
        if (!vsec || c->secs[i].addr < vsec->addr)
            vsec = &c->secs[i];
    }
    if (!base && vsec)
        base = vsec->addr;
    if (rd32(c, base + 15 * 4, &word) < 0) {
        finding(c, 0, NULL, "no vector table found (no .vectors or .isr_vector section): the "
                "sampler's vector is not checked");
        return;
    }
    sym = func_or_label_at(c, word & ~1u);
    if ((word & ~1u) == isr->addr || (sym && (sym->func || sym->size) && thumb_reaches(c, sym, isr->addr)))
        return;
    if (sym && sym->func) {
        const struct ck_sym *pc_fn = sym_named(c, "mcuprof_sample_pc");

        if (pc_fn && thumb_reaches(c, sym, pc_fn->addr))
            return;
    }
    /* another timer's slot may hold the sampler */
    limit = 16 + 240;
    for (uint64_t k = 16; k < limit; k++) {
        if (rd32(c, base + k * 4, &word) < 0)
            break;
        if ((word & ~1u) == isr->addr)
            return;
    }
    finding(c, 1, "SysTick", "the vector at 0x%" PRIx64 " leads to %s (0x%" PRIx32 "), not to "
            "mcuprof_sample_isr: no samples will be taken; fix: put mcuprof_sample_isr in the "
            "sampling timer's vector, or let the runtime's SysTick_Handler in (no "
            "NO_DEFAULT_VECTORS)", base + 15 * 4, sym ? sym->name : "no function", word);
}

/* Bins that hold the start of one function and the end of another (gprof
 * splits their samples by bytes), in a range read from the linker's
 * symbols. Reported where the function that starts inside the bin is
 * profiled (-falign-functions fixes it); the rest (libraries, assembly,
 * startup code) summed up. */
static int check_bins(struct ck *c)
{
    const struct ck_sym *shift = sym_named(c, "__mcuprof_bin_shift");
    struct mp_functab t;
    unsigned lines = 0, others = 0;
    uint64_t bin;

    if (!shift || !shift->abs || shift->addr < 1 || shift->addr > 24) {
        finding(c, 0, NULL, "no __mcuprof_bin_shift: linker/mcuprof.ld is not linked, so the "
                "histogram bins are not checked; fix: INCLUDE mcuprof.ld in the linker script");
        return 0;
    }
    bin = (uint64_t)1 << shift->addr;
    mp_diag_quiet(1);
    if (mp_functab_read(&t, c->path) < 0) {
        mp_diag_quiet(0);
        return 0;
    }
    mp_diag_quiet(0);
    for (int r = 0; r < 2; r++) {
        char lo_name[32], hi_name[32];
        const struct ck_sym *lo, *hi;

        snprintf(lo_name, sizeof(lo_name), "__mcuprof_range%d_low", r);
        snprintf(hi_name, sizeof(hi_name), "__mcuprof_range%d_high", r);
        lo = sym_named(c, lo_name);
        hi = sym_named(c, hi_name);
        if (!lo || !hi || hi->addr <= lo->addr)
            continue;
        for (size_t j = 1; j < t.n; j++) {
            const struct mp_func *f = &t.f[j], *p = &t.f[j - 1];
            const struct ck_sym *fs;

            if (f->addr < lo->addr || f->addr >= hi->addr || f->addr % bin == 0 ||
                p->end <= (f->addr & ~(bin - 1)) || p->addr < lo->addr)
                continue;
            fs = func_at(c, f->addr);
            if (!(fs && fs->profiled)) {
                others++;
                continue;
            }
            if (lines++ < MAX_BIN_LINES)
                finding(c, 0, f->name, "starts at 0x%" PRIx64 ", inside the %" PRIu64 "-byte bin "
                        "it shares with %s: gprof splits that bin's samples by bytes; fix: "
                        "-falign-functions=%" PRIu64 " (mcuprof_instrument() adds it; GCC ignores "
                        "it at -Os) or smaller bins (__mcuprof_bin_shift)",
                        f->addr, bin, p->name, bin < 32 ? bin : 32);
        }
    }
    if (lines > MAX_BIN_LINES)
        finding(c, 0, NULL, "%u more profiled functions start inside a bin (first %d listed)",
                lines - MAX_BIN_LINES, MAX_BIN_LINES);
    if (others)
        printf("%s: -: note: %u bins where a function without -pg starts (libraries, "
               "assembly, startup) are shared: gprof splits their samples by bytes\n", c->path, others);
    mp_functab_free(&t);
    return 0;
}

static int run_check(struct ck *c)
{
    GElf_Ehdr eh;
    const struct ck_sym *hook;

    if (!gelf_getehdr(c->elf, &eh))
        return mp_error(c->path, "unreadable ELF header: %s", elf_errmsg(-1));
    c->is64 = eh.e_ident[EI_CLASS] == ELFCLASS64;
    c->big = eh.e_ident[EI_DATA] == ELFDATA2MSB;
    if (eh.e_machine == EM_ARM_ && !c->is64) {
        c->arm = 1;
        c->hook_name = "__gnu_mcount_nc";
    } else if (eh.e_machine == EM_RISCV_) {
        c->hook_name = "_mcount";
    } else {
        return mp_error(c->path, "ELF machine %u is neither 32-bit ARM nor RISC-V: not a "
                                 "firmware mcuprof profiles", (unsigned)eh.e_machine);
    }
    if (load(c) < 0)
        return -1;
    hook = sym_named(c, c->hook_name);
    if (!hook || hook->abs)
        return mp_error(c->path, "no %s: nothing in it was compiled with -pg (or the runtime "
                                 "is not linked)", c->hook_name);
    c->hook = c->arm ? hook->addr & ~(uint64_t)1 : hook->addr;
    for (size_t i = 0; i < c->nsyms; i++) {
        if (!c->syms[i].func || !c->syms[i].size)
            continue;
        if ((c->arm ? scan_thumb(c, i) : scan_riscv(c, i)) < 0)
            return -1;
        c->profiled += (unsigned)c->syms[i].profiled;
    }
    if (!c->profiled)
        return mp_error(c->path, "no function calls %s: nothing in it was compiled with -pg",
                        c->hook_name);
    check_names(c);
    check_tail_calls(c);
    if (check_bins(c) < 0)
        return -1;
    if (c->arm)
        check_vectors(c);
    else
        printf("%s: -: note: mtvec is set at run time, so the ELF cannot show that the timer "
               "interrupt reaches mcuprof_trap_entry (point mtvec at the runtime's "
               "trap_vector)\n", c->path);
    return 0;
}

void mp_help_check(FILE *f)
{
    fputs("Usage: mcuprof check ELF\n"
          "\n"
          "Read a firmware built with -pg and say, per function, what will not be\n"
          "profiled exactly and how to fix it, one line each:\n"
          "  ELF: FUNCTION: error|warning: what; fix: how\n"
          "Errors (the profile would be wrong): the ARMv6-M prologue that hands the\n"
          "hook r8-r11 as the caller; tail calls left as jumps to profiled functions;\n"
          "a -pg call not set up as GCC does; the runtime built with -pg; code that\n"
          "runs before .data (Reset_Handler, _start, SystemInit) calling the hook; a\n"
          "SysTick vector that does not reach the sampler. Warnings: histogram bins\n"
          "shared by a profiled function and another (the bin size from\n"
          "__mcuprof_bin_shift), no sampler linked. On RISC-V, mtvec cannot be seen\n"
          "in the ELF (a note says so).\n"
          "\n"
          "Exit status: 0 no error (warnings allowed), 1 an error or an unreadable\n"
          "ELF, 2 a usage error.\n",
          f);
}

int mp_cmd_check(int argc, char **argv)
{
    static const struct option longopts[] = {{"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    char *pos[1];
    int npos = 0, opt, fd = -1, rc;
    struct ck c;

    while ((opt = mp_getopt(argc, argv, "h", longopts, pos, 1, &npos)) != -1) {
        if (opt == 'h') {
            mp_help_check(stdout);
            return MP_EXIT_OK;
        }
        return MP_EXIT_USAGE;
    }
    if (npos != 1) {
        mp_error(NULL, "check: needs exactly one ELF file (see 'mcuprof help check')");
        return MP_EXIT_USAGE;
    }
    memset(&c, 0, sizeof(c));
    c.path = pos[0];
    if (mp_elf_open(c.path, &fd, &c.elf) < 0)
        return MP_EXIT_FAIL;
    rc = run_check(&c);
    if (rc == 0) {
        if (c.errors || c.warnings)
            printf("%s: %u errors, %u warnings in %u profiled functions\n", c.path, c.errors,
                   c.warnings, c.profiled);
        else
            printf("%s: no findings in %u profiled functions\n", c.path, c.profiled);
    }
    fflush(stdout);
    mp_elf_close(fd, c.elf);
    free(c.syms);
    free(c.secs);
    free(c.br);
    if (rc < 0)
        return MP_EXIT_FAIL;
    return c.errors ? MP_EXIT_FAIL : MP_EXIT_OK;
}

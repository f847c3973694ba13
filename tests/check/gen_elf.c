/*
 * gen_elf.c - firmware ELFs for `mcuprof check`, written byte by byte
 * (no cross toolchain needed), for the tests (tests/check/run.sh) and the
 * benchmark (bench/check_scale/run.sh):
 *
 *   gen_elf firmware N OUT  Cortex-M: N profiled functions of 96 bytes
 *                           (push {lr}; bl __gnu_mcount_nc; a loop of 12
 *                           calls of other functions), a vector table
 *                           whose SysTick slot is mcuprof_sample_isr,
 *                           16-byte bins: no finding
 *   gen_elf overlap N OUT   Cortex-M: N units of 10 bytes (push {lr}; bl
 *                           __gnu_mcount_nc; b.w to the next unit), unit
 *                           I named by a function symbol that runs from
 *                           it to the end of the code: N - 1 tail calls
 *   gen_elf wrap OUT        RISC-V ELF64: a function symbol at
 *                           0xfffffffffffffffe of 4 bytes, one that runs
 *                           past its section, a section that runs past
 *                           the end of the address space
 *   gen_elf empty OUT       Cortex-M code with a symbol table that holds
 *                           only the null symbol
 *   gen_elf shared OUT      Cortex-M: 64 allocated sections over the same
 *                           bytes of the file
 */
#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SECS 80

struct buf {
    unsigned char *p;
    size_t n, cap;
};

static void put(struct buf *b, const void *data, size_t n)
{
    if (b->n + n > b->cap) {
        while (b->n + n > b->cap)
            b->cap = b->cap ? 2 * b->cap : 4096;
        b->p = realloc(b->p, b->cap);
        if (!b->p) {
            perror("gen_elf");
            exit(1);
        }
    }
    memcpy(b->p + b->n, data, n);
    b->n += n;
}

static void put16(struct buf *b, uint32_t v)
{
    unsigned char x[2] = {(unsigned char)v, (unsigned char)(v >> 8)};

    put(b, x, 2);
}

static void put32(struct buf *b, uint32_t v)
{
    put16(b, v & 0xffff);
    put16(b, v >> 16);
}

static void put64(struct buf *b, uint64_t v)
{
    put32(b, (uint32_t)v);
    put32(b, (uint32_t)(v >> 32));
}

/* Little-endian ELF of either class: sections, then their headers. */
struct sec {
    const char *name;
    uint32_t type;
    uint64_t flags, addr, size, entsize, off;
    uint32_t link, info;
    const struct buf *data; /* NULL: bytes of the section OFF_FROM names */
    int off_from;
};

struct elf {
    int is64;
    uint16_t machine;
    struct sec s[MAX_SECS];
    int n;
    struct buf shstr, str, sym;
};

static int add_sec(struct elf *e, const char *name, uint32_t type, uint64_t flags, uint64_t addr,
                   const struct buf *data)
{
    struct sec *s = &e->s[e->n];

    memset(s, 0, sizeof(*s));
    s->name = name;
    s->type = type;
    s->flags = flags;
    s->addr = addr;
    s->data = data; /* its size when written */
    s->off_from = -1;
    return e->n++;
}

static uint32_t add_str(struct buf *b, const char *s)
{
    uint32_t at = (uint32_t)b->n;

    put(b, s, strlen(s) + 1);
    return at;
}

static void add_sym(struct elf *e, const char *name, uint64_t value, uint64_t size, int type, int bind,
                    uint16_t shndx)
{
    uint32_t nm = name ? add_str(&e->str, name) : 0;
    unsigned char info = (unsigned char)(bind << 4 | type), other = 0;

    if (e->is64) {
        put32(&e->sym, nm);
        put(&e->sym, &info, 1);
        put(&e->sym, &other, 1);
        put16(&e->sym, shndx);
        put64(&e->sym, value);
        put64(&e->sym, size);
    } else {
        put32(&e->sym, nm);
        put32(&e->sym, (uint32_t)value);
        put32(&e->sym, (uint32_t)size);
        put(&e->sym, &info, 1);
        put(&e->sym, &other, 1);
        put16(&e->sym, shndx);
    }
}

static void elf_init(struct elf *e, int is64, uint16_t machine)
{
    memset(e, 0, sizeof(*e));
    e->is64 = is64;
    e->machine = machine;
    add_sec(e, "", SHT_NULL, 0, 0, NULL);
    add_str(&e->shstr, "");
    add_str(&e->str, "");
    add_sym(e, NULL, 0, 0, 0, 0, 0);
}

static void elf_write(struct elf *e, const char *path)
{
    struct buf out = {0};
    int strtab, symtab, shstrtab, i;
    uint64_t ehsize = e->is64 ? 64 : 52, shoff;
    uint32_t names[MAX_SECS];
    FILE *f;

    strtab = add_sec(e, ".strtab", SHT_STRTAB, 0, 0, &e->str);
    symtab = add_sec(e, ".symtab", SHT_SYMTAB, 0, 0, &e->sym);
    e->s[symtab].link = (uint32_t)strtab;
    e->s[symtab].info = 1;
    e->s[symtab].entsize = e->is64 ? 24 : 16;
    shstrtab = add_sec(e, ".shstrtab", SHT_STRTAB, 0, 0, &e->shstr);
    for (i = 0; i < e->n; i++)
        names[i] = i ? add_str(&e->shstr, e->s[i].name) : 0;
    for (i = 0; i < e->n; i++) {
        if (e->s[i].data)
            e->s[i].size = e->s[i].data->n;
    }
    /* room for the header (written last), then the data */
    put(&out, (unsigned char[64]){0}, ehsize);
    for (i = 1; i < e->n; i++) {
        struct sec *s = &e->s[i];

        if (!s->data) {
            s->off = s->off_from >= 0 ? e->s[s->off_from].off : out.n;
            continue;
        }
        while (out.n % 8)
            put(&out, "", 1);
        s->off = out.n;
        put(&out, s->data->p, s->data->n);
    }
    while (out.n % 8)
        put(&out, "", 1);
    shoff = out.n;
    for (i = 0; i < e->n; i++) {
        const struct sec *s = &e->s[i];

        put32(&out, names[i]);
        put32(&out, s->type);
        if (e->is64) {
            put64(&out, s->flags);
            put64(&out, s->addr);
            put64(&out, s->off);
            put64(&out, s->size);
            put32(&out, s->link);
            put32(&out, s->info);
            put64(&out, 2);
            put64(&out, s->entsize);
        } else {
            put32(&out, (uint32_t)s->flags);
            put32(&out, (uint32_t)s->addr);
            put32(&out, (uint32_t)s->off);
            put32(&out, (uint32_t)s->size);
            put32(&out, s->link);
            put32(&out, s->info);
            put32(&out, 2);
            put32(&out, (uint32_t)s->entsize);
        }
    }
    {
        struct buf h = {0};

        put(&h, ELFMAG, SELFMAG);
        put(&h, (unsigned char[]){e->is64 ? ELFCLASS64 : ELFCLASS32, ELFDATA2LSB, EV_CURRENT}, 3);
        put(&h, (unsigned char[9]){0}, 9);
        put16(&h, ET_EXEC);
        put16(&h, e->machine);
        put32(&h, EV_CURRENT);
        if (e->is64) {
            put64(&h, 0); /* entry */
            put64(&h, 0); /* phoff */
            put64(&h, shoff);
        } else {
            put32(&h, 0);
            put32(&h, 0);
            put32(&h, (uint32_t)shoff);
        }
        put32(&h, e->machine == EM_ARM ? 0x05000000u : 0); /* EABI5 */
        put16(&h, (uint16_t)ehsize);
        put16(&h, e->is64 ? 56 : 32);
        put16(&h, 0);
        put16(&h, e->is64 ? 64 : 40);
        put16(&h, (uint16_t)e->n);
        put16(&h, (uint16_t)shstrtab);
        memcpy(out.p, h.p, h.n);
        free(h.p);
    }
    f = fopen(path, "wb");
    if (!f || fwrite(out.p, 1, out.n, f) != out.n || fclose(f) != 0) {
        perror(path);
        exit(1);
    }
    free(out.p);
}

/* ---- Thumb ---------------------------------------------------------------- */

/* BL (LINK) or B.W at PC to TARGET. */
static void thumb_bl(struct buf *b, uint32_t pc, uint32_t target, int link)
{
    int32_t off = (int32_t)(target - (pc + 4));
    uint32_t s = (uint32_t)off >> 31 & 1, i1 = (uint32_t)off >> 23 & 1, i2 = (uint32_t)off >> 22 & 1;
    uint32_t j1 = !(i1 ^ s), j2 = !(i2 ^ s);

    put16(b, 0xf000 | s << 10 | ((uint32_t)off >> 12 & 0x3ff));
    put16(b, (link ? 0xd000 : 0x9000) | j1 << 13 | j2 << 11 | ((uint32_t)off >> 1 & 0x7ff));
}

#define TEXT 0x00000400u
#define FUNC_BYTES 96u
#define CALLS 12

static void add_bins(struct elf *e, uint64_t lo, uint64_t hi, uint16_t text)
{
    add_sym(e, "__mcuprof_bin_shift", 4, 0, STT_NOTYPE, STB_GLOBAL, SHN_ABS);
    add_sym(e, "__mcuprof_range0_low", lo, 0, STT_NOTYPE, STB_GLOBAL, text);
    add_sym(e, "__mcuprof_range0_high", hi, 0, STT_NOTYPE, STB_GLOBAL, text);
}

/* The runtime's pieces every Cortex-M firmware here has: the hook and the
 * sampler (no -pg), 16 bytes each from AT; and the vector table. */
static uint32_t thumb_runtime(struct elf *e, struct buf *text, struct buf *vec, uint16_t ntext)
{
    uint32_t hook = TEXT + (uint32_t)text->n;

    put16(text, 0x4770); /* bx lr */
    while (text->n % 16)
        put16(text, 0xbf00);
    put16(text, 0x4770);
    while (text->n % 16)
        put16(text, 0xbf00);
    add_sym(e, "__gnu_mcount_nc", hook | 1, 2, STT_FUNC, STB_GLOBAL, ntext);
    add_sym(e, "mcuprof_sample_isr", (hook + 16) | 1, 2, STT_FUNC, STB_GLOBAL, ntext);
    put32(vec, 0x20010000); /* initial SP */
    for (int k = 1; k < 16; k++)
        put32(vec, k == 15 ? (hook + 16) | 1 : 0);
    return hook;
}

static void gen_firmware(struct elf *e, uint32_t n)
{
    static struct buf text, vec;
    static char name[32];
    uint32_t hook, first;
    int ntext, nvec;

    elf_init(e, 0, EM_ARM);
    nvec = add_sec(e, ".isr_vector", SHT_PROGBITS, SHF_ALLOC, 0, &vec);
    ntext = add_sec(e, ".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, TEXT, &text);
    hook = thumb_runtime(e, &text, &vec, (uint16_t)ntext);
    first = TEXT + (uint32_t)text.n;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t at = first + i * FUNC_BYTES, pc;
        size_t start = text.n;

        put16(&text, 0xb500); /* push {lr} */
        thumb_bl(&text, at + 2, hook, 1);
        put16(&text, 0xb510); /* push {r4, lr} */
        put16(&text, 0x2400); /* movs r4, #0 */
        for (int k = 0; k < CALLS; k++) {
            uint32_t callee = (i * 7u + (uint32_t)k * 131u + 1u) % n;

            pc = TEXT + (uint32_t)text.n;
            thumb_bl(&text, pc, first + callee * FUNC_BYTES, 1);
            put16(&text, 0x3401); /* adds r4, #1 */
        }
        put16(&text, 0x2c08); /* cmp r4, #8 */
        pc = TEXT + (uint32_t)text.n;
        /* bne back to the loop's first call */
        put16(&text, 0xd100 | (((at + 10) - (pc + 4)) >> 1 & 0xff));
        put16(&text, 0xbd10); /* pop {r4, pc} */
        while (text.n - start < FUNC_BYTES)
            put16(&text, 0xbf00);
        snprintf(name, sizeof(name), "fn%05u", i);
        add_sym(e, name, at | 1, FUNC_BYTES - 8, STT_FUNC, STB_GLOBAL, (uint16_t)ntext);
    }
    add_sym(e, "__isr_vector", 0, vec.n, STT_OBJECT, STB_GLOBAL, (uint16_t)nvec);
    add_bins(e, TEXT, TEXT + text.n, (uint16_t)ntext);
}

static void gen_overlap(struct elf *e, uint32_t n)
{
    static struct buf text, vec;
    static char name[32];
    uint32_t hook, first, end;
    int ntext;

    elf_init(e, 0, EM_ARM);
    add_sec(e, ".isr_vector", SHT_PROGBITS, SHF_ALLOC, 0, &vec);
    ntext = add_sec(e, ".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, TEXT, &text);
    hook = thumb_runtime(e, &text, &vec, (uint16_t)ntext);
    first = TEXT + (uint32_t)text.n;
    end = first + n * 10;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t at = first + i * 10;

        put16(&text, 0xb500);
        thumb_bl(&text, at + 2, hook, 1);
        thumb_bl(&text, at + 6, at + 10, 0);
        snprintf(name, sizeof(name), "u%05u", i);
        add_sym(e, name, at | 1, end - at, STT_FUNC, STB_GLOBAL, (uint16_t)ntext);
    }
    add_bins(e, first, first, (uint16_t)ntext);
}

static void gen_empty(struct elf *e)
{
    static struct buf text;

    elf_init(e, 0, EM_ARM);
    add_sec(e, ".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, TEXT, &text);
    put16(&text, 0x4770);
}

static void gen_shared(struct elf *e)
{
    static struct buf text, vec;
    static char names[64][16];
    int ntext;

    elf_init(e, 0, EM_ARM);
    ntext = add_sec(e, ".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, TEXT, &text);
    thumb_runtime(e, &text, &vec, (uint16_t)ntext);
    while (text.n < 4096)
        put16(&text, 0xbf00);
    for (int k = 0; k < 64; k++) {
        int s;

        snprintf(names[k], sizeof(names[k]), ".copy%d", k);
        s = add_sec(e, names[k], SHT_PROGBITS, SHF_ALLOC, 0x10000000u + (uint32_t)k * 0x10000u, NULL);
        e->s[s].size = text.n;
        e->s[s].off_from = ntext;
    }
}

/* ---- RISC-V ---------------------------------------------------------------- */

static void gen_wrap(struct elf *e)
{
    static struct buf text, high;
    int ntext;

    elf_init(e, 1, EM_RISCV);
    ntext = add_sec(e, ".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 0, &text);
    put16(&text, 0x0001); /* nop (an address 0 would read as no hook) */
    put16(&text, 0x8082); /* _mcount: ret */
    /* main: addi sp,sp,-16; sd ra,8(sp); mv a0,ra; jal ra,_mcount */
    put16(&text, 0x1141);
    put16(&text, 0xe406);
    put16(&text, 0x8506);
    /* jal ra, -8: imm[20|10:1|11|19:12] of 0x1ffff8 */
    put32(&text, 1u << 31 | 0x3fcu << 21 | 1u << 20 | 0xffu << 12 | 1u << 7 | 0x6f);
    put16(&text, 0x60a2); /* ld ra,8(sp) */
    put16(&text, 0x0141); /* addi sp,sp,16 */
    put16(&text, 0x8082); /* ret */
    add_sym(e, "_mcount", 2, 2, STT_FUNC, STB_GLOBAL, (uint16_t)ntext);
    add_sym(e, "main", 4, text.n - 4, STT_FUNC, STB_GLOBAL, (uint16_t)ntext);
    add_sym(e, "wrapped", UINT64_C(0xfffffffffffffffe), 4, STT_FUNC, STB_GLOBAL, (uint16_t)ntext);
    add_sym(e, "outside", text.n - 2, 8, STT_FUNC, STB_GLOBAL, (uint16_t)ntext);
    while (high.n < 512)
        put16(&high, 0x0001);
    add_sec(e, ".high", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, UINT64_C(0xffffffffffffff00), &high);
    add_sym(e, "__mcuprof_bin_shift", 4, 0, STT_NOTYPE, STB_GLOBAL, SHN_ABS);
}

int main(int argc, char **argv)
{
    static struct elf e;
    const char *kind = argc > 1 ? argv[1] : "";

    if ((strcmp(kind, "firmware") == 0 || strcmp(kind, "overlap") == 0) && argc == 4) {
        long n = strtol(argv[2], NULL, 0);

        if (n < 2 || n > 1000000) {
            fprintf(stderr, "gen_elf: N from 2 to 1000000\n");
            return 2;
        }
        if (kind[0] == 'f')
            gen_firmware(&e, (uint32_t)n);
        else
            gen_overlap(&e, (uint32_t)n);
        elf_write(&e, argv[3]);
        return 0;
    }
    if (argc == 3 && strcmp(kind, "wrap") == 0)
        gen_wrap(&e);
    else if (argc == 3 && strcmp(kind, "empty") == 0)
        gen_empty(&e);
    else if (argc == 3 && strcmp(kind, "shared") == 0)
        gen_shared(&e);
    else {
        fprintf(stderr, "usage: gen_elf firmware|overlap N OUT | gen_elf wrap|empty|shared OUT\n");
        return 2;
    }
    elf_write(&e, argv[2]);
    return 0;
}

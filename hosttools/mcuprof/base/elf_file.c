/*
 * elf_file.c - reading and checking an ELF (elf_file.h).
 */
#include "elf_file.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "diag.h"
#include "elf_note.h"
#include "file_io.h"

/* Sizes of the class's headers and symbols: [is64]. */
static const unsigned ehdr_size[2] = {52, 64}, shdr_size[2] = {40, 64}, phdr_size[2] = {32, 56},
                      sym_size[2] = {16, 24};

#define PN_XNUM 0xffff

/* Does [OFF, OFF + N * ENT) lie inside SIZE bytes? *END: where it ends
 * (UINT64_MAX when that overflows). */
static int inside(uint64_t off, uint64_t n, uint64_t ent, size_t size, uint64_t *end)
{
    uint64_t len;

    if (ent && n > UINT64_MAX / ent) {
        *end = UINT64_MAX;
        return 0;
    }
    len = n * ent;
    *end = off > UINT64_MAX - len ? UINT64_MAX : off + len;
    return *end <= size;
}

/* A field of N bytes (4 or 8: the class's address width, or 2 or 4). */
static uint64_t field(const struct mp_elf_file *f, const uint8_t *p, unsigned n)
{
    return n == 8 ? mp_get64(p, f->big) : n == 4 ? mp_get32(p, f->big) : mp_get16(p, f->big);
}

static void read_shdr(const struct mp_elf_file *f, const uint8_t *p, struct mp_elf_shdr *s)
{
    unsigned w = f->is64 ? 8 : 4;

    s->name = mp_get32(p, f->big);
    s->type = mp_get32(p + 4, f->big);
    s->flags = field(f, p + 8, w);
    s->addr = field(f, p + 8 + w, w);
    s->offset = field(f, p + 8 + 2 * w, w);
    s->size = field(f, p + 8 + 3 * w, w);
    s->link = mp_get32(p + 8 + 4 * w, f->big);
    s->info = mp_get32(p + 12 + 4 * w, f->big);
    s->addralign = field(f, p + 16 + 4 * w, w);
    s->entsize = field(f, p + 16 + 5 * w, w);
}

static void read_phdr(const struct mp_elf_file *f, const uint8_t *p, struct mp_elf_phdr *s)
{
    s->type = mp_get32(p, f->big);
    if (f->is64) {
        s->flags = mp_get32(p + 4, f->big);
        s->offset = mp_get64(p + 8, f->big);
        s->vaddr = mp_get64(p + 16, f->big);
        s->paddr = mp_get64(p + 24, f->big);
        s->filesz = mp_get64(p + 32, f->big);
        s->memsz = mp_get64(p + 40, f->big);
        s->align = mp_get64(p + 48, f->big);
    } else {
        s->offset = mp_get32(p + 4, f->big);
        s->vaddr = mp_get32(p + 8, f->big);
        s->paddr = mp_get32(p + 12, f->big);
        s->filesz = mp_get32(p + 16, f->big);
        s->memsz = mp_get32(p + 20, f->big);
        s->flags = mp_get32(p + 24, f->big);
        s->align = mp_get32(p + 28, f->big);
    }
}

/* Can the section names be read: is the name table a string table in
 * the file, ending with a NUL? (Until it is checked, messages name
 * sections by number.) */
static int names_readable(const struct mp_elf_file *f)
{
    const struct mp_elf_shdr *s = f->shstrndx && f->shstrndx < f->shnum ? &f->sh[f->shstrndx] : NULL;
    uint64_t end;

    return s && s->type == MP_SHT_STRTAB && s->size && inside(s->offset, 1, s->size, f->size, &end) &&
           f->data[s->offset + s->size - 1] == '\0';
}

/* "section 7 (.symtab)" for messages, the name when it can be read. */
static const char *sec_label(const struct mp_elf_file *f, size_t i, char *buf, size_t size)
{
    const char *name = names_readable(f) ? mp_elf_section_name(f, i) : NULL;

    if (name && name[0])
        snprintf(buf, size, "section %zu (%s)", i, name);
    else
        snprintf(buf, size, "section %zu", i);
    return buf;
}

/* The ELF header: class, byte order, and the fields the rest takes. */
static int read_ehdr(struct mp_elf_file *f, uint64_t *shoff, uint64_t *phoff, unsigned *shnum,
                     unsigned *phnum, unsigned *shstrndx)
{
    const uint8_t *d = f->data;
    unsigned cls, order, w, shent, phent;

    if (f->size < 16 || memcmp(d, "\177ELF", 4) != 0)
        return mp_error(f->path, "not an ELF file");
    cls = d[MP_EI_CLASS];
    order = d[MP_EI_DATA];
    if (cls != MP_ELFCLASS32 && cls != MP_ELFCLASS64)
        return mp_error(f->path, "not an ELF file: its class (EI_CLASS %u) is neither 32- nor 64-bit", cls);
    if (order != MP_ELFDATA2LSB && order != MP_ELFDATA2MSB)
        return mp_error(f->path, "not an ELF file: its byte order (EI_DATA %u) is neither little- nor "
                                 "big-endian", order);
    f->is64 = cls == MP_ELFCLASS64;
    f->big = order == MP_ELFDATA2MSB;
    if (f->size < ehdr_size[f->is64])
        return mp_error(f->path, "truncated or corrupt ELF header: the file has %zu bytes, the header "
                                 "of a %u-bit ELF %u", f->size, f->is64 ? 64 : 32, ehdr_size[f->is64]);
    w = f->is64 ? 8 : 4;
    f->type = mp_get16(d + 16, f->big);
    f->machine = mp_get16(d + 18, f->big);
    f->entry = field(f, d + 24, w);
    *phoff = field(f, d + 24 + w, w);
    *shoff = field(f, d + 24 + 2 * w, w);
    d += 24 + 3 * w;
    f->flags = mp_get32(d, f->big);
    phent = mp_get16(d + 6, f->big);
    *phnum = mp_get16(d + 8, f->big);
    shent = mp_get16(d + 10, f->big);
    *shnum = mp_get16(d + 12, f->big);
    *shstrndx = mp_get16(d + 14, f->big);
    if (*shoff && shent != shdr_size[f->is64])
        return mp_error(f->path, "e_shentsize %u is not the %u bytes of a %u-bit section header", shent,
                        shdr_size[f->is64], f->is64 ? 64 : 32);
    if (*phnum && phent != phdr_size[f->is64])
        return mp_error(f->path, "e_phentsize %u is not the %u bytes of a %u-bit program header", phent,
                        phdr_size[f->is64], f->is64 ? 64 : 32);
    if (!*shoff && (*shnum || (*shstrndx && *shstrndx != MP_SHN_XINDEX)))
        return mp_error(f->path, "e_shoff is 0, yet e_shnum is %u and e_shstrndx %u", *shnum, *shstrndx);
    return 0;
}

/* The header tables: counts (extended numbering), extents, and copies. */
static int read_tables(struct mp_elf_file *f, uint64_t shoff, uint64_t phoff, unsigned e_shnum,
                       unsigned e_phnum, unsigned e_shstrndx)
{
    struct mp_elf_shdr zero = {0};
    uint64_t shnum = e_shnum, phnum = e_phnum, sh_end = 0, ph_end = 0;
    unsigned sz = shdr_size[f->is64], pz = phdr_size[f->is64];

    if (shoff) {
        /* section 0 holds what does not fit the ELF header's fields */
        if (!inside(shoff, 1, sz, f->size, &sh_end))
            return mp_error(f->path, "truncated: its header tables end at byte %" PRIu64 " but the file "
                                     "has %zu bytes", sh_end, f->size);
        read_shdr(f, f->data + shoff, &zero);
        if (e_shnum == 0)
            shnum = zero.size;
        f->shstrndx = e_shstrndx == MP_SHN_XINDEX ? zero.link : e_shstrndx;
    }
    if (e_phnum == PN_XNUM && shoff)
        phnum = zero.info;
    int sh_in = inside(shoff, shnum, sz, f->size, &sh_end), ph_in = inside(phoff, phnum, pz, f->size, &ph_end);

    if (!sh_in || !ph_in) {
        uint64_t end = sh_end > ph_end ? sh_end : ph_end;

        if (end == UINT64_MAX)
            return mp_error(f->path, "truncated or corrupt: its header tables (%" PRIu64 " sections at "
                            "0x%" PRIx64 ", %" PRIu64 " segments at 0x%" PRIx64 ") end past 2^64",
                            shnum, shoff, phnum, phoff);
        return mp_error(f->path, "truncated: its header tables end at byte %" PRIu64 " but the file has "
                                 "%zu bytes", end, f->size);
    }
    /* (with no sections at all, no index is one) */
    if (f->shstrndx && f->shstrndx >= shnum)
        return mp_error(f->path, "e_shstrndx %zu is not a section: the file has %" PRIu64, f->shstrndx, shnum);
    /* both counts are now bounded by the file's size */
    f->shnum = (size_t)shnum;
    f->phnum = (size_t)phnum;
    if (f->shnum && !(f->sh = calloc(f->shnum, sizeof(*f->sh))))
        return mp_error(f->path, "out of memory for %zu section headers", f->shnum);
    if (f->phnum && !(f->ph = calloc(f->phnum, sizeof(*f->ph))))
        return mp_error(f->path, "out of memory for %zu program headers", f->phnum);
    for (size_t i = 0; i < f->shnum; i++)
        read_shdr(f, f->data + shoff + i * sz, &f->sh[i]);
    for (size_t i = 0; i < f->phnum; i++)
        read_phdr(f, f->data + phoff + i * pz, &f->ph[i]);
    return 0;
}

/* Section I's bytes lie in the file (SHT_NOBITS and SHT_NULL have none). */
static int check_extent(const struct mp_elf_file *f, size_t i)
{
    const struct mp_elf_shdr *s = &f->sh[i];
    uint64_t end;
    char label[96];

    if (s->type == MP_SHT_NOBITS || s->type == MP_SHT_NULL || inside(s->offset, 1, s->size, f->size, &end))
        return 0;
    return mp_error(f->path, "%s runs past the end of the file (offset 0x%" PRIx64 ", size %" PRIu64
                    "; the file has %zu bytes)", sec_label(f, i, label, sizeof(label)), s->offset,
                    s->size, f->size);
}

static int check_strtab(const struct mp_elf_file *f, size_t i)
{
    const struct mp_elf_shdr *s = &f->sh[i];
    char label[96];

    if (s->type != MP_SHT_STRTAB || s->size == 0 || f->data[s->offset + s->size - 1] == '\0')
        return 0;
    return mp_error(f->path, "%s: the string table does not end with a NUL",
                    sec_label(f, i, label, sizeof(label)));
}

static int check_symtab(const struct mp_elf_file *f, size_t i)
{
    const struct mp_elf_shdr *s = &f->sh[i];
    unsigned z = sym_size[f->is64];
    char label[96];

    if (s->type != MP_SHT_SYMTAB && s->type != MP_SHT_DYNSYM)
        return 0;
    sec_label(f, i, label, sizeof(label));
    if (s->link == 0 || s->link >= f->shnum)
        return mp_error(f->path, "%s: its string table (sh_link %u) is not a section: the file has %zu",
                        label, (unsigned)s->link, f->shnum);
    if (s->entsize != z)
        return mp_error(f->path, "%s: sh_entsize %" PRIu64 " is not the %u bytes of a %u-bit symbol", label,
                        s->entsize, z, f->is64 ? 64 : 32);
    if (s->size % z)
        return mp_error(f->path, "%s: its %" PRIu64 " bytes are not a whole number of %u-byte symbols",
                        label, s->size, z);
    return 0;
}

static int check_notes(const struct mp_elf_file *f, size_t i)
{
    const struct mp_elf_shdr *s = &f->sh[i];
    struct mp_elf_note n;
    const uint8_t *d;
    size_t len, off = 0;
    char why[128], label[96];
    int r;

    if (s->type != MP_SHT_NOTE || !(d = mp_elf_section_data(f, i, &len)))
        return 0;
    while ((r = mp_elf_note_next(d, len, f->big, s->addralign == 8 ? 8 : 4, &off, &n, why, sizeof(why))) > 0)
        ;
    if (r == 0)
        return 0;
    return mp_error(f->path, "%s: %s", sec_label(f, i, label, sizeof(label)), why);
}

/* The name table first: the other sections' messages name them. */
static int check_sections(const struct mp_elf_file *f)
{
    if (f->shstrndx && (check_extent(f, f->shstrndx) < 0 || check_strtab(f, f->shstrndx) < 0))
        return -1;
    if (f->shstrndx && f->sh[f->shstrndx].type != MP_SHT_STRTAB) {
        char label[32];

        return mp_error(f->path, "e_shstrndx: %s is not a string table (sh_type %u)",
                        sec_label(f, f->shstrndx, label, sizeof(label)), (unsigned)f->sh[f->shstrndx].type);
    }
    for (size_t i = 1; i < f->shnum; i++) {
        if (check_extent(f, i) < 0 || check_strtab(f, i) < 0 || check_symtab(f, i) < 0 || check_notes(f, i) < 0)
            return -1;
    }
    return 0;
}

int mp_elf_file_from_memory(struct mp_elf_file *f, const char *path, const void *data, size_t size)
{
    uint64_t shoff = 0, phoff = 0;
    unsigned shnum = 0, phnum = 0, shstrndx = 0;

    memset(f, 0, sizeof(*f));
    f->path = path;
    f->data = data;
    f->size = size;
    if (read_ehdr(f, &shoff, &phoff, &shnum, &phnum, &shstrndx) < 0 ||
        read_tables(f, shoff, phoff, shnum, phnum, shstrndx) < 0 || check_sections(f) < 0) {
        mp_elf_file_close(f);
        return -1;
    }
    return 0;
}

int mp_elf_file_open(struct mp_elf_file *f, const char *path)
{
    uint8_t *data;
    size_t size;

    memset(f, 0, sizeof(*f));
    if (mp_read_whole_file(path, MP_ELF_FILE_MAX, &data, &size) < 0)
        return -1;
    if (mp_elf_file_from_memory(f, path, data, size) < 0) {
        free(data);
        return -1;
    }
    f->owned = data;
    return 0;
}

void mp_elf_file_close(struct mp_elf_file *f)
{
    free(f->sh);
    free(f->ph);
    free(f->owned);
    memset(f, 0, sizeof(*f));
}

const uint8_t *mp_elf_section_data(const struct mp_elf_file *f, size_t i, size_t *len)
{
    const struct mp_elf_shdr *s;

    *len = 0;
    if (i == 0 || i >= f->shnum)
        return NULL;
    s = &f->sh[i];
    if (s->type == MP_SHT_NOBITS || s->type == MP_SHT_NULL || s->size == 0)
        return NULL;
    *len = (size_t)s->size; /* checked against the file's size on opening */
    return f->data + s->offset;
}

const char *mp_elf_string(const struct mp_elf_file *f, size_t strtab, uint64_t off)
{
    const struct mp_elf_shdr *s;

    if (strtab == 0 || strtab >= f->shnum)
        return NULL;
    s = &f->sh[strtab];
    if (s->type != MP_SHT_STRTAB || off >= s->size)
        return NULL;
    /* every string table ends with a NUL (checked on opening) */
    return (const char *)f->data + s->offset + off;
}

const char *mp_elf_section_name(const struct mp_elf_file *f, size_t i)
{
    if (i >= f->shnum)
        return NULL;
    return mp_elf_string(f, f->shstrndx, f->sh[i].name);
}

size_t mp_elf_section_named(const struct mp_elf_file *f, const char *name)
{
    for (size_t i = 1; i < f->shnum; i++) {
        const char *n = mp_elf_section_name(f, i);

        if (n && strcmp(n, name) == 0)
            return i;
    }
    return 0;
}

size_t mp_elf_symbol_count(const struct mp_elf_file *f, size_t i)
{
    if (i == 0 || i >= f->shnum || (f->sh[i].type != MP_SHT_SYMTAB && f->sh[i].type != MP_SHT_DYNSYM))
        return 0;
    return (size_t)(f->sh[i].size / sym_size[f->is64]);
}

int mp_elf_symbol(const struct mp_elf_file *f, size_t i, size_t k, struct mp_elf_sym *sym)
{
    const uint8_t *p;

    if (k >= mp_elf_symbol_count(f, i))
        return -1;
    p = f->data + f->sh[i].offset + k * sym_size[f->is64];
    sym->name = mp_get32(p, f->big);
    if (f->is64) {
        sym->info = p[4];
        sym->other = p[5];
        sym->shndx = mp_get16(p + 6, f->big);
        sym->value = mp_get64(p + 8, f->big);
        sym->size = mp_get64(p + 16, f->big);
    } else {
        sym->value = mp_get32(p + 4, f->big);
        sym->size = mp_get32(p + 8, f->big);
        sym->info = p[12];
        sym->other = p[13];
        sym->shndx = mp_get16(p + 14, f->big);
    }
    return 0;
}

/*
 * test_elf_file.c - the tool's ELF reader (base/elf_file.h) on ELFs
 * written here byte by byte: ELF32 and ELF64 in either byte order, and
 * extended section numbering, read back field by field; then hostile
 * files (cut at every length, sections past the end, sizes that overflow,
 * a string table without its NUL, links and entry sizes out of range,
 * notes that run past their section): each one error naming the field,
 * never a read outside the file (run under valgrind or ASan to see it).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "diag.h"
#include "elf_file.h"
#include "elf_note.h"

/* ---- an ELF written from host structs ---------------------------------- */

enum { S_NULL, S_TEXT, S_SYMTAB, S_STRTAB, S_NOTE, S_SHSTRTAB, S_BSS, NSEC };

static const char shstrtab[] = "\0.text\0.symtab\0.strtab\0.note.gnu.build-id\0.shstrtab\0.bss";
static const char strtab[] = "\0main\0table";
static const uint8_t build_id[8] = {0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4};

struct img {
    int is64, big;
    /* the ELF header's fields a test may change before emit() */
    uint16_t shnum, shstrndx, phnum, shentsize, phentsize;
    uint64_t shoff, phoff; /* where the tables are written */
    uint64_t e_shoff;      /* what the ELF header says (shoff unless changed) */
    struct mp_elf_shdr sh[NSEC];
    struct mp_elf_phdr ph;
    uint8_t b[4096];
    size_t n;
};

static void put(struct img *m, size_t at, uint64_t v, unsigned size)
{
    for (unsigned i = 0; i < size; i++)
        m->b[at + i] = (uint8_t)(v >> 8 * (m->big ? size - 1 - i : i));
}

/* Put BYTES at the end, aligned to 8: their offset. */
static size_t append(struct img *m, const void *bytes, size_t len)
{
    size_t at = (m->n + 7) & ~(size_t)7;

    memcpy(m->b + at, bytes, len);
    m->n = at + len;
    return at;
}

static void section(struct img *m, int i, uint32_t name, uint32_t type, uint64_t flags, uint64_t addr,
                    const void *bytes, size_t len, uint32_t link, uint64_t entsize)
{
    struct mp_elf_shdr *s = &m->sh[i];

    memset(s, 0, sizeof(*s));
    s->name = name;
    s->type = type;
    s->flags = flags;
    s->addr = addr;
    s->offset = bytes ? append(m, bytes, len) : m->n;
    s->size = len;
    s->link = link;
    s->addralign = 4;
    s->entsize = entsize;
}

/* The symbols: null, main (a global function in .text), table (a local
 * object at an absolute address). */
static size_t symbols(const struct img *m, uint8_t *out)
{
    struct img t = *m;
    unsigned z = m->is64 ? 24 : 16;

    memset(t.b, 0, 3 * z);
    for (int k = 1; k < 3; k++) {
        size_t p = (size_t)k * z;
        uint32_t name = k == 1 ? 1 : 6;
        uint8_t info = k == 1 ? (1 << 4 | MP_STT_FUNC) : MP_STT_OBJECT;
        uint16_t shndx = k == 1 ? S_TEXT : MP_SHN_ABS;
        uint64_t value = k == 1 ? 0x101 : 0x20000000, size = k == 1 ? 16 : 64;

        put(&t, p, name, 4);
        if (m->is64) {
            t.b[p + 4] = info;
            put(&t, p + 6, shndx, 2);
            put(&t, p + 8, value, 8);
            put(&t, p + 16, size, 8);
        } else {
            put(&t, p + 4, value, 4);
            put(&t, p + 8, size, 4);
            t.b[p + 12] = info;
            put(&t, p + 14, shndx, 2);
        }
    }
    memcpy(out, t.b, 3 * z);
    return 3 * z;
}

/* Lay out the sections after the headers; the header tables go last. */
static void layout(struct img *m, int is64, int big)
{
    static const uint8_t text[16] = {0x80, 0xb5, 0x00, 0xaf};
    uint8_t syms[72], note[12 + 4 + sizeof(build_id)];

    memset(m, 0, sizeof(*m));
    m->is64 = is64;
    m->big = big;
    m->n = is64 ? 64 : 52;
    m->phoff = m->n;
    m->phnum = 1;
    m->phentsize = is64 ? 56 : 32;
    m->n += m->phentsize;
    section(m, S_TEXT, 1, MP_SHT_PROGBITS, MP_SHF_ALLOC | MP_SHF_EXECINSTR, 0x100, text, sizeof(text), 0, 0);
    section(m, S_SYMTAB, 7, MP_SHT_SYMTAB, 0, 0, syms, symbols(m, syms), S_STRTAB, is64 ? 24 : 16);
    section(m, S_STRTAB, 15, MP_SHT_STRTAB, 0, 0, strtab, sizeof(strtab), 0, 0);
    {
        struct img t = *m;

        put(&t, 0, 4, 4);
        put(&t, 4, sizeof(build_id), 4);
        put(&t, 8, MP_NT_GNU_BUILD_ID, 4);
        memcpy(t.b + 12, "GNU", 4);
        memcpy(t.b + 16, build_id, sizeof(build_id));
        memcpy(note, t.b, sizeof(note));
    }
    section(m, S_NOTE, 23, MP_SHT_NOTE, MP_SHF_ALLOC, 0x200, note, sizeof(note), 0, 0);
    section(m, S_SHSTRTAB, 42, MP_SHT_STRTAB, 0, 0, shstrtab, sizeof(shstrtab), 0, 0);
    section(m, S_BSS, 52, MP_SHT_NOBITS, MP_SHF_ALLOC | MP_SHF_WRITE, 0x20000000, NULL, 0x400, 0, 0);
    m->ph = (struct mp_elf_phdr){MP_PT_LOAD, 5, 0, 0x100, 0x8000, 0x10, 0x20, 4};
    m->shnum = NSEC;
    m->shstrndx = S_SHSTRTAB;
    m->shentsize = is64 ? 64 : 40;
    m->shoff = m->e_shoff = (m->n + 7) & ~(size_t)7;
    m->n = m->shoff + (size_t)NSEC * m->shentsize;
}

/* Write the headers into the bytes (after a test changed them). */
static void emit(struct img *m)
{
    unsigned w = m->is64 ? 8 : 4;
    size_t e = 24 + 3 * w, p = m->phoff;

    memcpy(m->b, "\177ELF", 4);
    m->b[4] = m->is64 ? MP_ELFCLASS64 : MP_ELFCLASS32;
    m->b[5] = m->big ? MP_ELFDATA2MSB : MP_ELFDATA2LSB;
    m->b[6] = 1;
    put(m, 16, 2, 2);
    put(m, 18, MP_EM_ARM, 2);
    put(m, 20, 1, 4);
    put(m, 24, 0x101, w);
    put(m, 24 + w, m->phoff, w);
    put(m, 24 + 2 * w, m->e_shoff, w);
    put(m, e, 0x05000400, 4);
    put(m, e + 4, m->is64 ? 64 : 52, 2);
    put(m, e + 6, m->phentsize, 2);
    put(m, e + 8, m->phnum, 2);
    put(m, e + 10, m->shentsize, 2);
    put(m, e + 12, m->shnum, 2);
    put(m, e + 14, m->shstrndx, 2);
    put(m, p, m->ph.type, 4);
    if (m->is64) {
        put(m, p + 4, m->ph.flags, 4);
        put(m, p + 8, m->ph.offset, 8);
        put(m, p + 16, m->ph.vaddr, 8);
        put(m, p + 24, m->ph.paddr, 8);
        put(m, p + 32, m->ph.filesz, 8);
        put(m, p + 40, m->ph.memsz, 8);
        put(m, p + 48, m->ph.align, 8);
    } else {
        put(m, p + 4, m->ph.offset, 4);
        put(m, p + 8, m->ph.vaddr, 4);
        put(m, p + 12, m->ph.paddr, 4);
        put(m, p + 16, m->ph.filesz, 4);
        put(m, p + 20, m->ph.memsz, 4);
        put(m, p + 24, m->ph.flags, 4);
        put(m, p + 28, m->ph.align, 4);
    }
    for (int i = 0; i < NSEC; i++) {
        const struct mp_elf_shdr *s = &m->sh[i];
        size_t q = m->shoff + (size_t)i * (m->is64 ? 64 : 40);

        put(m, q, s->name, 4);
        put(m, q + 4, s->type, 4);
        put(m, q + 8, s->flags, w);
        put(m, q + 8 + w, s->addr, w);
        put(m, q + 8 + 2 * w, s->offset, w);
        put(m, q + 8 + 3 * w, s->size, w);
        put(m, q + 8 + 4 * w, s->link, 4);
        put(m, q + 12 + 4 * w, s->info, 4);
        put(m, q + 16 + 4 * w, s->addralign, w);
        put(m, q + 16 + 5 * w, s->entsize, w);
    }
}

/* ---- sound files --------------------------------------------------------- */

static void read_back(int is64, int big)
{
    struct mp_elf_file f;
    struct mp_elf_sym sym;
    struct img m;
    const uint8_t *d;
    uint8_t id[64];
    size_t len;

    layout(&m, is64, big);
    emit(&m);
    mp_diag_reset();
    assert_int_equal(mp_elf_file_from_memory(&f, "fw.elf", m.b, m.n), 0);
    assert_int_equal(mp_error_count(), 0);
    assert_int_equal(f.is64, is64);
    assert_int_equal(f.big, big);
    assert_int_equal(f.machine, MP_EM_ARM);
    assert_int_equal(f.type, 2);
    assert_int_equal(f.entry, 0x101);
    assert_int_equal(f.flags, 0x05000400);
    assert_int_equal(f.shnum, NSEC);
    assert_int_equal(f.shstrndx, S_SHSTRTAB);
    assert_string_equal(mp_elf_section_name(&f, S_TEXT), ".text");
    assert_string_equal(mp_elf_section_name(&f, S_BSS), ".bss");
    assert_string_equal(mp_elf_section_name(&f, S_NULL), "");
    assert_null(mp_elf_section_name(&f, NSEC));
    assert_int_equal(mp_elf_section_named(&f, ".symtab"), S_SYMTAB);
    assert_int_equal(mp_elf_section_named(&f, ".data"), 0);
    assert_int_equal(f.sh[S_TEXT].addr, 0x100);
    assert_int_equal(f.sh[S_TEXT].flags, MP_SHF_ALLOC | MP_SHF_EXECINSTR);
    assert_non_null(d = mp_elf_section_data(&f, S_TEXT, &len));
    assert_int_equal(len, 16);
    assert_int_equal(d[0], 0x80);
    assert_int_equal(d[1], 0xb5);
    assert_null(mp_elf_section_data(&f, S_BSS, &len));
    assert_int_equal(len, 0);
    assert_int_equal(f.sh[S_BSS].size, 0x400);
    assert_null(mp_elf_section_data(&f, NSEC, &len));
    /* symbols */
    assert_int_equal(mp_elf_symbol_count(&f, S_SYMTAB), 3);
    assert_int_equal(mp_elf_symbol_count(&f, S_TEXT), 0);
    assert_int_equal(mp_elf_symbol(&f, S_SYMTAB, 1, &sym), 0);
    assert_string_equal(mp_elf_string(&f, S_STRTAB, sym.name), "main");
    assert_int_equal(sym.value, 0x101);
    assert_int_equal(sym.size, 16);
    assert_int_equal(MP_ELF_ST_TYPE(sym.info), MP_STT_FUNC);
    assert_int_equal(MP_ELF_ST_BIND(sym.info), MP_STB_GLOBAL);
    assert_int_equal(sym.shndx, S_TEXT);
    assert_int_equal(mp_elf_symbol(&f, S_SYMTAB, 2, &sym), 0);
    assert_string_equal(mp_elf_string(&f, S_STRTAB, sym.name), "table");
    assert_int_equal(sym.value, 0x20000000);
    assert_int_equal(sym.shndx, MP_SHN_ABS);
    assert_int_equal(MP_ELF_ST_BIND(sym.info), MP_STB_LOCAL);
    assert_int_equal(mp_elf_symbol(&f, S_SYMTAB, 3, &sym), -1);
    /* strings: only from a string table, only inside it */
    assert_null(mp_elf_string(&f, S_SYMTAB, 1));
    assert_null(mp_elf_string(&f, S_STRTAB, sizeof(strtab)));
    assert_string_equal(mp_elf_string(&f, S_STRTAB, 3), "in");
    /* the segment and the note */
    assert_int_equal(f.phnum, 1);
    assert_int_equal(f.ph[0].type, MP_PT_LOAD);
    assert_int_equal(f.ph[0].vaddr, 0x100);
    assert_int_equal(f.ph[0].paddr, 0x8000);
    assert_int_equal(f.ph[0].filesz, 0x10);
    assert_int_equal(f.ph[0].memsz, 0x20);
    assert_int_equal(f.ph[0].flags, 5);
    assert_int_equal(mp_elf_build_id(&f, id, sizeof(id)), sizeof(build_id));
    assert_memory_equal(id, build_id, sizeof(build_id));
    assert_int_equal(mp_elf_build_id(&f, id, 4), 0); /* too long for the room */
    mp_elf_file_close(&f);
}

static void elf32_le(void **s)
{
    (void)s;
    read_back(0, 0);
}

static void elf32_be(void **s)
{
    (void)s;
    read_back(0, 1);
}

static void elf64_le(void **s)
{
    (void)s;
    read_back(1, 0);
}

static void elf64_be(void **s)
{
    (void)s;
    read_back(1, 1);
}

/* More sections than e_shnum holds: the count in section 0's sh_size, the
 * name table's index in its sh_link, the segment count in its sh_info. */
static void extended_numbering(void **s)
{
    struct mp_elf_file f;
    struct img m;

    (void)s;
    for (int is64 = 0; is64 < 2; is64++) {
        layout(&m, is64, is64);
        m.shnum = 0;
        m.shstrndx = MP_SHN_XINDEX;
        m.phnum = 0xffff;
        m.sh[0].size = NSEC;
        m.sh[0].link = S_SHSTRTAB;
        m.sh[0].info = 1;
        emit(&m);
        mp_diag_reset();
        assert_int_equal(mp_elf_file_from_memory(&f, "big.elf", m.b, m.n), 0);
        assert_int_equal(f.shnum, NSEC);
        assert_int_equal(f.shstrndx, S_SHSTRTAB);
        assert_int_equal(f.phnum, 1);
        assert_string_equal(mp_elf_section_name(&f, S_NOTE), ".note.gnu.build-id");
        mp_elf_file_close(&f);
    }
}

/* ---- hostile files ------------------------------------------------------- */

/* M emitted and opened: refused with one error holding WANT. */
static void refused(struct img *m, const char *want)
{
    struct mp_elf_file f;

    emit(m);
    mp_diag_quiet(1);
    mp_diag_reset();
    assert_int_equal(mp_elf_file_from_memory(&f, "bad.elf", m->b, m->n), -1);
    mp_diag_quiet(0);
    assert_int_equal(mp_error_count(), 1);
    if (!strstr(mp_last_error(), want))
        fail_msg("error \"%s\" lacks \"%s\"", mp_last_error(), want);
    assert_null(f.sh);
    assert_null(f.ph);
}

/* Cut at every length: each one error, never a read past the cut (the
 * cut copy is a heap block of its own size, which ASan and valgrind
 * watch). */
static void truncated(void **s)
{
    for (int is64 = 0; is64 < 2; is64++) {
        struct img m;

        (void)s;
        layout(&m, is64, 0);
        emit(&m);
        for (size_t n = 0; n < m.n; n++) {
            uint8_t *cut = malloc(n ? n : 1);
            struct mp_elf_file f;

            assert_non_null(cut);
            memcpy(cut, m.b, n);
            mp_diag_quiet(1);
            mp_diag_reset();
            assert_int_equal(mp_elf_file_from_memory(&f, "cut.elf", cut, n), -1);
            mp_diag_quiet(0);
            assert_int_equal(mp_error_count(), 1);
            if (n < 16)
                assert_non_null(strstr(mp_last_error(), "not an ELF file"));
            else if (n < (is64 ? 64u : 52u))
                assert_non_null(strstr(mp_last_error(), "truncated or corrupt ELF header"));
            else
                assert_non_null(strstr(mp_last_error(), "truncated: its header tables end at byte"));
            free(cut);
        }
    }
}

static void bad_headers(void **s)
{
    struct img m;

    (void)s;
    layout(&m, 0, 0);
    m.b[4] = 3;
    memcpy(m.b, "\177ELF", 4);
    {
        struct mp_elf_file f;

        mp_diag_quiet(1);
        mp_diag_reset();
        assert_int_equal(mp_elf_file_from_memory(&f, "bad.elf", m.b, m.n), -1);
        mp_diag_quiet(0);
        assert_non_null(strstr(mp_last_error(), "EI_CLASS 3"));
    }
    layout(&m, 0, 0);
    m.shentsize = 64;
    refused(&m, "e_shentsize 64 is not the 40 bytes of a 32-bit section header");
    layout(&m, 1, 0);
    m.phentsize = 32;
    refused(&m, "e_phentsize 32 is not the 56 bytes of a 64-bit program header");
    layout(&m, 0, 0);
    m.shstrndx = NSEC;
    refused(&m, "e_shstrndx 7 is not a section");
    layout(&m, 0, 0);
    m.shnum = 0; /* extended numbering whose count is 0: no section at all */
    refused(&m, "e_shstrndx 5 is not a section: the file has 0");
    layout(&m, 0, 0);
    m.shstrndx = S_SYMTAB;
    refused(&m, "is not a string table");
    layout(&m, 1, 1);
    m.e_shoff = UINT64_MAX - 16;
    refused(&m, "truncated");
    layout(&m, 0, 0);
    m.shnum = 0;
    m.sh[0].size = 0xffffffff; /* extended count past the end */
    refused(&m, "truncated: its header tables end at byte");
    layout(&m, 1, 0);
    m.shnum = 0;
    m.sh[0].size = UINT64_MAX / 2; /* its product overflows */
    refused(&m, "end past 2^64");
}

static void bad_sections(void **s)
{
    struct img m;
    char want[160];

    (void)s;
    layout(&m, 0, 0);
    m.sh[S_TEXT].offset = m.n;
    snprintf(want, sizeof(want), "section 1 (.text) runs past the end of the file (offset 0x%zx, size 16; "
             "the file has %zu bytes)", m.n, m.n);
    refused(&m, want);
    layout(&m, 1, 0);
    m.sh[S_SYMTAB].size = UINT64_MAX - 8; /* offset + size wraps */
    refused(&m, "section 2 (.symtab) runs past the end of the file");
    layout(&m, 1, 0);
    m.sh[S_SHSTRTAB].offset = UINT64_MAX; /* before any name can be read */
    refused(&m, "section 5 runs past the end of the file");
    layout(&m, 0, 1);
    m.b[m.sh[S_STRTAB].offset + m.sh[S_STRTAB].size - 1] = 'x';
    refused(&m, "section 3 (.strtab): the string table does not end with a NUL");
    layout(&m, 0, 0);
    m.sh[S_SYMTAB].link = 99;
    refused(&m, "section 2 (.symtab): its string table (sh_link 99) is not a section: the file has 7");
    layout(&m, 0, 0);
    m.sh[S_SYMTAB].link = 0;
    refused(&m, "(sh_link 0) is not a section");
    layout(&m, 0, 0);
    m.sh[S_SYMTAB].size += 5; /* into the string table after it */
    refused(&m, "section 2 (.symtab): its 53 bytes are not a whole number of 16-byte symbols");
    layout(&m, 1, 0);
    m.sh[S_SYMTAB].entsize = 16;
    refused(&m, "section 2 (.symtab): sh_entsize 16 is not the 24 bytes of a 64-bit symbol");
    /* a NOBITS section may claim any size: it has no bytes in the file */
    layout(&m, 0, 0);
    m.sh[S_BSS].size = 0xffffffff;
    m.sh[S_BSS].offset = 0xffffffff;
    emit(&m);
    {
        struct mp_elf_file f;

        assert_int_equal(mp_elf_file_from_memory(&f, "bss.elf", m.b, m.n), 0);
        mp_elf_file_close(&f);
    }
}

static void bad_notes(void **s)
{
    struct img m;

    (void)s;
    layout(&m, 0, 0);
    put(&m, m.sh[S_NOTE].offset, 0x7fffffff, 4); /* namesz */
    refused(&m, "section 4 (.note.gnu.build-id): the note at offset 0x0 names an owner of 2147483647 "
                "bytes, past the end");
    layout(&m, 1, 1);
    put(&m, m.sh[S_NOTE].offset + 4, 0xfffffff0, 4); /* descsz */
    refused(&m, "section 4 (.note.gnu.build-id): the note at offset 0x0 has a descriptor of 4294967280 "
                "bytes, past the end");
    layout(&m, 0, 0);
    put(&m, m.sh[S_NOTE].offset + 4, 9, 4); /* one byte past */
    refused(&m, "has a descriptor of 9 bytes, past the end");
}

/* From a path: through the base layer's file reading, its errors named. */
static void from_path(void **s)
{
    char dir[] = "/tmp/mcuprof-elf-XXXXXX", path[64];
    struct mp_elf_file f;
    struct img m;
    FILE *out;

    (void)s;
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof(path), "%s/fw.elf", dir);
    layout(&m, 0, 0);
    emit(&m);
    assert_non_null(out = fopen(path, "wb"));
    assert_int_equal(fwrite(m.b, 1, m.n, out), m.n);
    assert_int_equal(fclose(out), 0);
    mp_diag_reset();
    assert_int_equal(mp_elf_file_open(&f, path), 0);
    assert_int_equal(f.size, m.n);
    assert_string_equal(mp_elf_section_name(&f, S_TEXT), ".text");
    mp_elf_file_close(&f);
    mp_diag_quiet(1);
    assert_int_equal(mp_elf_file_open(&f, dir), -1);
    assert_non_null(strstr(mp_last_error(), "is a directory"));
    unlink(path);
    assert_int_equal(mp_elf_file_open(&f, path), -1);
    assert_non_null(strstr(mp_last_error(), "cannot open"));
    mp_diag_quiet(0);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(elf32_le),      cmocka_unit_test(elf32_be),     cmocka_unit_test(elf64_le),
        cmocka_unit_test(elf64_be),      cmocka_unit_test(extended_numbering), cmocka_unit_test(truncated),
        cmocka_unit_test(bad_headers),   cmocka_unit_test(bad_sections), cmocka_unit_test(bad_notes),
        cmocka_unit_test(from_path),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * elf_note.c - an ELF's notes (elf_note.h), as gelf_getnote reads them.
 */
#include "elf_note.h"

#include <stdio.h>
#include <string.h>

#include "bytes.h"

/* OFF rounded up to ALIGN (4 or 8); SIZE_MAX when that overflows. */
static size_t align_up(size_t off, unsigned align)
{
    size_t a = off + (align - 1);

    return a < off ? SIZE_MAX : a & ~(size_t)(align - 1);
}

int mp_elf_note_next(const uint8_t *d, size_t len, int big, unsigned align, size_t *off,
                     struct mp_elf_note *n, char *why, size_t whylen)
{
    size_t at = *off, name, desc, end;

    if (at > len || len - at < 12)
        return 0;
    n->namesz = mp_get32(d + at, big);
    n->descsz = mp_get32(d + at + 4, big);
    n->type = mp_get32(d + at + 8, big);
    name = at + 12;
    if (n->namesz > len - name) {
        snprintf(why, whylen, "the note at offset 0x%zx names an owner of %u bytes, past the end", at,
                 (unsigned)n->namesz);
        return -1;
    }
    desc = align_up(name + n->namesz, align);
    if (desc > len || n->descsz > len - desc) {
        snprintf(why, whylen, "the note at offset 0x%zx has a descriptor of %u bytes, past the end", at,
                 (unsigned)n->descsz);
        return -1;
    }
    n->name = d + name;
    n->desc = d + desc;
    end = align_up(desc + n->descsz, align);
    *off = end > len ? len : end;
    return 1;
}

size_t mp_elf_build_id(const struct mp_elf_file *f, uint8_t *out, size_t max)
{
    for (size_t i = 1; i < f->shnum; i++) {
        struct mp_elf_note n;
        const uint8_t *d;
        size_t len, off = 0;
        char why[8];

        if (f->sh[i].type != MP_SHT_NOTE || !(d = mp_elf_section_data(f, i, &len)))
            continue;
        while (mp_elf_note_next(d, len, f->big, f->sh[i].addralign == 8 ? 8 : 4, &off, &n, why,
                                sizeof(why)) > 0) {
            if (n.type == MP_NT_GNU_BUILD_ID && n.namesz == 4 && memcmp(n.name, "GNU", 4) == 0 &&
                n.descsz > 0 && n.descsz <= max) {
                memcpy(out, n.desc, n.descsz);
                return n.descsz;
            }
        }
    }
    return 0;
}

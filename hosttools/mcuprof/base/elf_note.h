/*
 * elf_note.h - the notes of an ELF's SHT_NOTE sections (elf_file.h), and
 * the GNU build-id among them.
 */
#ifndef MCUPROF_ELF_NOTE_H
#define MCUPROF_ELF_NOTE_H

#include <stddef.h>
#include <stdint.h>

#include "elf_file.h"

struct mp_elf_note {
    uint32_t type;
    const uint8_t *name; /* namesz bytes, the owner ("GNU" and its NUL) */
    uint32_t namesz;
    const uint8_t *desc;
    uint32_t descsz;
};

/* The note at *OFF of the LEN bytes at D (BIG: big-endian; ALIGN: 4, or 8
 * for a section aligned to 8, which pads its descriptors to 8): 1 with N
 * set and *OFF moved past it, 0 when fewer bytes than a note header are
 * left, -1 when its name or descriptor runs past the end (WHY, WHYLEN: a
 * phrase saying which, with the offset). */
int mp_elf_note_next(const uint8_t *d, size_t len, int big, unsigned align, size_t *off,
                     struct mp_elf_note *n, char *why, size_t whylen);

/* The descriptor of the first NT_GNU_BUILD_ID note of owner "GNU" of at
 * most MAX bytes into OUT: its length, 0 when F has none. */
size_t mp_elf_build_id(const struct mp_elf_file *f, uint8_t *out, size_t max);

#endif /* MCUPROF_ELF_NOTE_H */

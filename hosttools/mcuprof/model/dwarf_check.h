/*
 * dwarf_check.h - the DWARF sections of a firmware ELF made safe to hand
 * to libdw, and checked to be well formed where libdw trusts them.
 *
 * libdw (elfutils 0.188, Debian 12) reads a string from .debug_str or
 * .debug_line_str up to its NUL without a bound, and reads some fields of
 * a line table header (a ULEB128 count, the byte after the header length)
 * before checking them against the unit's end: a section whose last NUL
 * was changed makes dwarf_getsrclines read past the heap block holding the
 * section. Two defences, both before libdw parses anything:
 *
 * - mp_dwarf_guard() gives libdw a private copy of each DWARF section
 *   with MP_DWARF_GUARD zero bytes after it: whatever libdw reads as a
 *   string from anywhere in a section stops at the first of them, and a
 *   fixed-size field read past the end (16 bytes at most, DW_FORM_data16)
 *   lies inside them. The over-reads we do not know of become harmless.
 * - mp_dwarf_check() then checks what libdw trusts, so a malformed
 *   section is named in one warning instead of read as garbage: the string
 *   sections end with a NUL, every line table (unit length, header,
 *   directory and file entries and their forms, every opcode) lies inside
 *   .debug_line, every string offset in them lies inside its section,
 *   every .debug_str_offsets entry inside .debug_str, and every unit's
 *   DW_AT_stmt_list names one of those line tables.
 *
 * What else the tool calls reads offsets libdw 0.188 checks itself (read
 * from its source): DW_AT_ranges into .debug_ranges/.debug_rnglists
 * (each entry against the section's end), DW_FORM_addrx into .debug_addr
 * (index against the section's size), .debug_aranges, DIE attributes
 * against their unit's end; a slip of a few bytes past a section's end
 * lands in the guard. Location lists are never read.
 *
 * Memory: the DWARF sections twice (libelf's and the copy; compressed ones
 * expanded, at most MP_DWARF_MAX_EXPANDED bytes together) plus 8 bytes
 * per line table; time linear in the sections' size.
 */
#ifndef MCUPROF_DWARF_CHECK_H
#define MCUPROF_DWARF_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include <elfutils/libdw.h>
#include <libelf.h>

/* Zero bytes after each section's private copy. */
#define MP_DWARF_GUARD 64

/* What the compressed DWARF sections of one ELF may expand to, together. */
#define MP_DWARF_MAX_EXPANDED (256u << 20)

/* The copies handed to libdw, and what mp_dwarf_check() found in them. */
struct mp_dwarf_guard {
    struct mp_dwarf_copy {
        Elf_Scn *scn;
        Elf_Data *data;
        void *orig, *copy;
    } *copies;
    size_t ncopies;
    uint64_t *line_units; /* offsets of the checked line tables, ascending */
    size_t nline_units;
};

/* Before dwarf_begin_elf(ELF): decompress each DWARF section of ELF (as
 * libdw would) and point its data at a private copy followed by
 * MP_DWARF_GUARD zero bytes. 0 when done; 1 with WHY set (as for
 * mp_dwarf_check) when the compressed sections expand to more than
 * MP_DWARF_MAX_EXPANDED bytes or one is compressed twice: libdw must then
 * not open ELF; -1 on out of memory (reported against PATH). G holds
 * nothing but on 0. */
int mp_dwarf_guard(struct mp_dwarf_guard *g, Elf *elf, const char *path, char *why, size_t whylen);

/* After dwarf_begin_elf (DW, on the guarded ELF PATH), before anything
 * reads lines: the checks above. 0 when the sections are well formed; -1
 * with WHY set to one sentence naming the section and the byte offset
 * (no trailing period), for a warning; -2 on out of memory (reported). */
int mp_dwarf_check(struct mp_dwarf_guard *g, Elf *elf, Dwarf *dw, const char *path, char *why, size_t whylen);

/* After dwarf_end: the ELF's own data back, the copies freed. Before
 * elf_end(ELF). */
void mp_dwarf_unguard(struct mp_dwarf_guard *g);

#endif /* MCUPROF_DWARF_CHECK_H */

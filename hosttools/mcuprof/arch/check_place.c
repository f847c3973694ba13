/*
 * check_place.c - `mcuprof check`: the profile image must lie in RAM,
 * clear of the vector table and of the stack (check_model.h). The rules
 * linker/mcuprof_place.ld applies at link time, read here from the
 * finished ELF, for firmware built some other way and for what the linker
 * could not know yet (symbols a script assigns after INCLUDE mcuprof.ld,
 * the initial stack pointer in the vector table).
 *
 * What the ELF shows of its memory, and so the limits: no region
 * attributes and no region ends. Not RAM are the ranges the architecture
 * fixes (the Cortex-M peripheral and system regions), any other section
 * the image overlaps, and the memory of the stored code: a firmware whose
 * data is copied at boot (a segment loaded at one address and run at
 * another) keeps its code and that data's initial values in flash, and a
 * NOLOAD image the linker put in that region follows them directly (at
 * the next 8-byte boundary). An image elsewhere in an unknown memory
 * passes. The stack: its top is the initial SP of the vector table, or
 * the script's symbol (__stack_top, __StackTop, _estack, __stack); its
 * bottom __stack_bottom, __StackLimit, or the top less _Min_Stack_Size or
 * __stack_size; with no bottom, an image the top lies inside of.
 */
#include "check_model.h"

#include <inttypes.h>
#include <limits.h>
#include <string.h>

#define FIX_RAM "fix: name your RAM region in REGION_ALIAS(\"MCUPROF_RAM\", ...) and INCLUDE mcuprof.ld after .data and .bss"

static int overlaps(uint64_t lo, uint64_t hi, uint64_t a, uint64_t b)
{
    return lo < b && a < hi;
}

/* The first of NAMES the ELF defines, or NULL. */
static const struct ck_sym *first_sym(const struct ck *c, const char *const *names, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const struct ck_sym *s = ck_sym_named(c, names[i]);

        if (s)
            return s;
    }
    return NULL;
}

static void check_sections(struct ck *c, uint64_t lo, uint64_t hi)
{
    for (size_t i = 1; i < c->elf.shnum; i++) {
        const struct mp_elf_shdr *sh = &c->elf.sh[i];
        const char *name;
        uint64_t end;

        if (!(sh->flags & MP_SHF_ALLOC) || !sh->size)
            continue;
        name = mp_elf_section_name(&c->elf, i);
        /* the image's own section, or one it was put inside of */
        end = ck_end(sh->addr, sh->size);
        if ((name && strcmp(name, ".mcuprof") == 0) || (sh->addr <= lo && end >= hi))
            continue;
        if (overlaps(lo, hi, sh->addr, end))
            ck_finding(c, 1, NULL, "the profile image (0x%" PRIx64 "..0x%" PRIx64 ") overlaps section %s "
                    "(0x%" PRIx64 "..0x%" PRIx64 "): one overwrites the other; " FIX_RAM,
                    lo, hi, name ? name : "?", sh->addr, end);
    }
}

/* The memory of the stored code: from the lowest stored byte to the end
 * of the last, when some data is copied at boot (else no flash to tell). */
static void check_flash(struct ck *c, uint64_t lo, uint64_t hi)
{
    uint64_t rom_lo = UINT64_MAX, rom_hi = 0;
    int copied = 0;

    for (size_t i = 0; i < c->elf.phnum; i++) {
        const struct mp_elf_phdr *ph = &c->elf.ph[i];
        uint64_t end;

        if (ph->type != MP_PT_LOAD || !ph->filesz)
            continue;
        end = ck_end(ph->paddr, ph->filesz);
        copied |= ph->paddr != ph->vaddr;
        if (ph->paddr < rom_lo)
            rom_lo = ph->paddr;
        if (end > rom_hi)
            rom_hi = end;
        if (overlaps(lo, hi, ph->paddr, end))
            ck_finding(c, 1, NULL, "the profile image (0x%" PRIx64 "..0x%" PRIx64 ") overlaps the bytes "
                    "the firmware stores at 0x%" PRIx64 "..0x%" PRIx64 " (code or initial data): it is "
                    "not in RAM; " FIX_RAM, lo, hi, ph->paddr, end);
    }
    if (copied && lo >= rom_hi && lo <= (ck_end(rom_hi, 7) & ~(uint64_t)7) && rom_lo < lo)
        ck_finding(c, 1, NULL, "the profile image (0x%" PRIx64 "..0x%" PRIx64 ") directly follows the "
                "code and initial data stored in flash (0x%" PRIx64 "..0x%" PRIx64 "): it was placed in "
                "the code's region, not RAM; " FIX_RAM, lo, hi, rom_lo, rom_hi);
}

static void check_stack(struct ck *c, uint64_t lo, uint64_t hi, uint64_t sp)
{
    static const char *const tops[] = {"__stack_top", "__StackTop", "_estack", "__stack"};
    static const char *const bottoms[] = {"__stack_bottom", "__StackLimit"};
    static const char *const sizes[] = {"_Min_Stack_Size", "__stack_size"};
    const struct ck_sym *s;
    uint64_t top = sp, bottom = 0;
    const char *from = "the initial SP in the vector table";

    if (!top && (s = first_sym(c, tops, sizeof(tops) / sizeof(tops[0]))) != NULL) {
        top = s->addr;
        from = s->name;
    }
    if (!top)
        return;
    if ((s = first_sym(c, bottoms, sizeof(bottoms) / sizeof(bottoms[0]))) != NULL && s->addr < top)
        bottom = s->addr;
    else if ((s = first_sym(c, sizes, sizeof(sizes) / sizeof(sizes[0]))) != NULL && s->abs && s->addr < top)
        bottom = top - s->addr;
    if (bottom && overlaps(lo, hi, bottom, top))
        ck_finding(c, 1, NULL, "the profile image (0x%" PRIx64 "..0x%" PRIx64 ") overlaps the stack "
                "(0x%" PRIx64 "..0x%" PRIx64 ", top from %s, bottom from %s): the stack overwrites the "
                "profile; fix: place the image below the stack's space (INCLUDE mcuprof.ld right after "
                ".bss) or make the stack smaller", lo, hi, bottom, top, from, s->name);
    else if (!bottom && lo < top && top <= hi)
        ck_finding(c, 1, NULL, "the profile image (0x%" PRIx64 "..0x%" PRIx64 ") holds the stack's top "
                "0x%" PRIx64 " (from %s): the stack grows down over the profile; fix: place the image "
                "below the stack's space (INCLUDE mcuprof.ld right after .bss)", lo, hi, top, from);
}

void ck_check_place(struct ck *c)
{
    const struct ck_sym *s0 = ck_sym_named(c, "__mcuprof_start"), *s1 = ck_sym_named(c, "__mcuprof_end");
    uint64_t lo, hi, base, size, sp = 0;

    if (!s0 || !s1 || s1->addr <= s0->addr)
        return;
    lo = s0->addr;
    hi = s1->addr;
    for (const struct mp_arch_span *r = c->arch->not_ram; r && r->hi; r++) {
        if (overlaps(lo, hi, r->lo, r->hi))
            ck_finding(c, 1, NULL, "the profile image (0x%" PRIx64 "..0x%" PRIx64 ") lies in %s, not "
                    "RAM; " FIX_RAM, lo, hi, r->what);
    }
    check_sections(c, lo, hi);
    check_flash(c, lo, hi);
    if (c->arch->vector_table && c->arch->vector_table(c, &base, &size, &sp) == 0 &&
        overlaps(lo, hi, base, ck_end(base, size)))
        ck_finding(c, 1, NULL, "the profile image (0x%" PRIx64 "..0x%" PRIx64 ") overlaps the vector "
                "table (0x%" PRIx64 "..0x%" PRIx64 "); " FIX_RAM, lo, hi, base, ck_end(base, size));
    check_stack(c, lo, hi, sp);
}

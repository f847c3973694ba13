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
 * From the symbols alone: each GCC clone binutils 2.40 gprof drops
 * (elf_funcs.h), named with the function gprof charges it to.
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
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clone_names.h"
#include "commands.h"
#include "cxx_demangle.h"
#include "diag.h"
#include "elf_funcs.h"
#include "elf_scan.h"
#include "text_safe.h"
#include "trust.h"

/* Shared bins, and symbols whose code cannot be read, listed one by one
 * before the rest are summed up. */
#define MAX_BIN_LINES 20
#define MAX_RANGE_LINES 20

/* ---- the checks ------------------------------------------------------------ */

static void check_tail_calls(struct ck *c)
{
    for (size_t i = 0; i < c->nbr; i++) {
        const struct ck_sym *from = &c->syms[c->br[i].from], *to = &c->syms[c->br[i].to];

        /* A function without the hook is invisible to gprof: its callee
         * being charged to its caller is what an inlined call would give. */
        if (c->br[i].call || !to->profiled || !from->profiled)
            continue;
        ck_finding(c, 1, from->name, "jumps to %s at 0x%" PRIx64 " instead of calling it (a tail "
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
        if ((strncmp(s->symbol, "mcuprof_", 8) == 0 && !ends_with(s->symbol, "_chain")) ||
            mp_arch_is_hook(s->symbol))
            ck_finding(c, 1, s->name, "the runtime is built with -pg and calls its own hook; fix: "
                    "compile target/ without -pg (mcuprof_instrument() does)");
        for (size_t k = 0; k < sizeof(early) / sizeof(early[0]); k++) {
            if (strcmp(s->symbol, early[k]) == 0)
                ck_finding(c, 1, s->name, "runs before .data and .bss are set up and calls the "
                        "hook; fix: __attribute__((no_instrument_function)) or compile it "
                        "without -pg");
        }
    }
}

/* Bins that hold the start of one function and the end of another (gprof
 * splits their samples by bytes), in a range read from the linker's
 * symbols. Reported where the function that starts inside the bin is
 * profiled (MP_ALIGN_FIX fixes it); the rest (libraries, assembly,
 * startup code) summed up. */
static void check_bins(struct ck *c, const struct mp_functab *tab)
{
    const struct ck_sym *shift = ck_sym_named(c, "__mcuprof_bin_shift");
    const struct mp_functab t = *tab;
    unsigned lines = 0, others = 0;
    uint64_t bin;
    char align_opt[40] = "";

    if (!shift || !shift->abs || shift->addr < 1 || shift->addr > 24) {
        ck_finding(c, 0, NULL, "no __mcuprof_bin_shift: linker/mcuprof.ld is not linked, so the "
                "histogram bins are not checked; fix: INCLUDE mcuprof.ld in the linker script");
        return;
    }
    bin = (uint64_t)1 << shift->addr;
    if (bin != 16)
        snprintf(align_opt, sizeof(align_opt), " -DMCUPROF_ALIGN=%" PRIu64, bin);
    for (int r = 0; r < 2; r++) {
        char lo_name[32], hi_name[32];
        const struct ck_sym *lo, *hi;

        snprintf(lo_name, sizeof(lo_name), "__mcuprof_range%d_low", r);
        snprintf(hi_name, sizeof(hi_name), "__mcuprof_range%d_high", r);
        lo = ck_sym_named(c, lo_name);
        hi = ck_sym_named(c, hi_name);
        if (!lo || !hi || hi->addr <= lo->addr)
            continue;
        for (size_t j = 1; j < t.n; j++) {
            const struct mp_func *f = &t.f[j], *p = &t.f[j - 1];
            const struct ck_sym *fs;

            if (f->addr < lo->addr || f->addr >= hi->addr || f->addr % bin == 0 ||
                p->end <= (f->addr & ~(bin - 1)) || p->addr < lo->addr)
                continue;
            fs = ck_func_at(c, f->addr);
            if (!(fs && fs->profiled)) {
                /* the hook's own labels sharing a bin: nothing to align */
                others += (unsigned)!(mp_runtime_symbol(f->name) && mp_runtime_symbol(p->name));
                continue;
            }
            if (lines++ < MAX_BIN_LINES)
                ck_finding(c, 0, f->name, "starts at 0x%" PRIx64 ", inside the %" PRIu64 "-byte bin "
                        "it shares with %s: gprof splits that bin's samples by bytes; fix: "
                        MP_ALIGN_FIX "; without CMake, after compiling: cmake%s -P "
                        "<mcuprof>/cmake/mcuprof_align.cmake <prefix>objcopy FILE.o... "
                        "(-falign-functions alone: GCC ignores it at -Os and for cold code); "
                        "or smaller bins (__mcuprof_bin_shift)",
                        f->addr, bin, p->name, align_opt);
        }
    }
    if (lines > MAX_BIN_LINES)
        ck_finding(c, 0, NULL, "%u more profiled functions start inside a bin (first %d listed)",
                lines - MAX_BIN_LINES, MAX_BIN_LINES);
    if (others)
        printf("%s: -: note: %u bins where a function without -pg starts (libraries, "
               "assembly, startup) are shared: gprof splits their samples by bytes\n", mp_esc(c->path), others);
}

/* What made the clone NAME and how to stop it: "WHAT; fix: HOW". */
static void clone_fix(const char *name, char *buf, size_t size)
{
    static const struct {
        const char *suffix, *what, *flag;
    } kinds[] = {
        {".constprop.", "a copy for constant arguments", "-fno-ipa-cp"},
        {".isra.", "a copy taking arguments by value", "-fno-ipa-sra"},
        {".part.", "the outlined part of a partly inlined function", "-fno-partial-inlining"},
        {".cold", "the blocks GCC expects never to run", "-fno-reorder-blocks-and-partition"},
    };
    const char *tail = name + mp_clone_origin_len(name);
    size_t i;

    for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
        if (strstr(tail, kinds[i].suffix)) {
            snprintf(buf, size, "%s; fix: compile it with %s (mcuprof_instrument() does, unless KEEP_CLONES)",
                     kinds[i].what, kinds[i].flag);
            return;
        }
    }
    if (strstr(tail, ".lto_priv."))
        snprintf(buf, size, "a static function -flto renamed; fix: a name no other file's static function has");
    else
        snprintf(buf, size, "a local name with a dot not followed by digits; fix: rename it");
}

/* Symbols binutils 2.40 gprof drops (elf_funcs.h: GCC's .isra, .part and
 * .cold clones; a .constprop clone when the name after it in the string
 * table fails gprof's scan), each with the function gprof charges its
 * samples and calls to instead; and static functions gprof names after a
 * label at their address. */
static void check_gprof_names(struct ck *c, const struct mp_functab *t)
{
    long owner = -1; /* the last symbol gprof keeps, in one pass */

    for (size_t i = 0; i < t->n; i++) {
        char fix[200];

        if (t->f[i].gprof_name)
            ck_finding(c, 0, t->f[i].name,
                       "gprof names this function %s, a global label at its address (0x%" PRIx64 "), which gprof "
                       "prefers to a static function (mcuprof's own outputs name it); fix: make the label hidden "
                       "in the linker script (HIDDEN(%s = .) or PROVIDE_HIDDEN), or the function not static",
                       t->f[i].gprof_name, t->f[i].addr, t->f[i].gprof_name);
        if (!t->f[i].gprof_drops) {
            owner = (long)i;
            continue;
        }
        clone_fix(t->f[i].name, fix, sizeof(fix));
        ck_finding(c, 0, t->f[i].name,
                   "gprof drops this name and charges its time and calls to %s (mcuprof's own outputs "
                   "name it): %s",
                   owner >= 0 ? t->f[owner].name : "<locore>, no function", fix);
    }
}

/* Function symbols whose code cannot be read (check_model.h CK_RANGE_*):
 * not decoded, so nothing is known of them. Sections whose addresses wrap
 * are not read either. */
static void check_ranges(struct ck *c)
{
    size_t listed = 0;

    if (c->bad_secs)
        ck_finding(c, 0, NULL, "allocated sections that run past the end of the address space (%zu): "
                "their code is not read; fix: link the firmware again (the ELF is damaged)", c->bad_secs);
    for (size_t i = 0; i < c->nsyms && listed < MAX_RANGE_LINES; i++) {
        const struct ck_sym *s = &c->syms[i];
        const char *sec;

        if (!s->func || s->range == CK_RANGE_OK)
            continue;
        listed++;
        if (s->range == CK_RANGE_WRAPS) {
            ck_finding(c, 0, s->name, "its symbol (0x%" PRIx64 ", %" PRIu64 " bytes) runs past the end "
                    "of the address space: its code is not checked; fix: give it the size of its "
                    "code (.size in assembly)", s->addr, s->size);
            continue;
        }
        sec = mp_elf_section_name(&c->elf, s->shndx);
        ck_finding(c, 0, s->name, "its symbol (0x%" PRIx64 ", %" PRIu64 " bytes) does not lie inside "
                "its section %s: its code is not checked; fix: give it the size of its code (.size "
                "in assembly)", s->addr, s->size, sec ? sec : "?");
    }
    if (c->bad_ranges > listed)
        ck_finding(c, 0, NULL, "%zu more function symbols do not lie inside their section (first %d "
                "listed)", c->bad_ranges - listed, MAX_RANGE_LINES);
}

static int run_check(struct ck *c)
{
    struct mp_functab tab;

    if (mp_elf_scan(c, c->path) < 0)
        return -1;
    check_ranges(c);
    if (!c->hook)
        return mp_error(c->path, "no %s: nothing in it was compiled with -pg (or the runtime "
                                 "is not linked)", c->hook_name);
    if (!c->profiled)
        return mp_error(c->path, "no function calls %s: nothing in it was compiled with -pg (with "
                                 "-flto: -pg must be on the link command too)", c->hook_name);
    check_names(c);
    check_tail_calls(c);
    ck_check_place(c);
    /* the reader's own messages repeat what the checks above said; the
     * quiet depth is a counter, so it is lowered exactly once */
    mp_diag_quiet(1);
    if (mp_functab_read(&tab, c->path) == 0) {
        mp_diag_quiet(0);
        check_gprof_names(c, &tab);
        check_bins(c, &tab);
        mp_functab_free(&tab);
    } else {
        mp_diag_quiet(0);
    }
    c->arch->check_sampler(c);
    return 0;
}

static void mp_help_check(FILE *f)
{
    fputs("Usage: mcuprof check ELF [--no-demangle]\n"
          "\n"
          "Read a firmware built with -pg and say, per function, what will not be\n"
          "profiled exactly and how to fix it, one line each:\n"
          "  ELF: FUNCTION: error|warning: what; fix: how\n"
          "Errors (the profile would be wrong): the ARMv6-M prologue that hands the\n"
          "hook r8-r11 as the caller; tail calls left as jumps to profiled functions;\n"
          "a -pg call not set up as GCC does; the runtime built with -pg; code that\n"
          "runs before .data (Reset_Handler, _start, SystemInit) calling the hook; a\n"
          "SysTick vector that does not reach the sampler; with call paths on RISC-V,\n"
          "profiled code the FreeRTOS port's handlers call (it runs on their ISR\n"
          "stack); a profile image not in RAM (over stored code or data, a section,\n"
          "the peripheral or system region, or right after the code in flash), over\n"
          "the vector table, or over the stack (its top from the vector table or the\n"
          "script's symbols). Warnings: histogram bins shared by a profiled function\n"
          "and another (the bin size from __mcuprof_bin_shift), no sampler linked, and\n"
          "each GCC clone binutils 2.40 gprof drops (foo.isra.0, foo.part.0,\n"
          "foo.cold, and foo.constprop.0 when the next name in the string table fails\n"
          "gprof's test) with the function gprof charges its time and calls to and\n"
          "the option that stops GCC making it. On RISC-V, mtvec cannot be seen in\n"
          "the ELF (a note says so).\n"
          "\n"
          "      --no-demangle  C++ names as the ELF spells them (not demangled)\n"
          "\n"
          "Exit status: 0 no error (warnings allowed), 1 an error or an unreadable\n"
          "ELF, 2 a usage error.\n",
          f);
}

static int mp_cmd_check(int argc, char **argv)
{
    static const struct option longopts[] = {
        MP_NO_DEMANGLE_LONGOPT, {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    char *pos[1];
    int npos = 0, opt, rc;
    struct ck c;

    while ((opt = mp_getopt(argc, argv, "h", longopts, pos, 1, &npos)) != -1) {
        if (opt == MP_OPT_NO_DEMANGLE) {
            mp_demangle_enable(0);
            continue;
        }
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
    c.path = pos[0];
    rc = run_check(&c);
    if (rc == 0) {
        if (c.errors || c.warnings)
            printf("%s: %u errors, %u warnings in %u profiled functions\n", mp_esc(c.path), c.errors,
                   c.warnings, c.profiled);
        else
            printf("%s: no findings in %u profiled functions\n", mp_esc(c.path), c.profiled);
    }
    fflush(stdout);
    mp_elf_scan_done(&c);
    if (rc < 0)
        return MP_EXIT_FAIL;
    return c.errors ? MP_EXIT_FAIL : MP_EXIT_OK;
}

const struct mp_command mp_command_check = {
    .name = "check",
    .summary = "say what in a firmware ELF will not be profiled exactly",
    .run = mp_cmd_check,
    .help = mp_help_check,
};

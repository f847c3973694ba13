/*
 * board_find.c - the board an ELF is built for (board_find.h).
 */
#include "board_find.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "board_conf.h"
#include "diag.h"
#include "elf_info.h"

#define MAX_SEGS 32

/* The M-profile architectures, as bits: each names itself and those whose
 * code it runs (ARMv7-M runs ARMv6-M code, not the other way round). */
enum {
    V6M = 1u << 0,
    V7M = 1u << 1,
    V7EM = 1u << 2,
    V8MB = 1u << 3,
    V8MM = 1u << 4,
    V81MM = 1u << 5,
};

static const struct {
    unsigned arch, runs;
    const char *name;
} m_archs[] = {
    {V6M, V6M, "ARMv6-M"},
    {V7M, V6M | V7M, "ARMv7-M"},
    {V7EM, V6M | V7M | V7EM, "ARMv7E-M"},
    {V8MB, V6M | V8MB, "ARMv8-M baseline"},
    {V8MM, V6M | V7M | V7EM | V8MB | V8MM, "ARMv8-M mainline"},
    {V81MM, V6M | V7M | V7EM | V8MB | V8MM | V81MM, "ARMv8.1-M mainline"},
};

/* -mcpu=NAME of a board's cpu.flags. */
static const struct {
    const char *cpu;
    unsigned arch;
} m_cpus[] = {
    {"cortex-m0", V6M}, {"cortex-m0plus", V6M}, {"cortex-m1", V6M}, {"cortex-m3", V7M},
    {"cortex-m4", V7EM}, {"cortex-m7", V7EM},   {"cortex-m23", V8MB}, {"cortex-m33", V8MM},
    {"cortex-m35p", V8MM}, {"cortex-m52", V81MM}, {"cortex-m55", V81MM}, {"cortex-m85", V81MM},
};

struct elf_facts {
    uint16_t machine;
    unsigned ptr_size;
    unsigned arch;  /* M-profile bit from the build attributes, 0: unknown */
    unsigned fp;    /* Tag_FP_arch: 0 no FPU, 6 VFPv4-D16, 8 FPv5 (1: some, from e_flags) */
    struct {
        uint64_t vaddr, paddr, memsz, filesz;
    } seg[MAX_SEGS];
    unsigned nseg;
};

static const char *arch_name(unsigned arch)
{
    size_t i;

    for (i = 0; i < sizeof(m_archs) / sizeof(m_archs[0]); i++)
        if (m_archs[i].arch == arch)
            return m_archs[i].name;
    return "an unknown architecture";
}

static unsigned arch_runs(unsigned arch)
{
    size_t i;

    for (i = 0; i < sizeof(m_archs) / sizeof(m_archs[0]); i++)
        if (m_archs[i].arch == arch)
            return m_archs[i].runs;
    return 0;
}

static int uleb(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
    unsigned shift = 0;

    *v = 0;
    while (*p < end && shift < 64) {
        uint8_t b = *(*p)++;

        *v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            return 0;
        shift += 7;
    }
    return -1;
}

/* Tag_CPU_arch (6), Tag_CPU_arch_profile (7) and Tag_FP_arch (10) of the
 * "aeabi" file attributes (ARM's ELF ABI, "Build attributes"). */
static void arm_attributes(struct elf_facts *e, const uint8_t *d, size_t len)
{
    const uint8_t *p = d + 1, *end = d + len;
    uint64_t cpu = 0, profile = 0, fp = 0;

    if (len < 1 || d[0] != 'A')
        return;
    while (end - p >= 4) {
        uint32_t slen = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
        const uint8_t *s = p + 4, *send = p + slen;

        if (slen < 4 || slen > (size_t)(end - p))
            break;
        if (memchr(s, 0, (size_t)(send - s)) && strcmp((const char *)s, "aeabi") == 0) {
            s += 6;
            while (send - s >= 5) {
                uint64_t tag, v;
                const uint8_t *sub = s;
                uint32_t sublen;

                if (uleb(&s, send, &tag) < 0 || send - s < 4)
                    break;
                sublen = (uint32_t)s[0] | (uint32_t)s[1] << 8 | (uint32_t)s[2] << 16 | (uint32_t)s[3] << 24;
                s += 4;
                if (sublen < (size_t)(s - sub) || sublen > (size_t)(send - sub))
                    break;
                if (tag == 1) { /* Tag_File: the attributes of the whole file */
                    const uint8_t *a = s, *aend = sub + sublen;

                    while (a < aend && uleb(&a, aend, &tag) == 0) {
                        /* 4, 5, 67 and odd tags from 65 are strings; 32 is a number then a string */
                        int str = tag == 4 || tag == 5 || tag == 67 || (tag > 32 && (tag & 1));

                        if (tag == 32 && uleb(&a, aend, &v) == 0)
                            str = 1;
                        if (str) {
                            const uint8_t *z = memchr(a, 0, (size_t)(aend - a));

                            if (!z)
                                break;
                            a = z + 1;
                            continue;
                        }
                        if (uleb(&a, aend, &v) < 0)
                            break;
                        if (tag == 6)
                            cpu = v;
                        else if (tag == 7)
                            profile = v;
                        else if (tag == 10)
                            fp = v;
                    }
                }
                s = sub + sublen;
            }
        }
        p = send;
    }
    switch (cpu) {
    case 10: e->arch = profile == 'M' ? V7M : 0; break;
    case 11: case 12: e->arch = V6M; break;
    case 13: e->arch = V7EM; break;
    case 16: e->arch = V8MB; break;
    case 17: e->arch = V8MM; break;
    case 21: e->arch = V81MM; break;
    default: e->arch = 0; break;
    }
    if (fp)
        e->fp = (unsigned)fp;
}

static int read_facts(const char *path, struct elf_facts *e)
{
    struct mp_elf_file f;
    size_t i;

    memset(e, 0, sizeof(*e));
    if (mp_elf_file_open(&f, path) < 0)
        return -1;
    e->machine = f.machine;
    e->ptr_size = f.is64 ? 8 : 4;
    for (i = 0; i < f.phnum && e->nseg < MAX_SEGS; i++) {
        const struct mp_elf_phdr *ph = &f.ph[i];

        if (ph->type != MP_PT_LOAD || ph->memsz == 0)
            continue;
        e->seg[e->nseg].vaddr = ph->vaddr;
        e->seg[e->nseg].paddr = ph->paddr;
        e->seg[e->nseg].memsz = ph->memsz;
        e->seg[e->nseg].filesz = ph->filesz;
        e->nseg++;
    }
    if (e->machine == MP_EM_ARM) {
        if (f.flags & MP_EF_ARM_ABI_FLOAT_HARD) /* some FPU, the attributes say which */
            e->fp = 1;
        for (i = 1; i < f.shnum; i++) {
            const uint8_t *d;
            size_t len;

            if (f.sh[i].type == MP_SHT_ARM_ATTRIBUTES && (d = mp_elf_section_data(&f, i, &len)) != NULL)
                arm_attributes(e, d, len);
        }
    }
    mp_elf_file_close(&f);
    return 0;
}

/* The FPU of a board's cpu.flags as Tag_FP_arch numbers it: -mfpu=, or
 * the core's own with -mfloat-abi=hard alone (FPv5 on the cores that
 * have one: M55, M85). */
static unsigned board_fp_arch(const char *flags)
{
    const char *fpu = strstr(flags, "-mfpu=");

    if (fpu) {
        fpu += 6;
        if (strncmp(fpu, "none", 4) == 0)
            return 0;
        if (strncmp(fpu, "fpv4", 4) == 0)
            return 6;
        return strncmp(fpu, "fpv5", 4) == 0 ? 8 : 5;
    }
    return strstr(flags, "-mfloat-abi=hard") ? 8 : 0;
}

static int in_region(const struct mp_board *b, uint64_t addr, uint64_t size)
{
    unsigned i;

    for (i = 0; i < b->nregions; i++)
        if (addr >= b->region[i].origin && size <= b->region[i].length &&
            addr - b->region[i].origin <= b->region[i].length - size)
            return 1;
    return 0;
}

/* How well board B fits: -1 not at all; else 2 points for the exact
 * architecture, 1 for the same FPU (none, or the same one). */
static int fit(const struct mp_board *b, const struct elf_facts *e)
{
    unsigned i, board_arch = 0, board_fp;
    int score = 0;

    if (strcmp(b->arch, "cortex-m") == 0) {
        const char *cpu = strstr(b->cpu_flags, "-mcpu=");

        if (e->machine != MP_EM_ARM || e->ptr_size != 4)
            return -1;
        for (i = 0; cpu && i < sizeof(m_cpus) / sizeof(m_cpus[0]); i++) {
            size_t n = strlen(m_cpus[i].cpu);

            if (strncmp(cpu + 6, m_cpus[i].cpu, n) == 0 && (cpu[6 + n] == ' ' || cpu[6 + n] == '\0'))
                board_arch = m_cpus[i].arch;
        }
        if (e->arch && !(arch_runs(board_arch) & e->arch))
            return -1;
        if (e->arch && e->arch == board_arch)
            score += 2;
        board_fp = board_fp_arch(b->cpu_flags);
        if (e->fp > board_fp)
            return -1;
        if (e->fp == board_fp)
            score += 1;
    } else if (strcmp(b->arch, "riscv") == 0) {
        if (e->machine != MP_EM_RISCV || (e->ptr_size == 8) != (strstr(b->cpu_flags, "-march=rv64") != NULL))
            return -1;
        score = 3;
    } else {
        return -1;
    }
    if (!b->nregions || !e->nseg)
        return -1;
    for (i = 0; i < e->nseg; i++)
        if (!in_region(b, e->seg[i].vaddr, e->seg[i].memsz) ||
            (e->seg[i].filesz && !in_region(b, e->seg[i].paddr, e->seg[i].filesz)))
            return -1;
    return score;
}

static void describe(const struct elf_facts *e, char *buf, size_t size)
{
    const char *m = e->machine == MP_EM_ARM ? "ARM" : e->machine == MP_EM_RISCV ? "RISC-V" : NULL;
    uint64_t lo = UINT64_MAX;
    unsigned i;
    int n;

    for (i = 0; i < e->nseg; i++)
        if (e->seg[i].vaddr < lo)
            lo = e->seg[i].vaddr;
    if (m)
        n = snprintf(buf, size, "%s %u-bit", m, e->ptr_size * 8);
    else
        n = snprintf(buf, size, "ELF machine %u, neither ARM nor RISC-V", (unsigned)e->machine);
    if (n > 0 && (size_t)n < size && e->machine == MP_EM_ARM)
        n += snprintf(buf + n, size - (size_t)n, ", %s, %s", e->arch ? arch_name(e->arch) : "no CPU attribute",
                      e->fp == 0 ? "no FPU" : e->fp == 6 ? "VFPv4-D16" : e->fp == 8 ? "FPv5" : "FPU");
    if (n > 0 && (size_t)n < size)
        snprintf(buf + n, size - (size_t)n, e->nseg ? ", loaded from 0x%" PRIx64 : ", nothing to load", lo);
}

int mp_board_find(const char *elf, char *name, size_t size, char *why, size_t why_size)
{
    static char names[MP_BOARDS_MAX][64];
    static struct mp_board b;
    struct elf_facts e;
    char what[160], best_list[1024], all[1024];
    int n, i, score, best = -1, nbest = 0;
    size_t len = 0;

    if (read_facts(elf, &e) < 0)
        return -1;
    if ((n = mp_board_names(names, MP_BOARDS_MAX)) < 0)
        return -1;
    best_list[0] = '\0';
    for (i = 0; i < n; i++) {
        if (mp_board_load(&b, names[i]) != 0)
            return -1;
        if ((score = fit(&b, &e)) < 0 || score < best)
            continue;
        if (score > best) {
            best = score;
            nbest = 0;
            len = 0;
            snprintf(name, size, "%s", b.name);
        }
        nbest++;
        len += (size_t)snprintf(best_list + len, len < sizeof(best_list) ? sizeof(best_list) - len : 0, "%s%s",
                                len ? ", " : "", b.name);
    }
    describe(&e, what, sizeof(what));
    if (nbest == 1) {
        snprintf(why, why_size, "%s", what);
        return 0;
    }
    if (nbest > 1) {
        mp_error(elf, "fits several boards equally (%s): %s; name one with --board", what, best_list);
        return -2;
    }
    mp_board_list(all, sizeof(all));
    mp_error(elf, "no board runs this firmware (%s); boards: %s; name one with --board", what, all);
    return -2;
}

int mp_board_check(const char *name, const char *elf)
{
    static struct mp_board b;
    struct elf_facts e;
    char what[160];

    if (read_facts(elf, &e) < 0 || mp_board_load(&b, name) != 0)
        return -1;
    if (fit(&b, &e) >= 0)
        return 0;
    describe(&e, what, sizeof(what));
    mp_warn(elf, "board %s does not run this firmware (%s): its core or its memory differ; run as asked", name,
            what);
    return 1;
}

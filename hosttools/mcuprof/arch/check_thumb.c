/*
 * check_thumb.c - decoding Thumb code for `mcuprof check`: the -pg call
 * sequence (push {lr}; bl __gnu_mcount_nc), the ARMv6-M prologue that
 * hands the hook a high register, and branches out of a function.
 */
#include "check_model.h"

#include <inttypes.h>

/* ---- Thumb --------------------------------------------------------------- */

/* Target of the BL or B.W (T4) at PC. */
static uint64_t thumb_bl_target(uint64_t pc, uint32_t hw, uint32_t hw2)
{
    uint32_t s = (hw >> 10) & 1, i1 = !(((hw2 >> 13) & 1) ^ s), i2 = !(((hw2 >> 11) & 1) ^ s);
    uint64_t off = ck_sext((uint64_t)s << 24 | i1 << 23 | i2 << 22 | (hw & 0x3ffu) << 12 |
                            (hw2 & 0x7ffu) << 1, 25);

    return (pc + 4 + off) & 0xffffffffu;
}

/* Is the halfword HW the first of a 32-bit instruction? */
static int thumb_wide(uint32_t hw)
{
    return (hw >> 11) == 0x1d || (hw >> 11) == 0x1e || (hw >> 11) == 0x1f;
}

/* Code being decoded, from BASE to END: its bytes when they lie in one
 * section (CODE, looked up once), else read halfword by halfword. */
struct thumb_code {
    const struct ck *c;
    const unsigned char *code;
    uint64_t base, end;
};

static struct thumb_code thumb_code(const struct ck *c, uint64_t base, uint64_t end)
{
    struct thumb_code t = {c, ck_code(c, base, end - base), base, end};

    return t;
}

static int thumb_rd16(const struct thumb_code *t, uint64_t pc, uint32_t *v)
{
    if (!t->code)
        return ck_rd16(t->c, pc, v);
    *v = ck_get16(t->c, t->code + (pc - t->base));
    return 0;
}

/* The instruction at PC, if all of it lies below the end: its first
 * halfword, its second (wide ones), and its length; 0 at the end or
 * outside code. */
static unsigned thumb_fetch(const struct thumb_code *t, uint64_t pc, uint32_t *hw, uint32_t *hw2)
{
    unsigned len;

    *hw2 = 0;
    if (pc >= t->end || t->end - pc < 2 || thumb_rd16(t, pc, hw) < 0)
        return 0;
    len = thumb_wide(*hw) ? 4 : 2;
    if (t->end - pc < len || (len == 4 && thumb_rd16(t, pc + 2, hw2) < 0))
        return 0;
    return len;
}

/* One function's code from LO to HI: hook calls (and how they are set
 * up), branches out. */
int ck_scan_thumb(struct ck *c, size_t fi, uint64_t lo, uint64_t hi)
{
    struct ck_sym *f = &c->syms[fi];
    const struct thumb_code code = thumb_code(c, lo, hi);
    uint64_t pc = lo;
    uint32_t prev = 0, hw, hw2;
    int high_into_lr = -1, hooked = f->profiled;
    unsigned len;

    for (; (len = thumb_fetch(&code, pc, &hw, &hw2)) != 0; pc += len) {
        int wide = len == 4;

        if (!wide && (hw & 0xff87) == 0x4686 && ((hw >> 3) & 0xf) >= 8 && !hooked) {
            high_into_lr = (int)((hw >> 3) & 0xf); /* mov lr, r8..r12 */
        } else if (wide && (hw & 0xf800) == 0xf000 && (hw2 & 0xd000) == 0xd000) {
            /* BL */
            uint64_t target = thumb_bl_target(pc, hw, hw2);

            if (target == c->hook && !hooked) {
                hooked = 1;
                f->profiled = 1;
                if (prev != 0xb500)
                    ck_finding(c, 1, f->name, "the -pg call of %s at 0x%" PRIx64 " is not preceded by "
                            "`push {lr}`: the hook would pop a word that is not the caller; fix: "
                            "compile it with the GCC -pg sequence or without -pg", c->hook_name, pc);
                else if (high_into_lr >= 0)
                    ck_finding(c, 1, f->name, "the prologue moves r%d into lr before `push {lr}; bl "
                            "%s`, so the hook takes r%d as the caller (GCC on ARMv6-M saving "
                            "r8-r11); fix: compile with -ffixed-r8 -ffixed-r9 -ffixed-r10 "
                            "-ffixed-r11, and with -flto link with them too (mcuprof_instrument() "
                            "adds them for v6-M)",
                            high_into_lr, c->hook_name, high_into_lr);
            }
        } else if (wide && (hw & 0xf800) == 0xf000 && (hw2 & 0xd000) == 0x9000) {
            /* B.W (T4) */
            if (ck_add_branch(c, fi, pc, thumb_bl_target(pc, hw, hw2)) < 0)
                return -1;
        } else if (wide && (hw & 0xf800) == 0xf000 && (hw2 & 0xd000) == 0x8000 &&
                   ((hw >> 6) & 0xf) < 14) {
            /* B<cond>.W (T3) */
            uint64_t off = ck_sext((uint64_t)((hw >> 10) & 1) << 20 | ((hw2 >> 11) & 1u) << 19 |
                                    ((hw2 >> 13) & 1u) << 18 | (hw & 0x3fu) << 12 |
                                    (hw2 & 0x7ffu) << 1, 21);

            if (ck_add_branch(c, fi, pc, (pc + 4 + off) & 0xffffffffu) < 0)
                return -1;
        } else if (!wide && (hw & 0xf800) == 0xe000) {
            /* B (T2) */
            if (ck_add_branch(c, fi, pc, (pc + 4 + ck_sext((hw & 0x7ffu) << 1, 12)) & 0xffffffffu) < 0)
                return -1;
        } else if (!wide && (hw & 0xf000) == 0xd000 && ((hw >> 8) & 0xf) < 14) {
            /* B<cond> (T1) */
            if (ck_add_branch(c, fi, pc, (pc + 4 + ck_sext((hw & 0xffu) << 1, 9)) & 0xffffffffu) < 0)
                return -1;
        }
        prev = wide ? 0xffffffffu : hw;
    }
    return 0;
}

/* Does the Thumb handler F reach TARGET by a branch or a literal (ldr rX,
 * =TARGET; bx rX)? */
int ck_thumb_reaches(const struct ck *c, const struct ck_sym *f, uint64_t target)
{
    const struct thumb_code code = thumb_code(c, f->addr, ck_end(f->addr, f->size ? f->size : 16));
    uint64_t pc = f->addr;
    uint32_t hw, hw2, lit;
    unsigned len;

    for (; (len = thumb_fetch(&code, pc, &hw, &hw2)) != 0; pc += len) {
        int wide = len == 4;

        if (!wide && (hw & 0xf800) == 0x4800 &&
            ck_rd32(c, ck_end(ck_end(pc, 4) & ~(uint64_t)3, (hw & 0xffu) * 4), &lit) == 0 &&
            (lit & ~1u) == target)
            return 1;
        if (wide && (hw & 0xf800) == 0xf000 && (hw2 & 0x9000) == 0x9000 &&
            thumb_bl_target(pc, hw, hw2) == target)
            return 1;
        if (!wide && (hw & 0xf800) == 0xe000 &&
            ((pc + 4 + ck_sext((hw & 0x7ffu) << 1, 12)) & 0xffffffffu) == target)
            return 1;
    }
    return 0;
}

/*
 * check_riscv.c - decoding RISC-V code (RV32/RV64, compressed too) for
 * `mcuprof check`: the -pg call sequence (mv a0, ra; call _mcount) and
 * branches out of a function (tail calls).
 */
#include "check_model.h"
#include "text_safe.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- RISC-V --------------------------------------------------------------- */

/* The integer register an RV instruction writes (0: none or x0). Only
 * a0 matters here, so FP and CSR writes may come out as 0. */
static unsigned rv_dest(uint32_t ins, int len, int is64)
{
    if (len == 4) {
        switch (ins & 0x7f) {
        case 0x23: case 0x63: case 0x27: case 0x07: case 0x53: case 0x0f:
            return 0; /* stores, branches, FP, fences */
        default:
            return (ins >> 7) & 0x1f;
        }
    }
    switch ((ins & 3) << 3 | ((ins >> 13) & 7)) {
    case 0 << 3 | 0: case 0 << 3 | 2: case 0 << 3 | 3:
        return 8 + ((ins >> 2) & 7); /* c.addi4spn, c.lw, c.ld: rd' */
    case 1 << 3 | 0: case 1 << 3 | 2: case 1 << 3 | 3:
    case 2 << 3 | 0: case 2 << 3 | 2: case 2 << 3 | 3:
        return (ins >> 7) & 0x1f;
    case 1 << 3 | 1:
        return is64 ? (ins >> 7) & 0x1f : 1; /* c.addiw; RV32 c.jal writes ra */
    case 1 << 3 | 4:
        return 8 + ((ins >> 7) & 7); /* c.srli .. c.and: rd' */
    case 2 << 3 | 4:
        return (ins >> 2) & 0x1f ? (ins >> 7) & 0x1f : ((ins >> 12) & 1) ? 1 : 0; /* mv/add, jalr/jr */
    default:
        return 0;
    }
}

/* One function's code from LO to HI: its hook call (and how a0 is set
 * up for it), its jumps and calls. An instruction that does not end by HI
 * is not decoded, so PC never passes HI. */
int ck_scan_riscv(struct ck *c, size_t fi, uint64_t lo, uint64_t hi)
{
    struct ck_sym *f = &c->syms[fi];
    uint64_t pc = lo, mask = c->is64 ? ~(uint64_t)0 : 0xffffffffu;
    int a0_is_ra = 0, hooked = f->profiled;
    int auipc_rd = -1;
    uint64_t auipc_val = 0;

    while (pc < hi && hi - pc >= 2) {
        uint32_t hw, w = 0;
        uint64_t target = 0;
        int len, link = -1, was_auipc = 0;

        if (ck_rd16(c, pc, &hw) < 0)
            break;
        len = (hw & 3) == 3 ? 4 : 2;
        if (hi - pc < (uint64_t)len || (len == 4 && ck_rd32(c, pc, &w) < 0))
            break;
        if (len == 2) {
            if ((hw & 0xe003) == 0xa001 || (!c->is64 && (hw & 0xe003) == 0x2001)) {
                /* c.j, c.jal (RV32) */
                uint64_t off = ((hw >> 12) & 1u) << 11 | ((hw >> 11) & 1u) << 4 |
                               ((hw >> 9) & 3u) << 8 | ((hw >> 8) & 1u) << 10 |
                               ((hw >> 7) & 1u) << 6 | ((hw >> 6) & 1u) << 7 |
                               ((hw >> 3) & 7u) << 1 | ((hw >> 2) & 1u) << 5;

                target = (pc + ck_sext(off, 12)) & mask;
                link = (hw & 0xe003) == 0x2001 ? 1 : 0;
            }
        } else {
            uint32_t op = w & 0x7f, rd = (w >> 7) & 0x1f;

            if (op == 0x6f) { /* jal */
                uint64_t off = ((w >> 31) & 1u) << 20 | ((w >> 21) & 0x3ffu) << 1 |
                               ((w >> 20) & 1u) << 11 | ((w >> 12) & 0xffu) << 12;

                target = (pc + ck_sext(off, 21)) & mask;
                link = rd == 0 ? 0 : rd == 1 ? 1 : -1;
            } else if (op == 0x17) { /* auipc */
                was_auipc = 1;
                auipc_rd = (int)rd;
                auipc_val = (pc + ck_sext(w & 0xfffff000u, 32)) & mask;
            } else if (op == 0x67 && auipc_rd >= 0 && (int)((w >> 15) & 0x1f) == auipc_rd) {
                target = (auipc_val + ck_sext(w >> 20, 12)) & mask; /* call / tail */
                link = rd == 0 ? 0 : rd == 1 ? 1 : -1;
            }
        }
        if (link == 1 && target == c->hook && !hooked) {
            hooked = 1;
            f->profiled = 1;
            if (!a0_is_ra)
                ck_finding(c, 1, f->name, "the -pg call of %s at 0x%" PRIx64 " does not get ra in "
                        "a0 (`mv a0, ra`): the hook would take a0 as the caller; fix: compile it "
                        "with the GCC -pg sequence or without -pg", c->hook_name, pc);
        } else if (link == 0 && ck_add_branch(c, fi, pc, target) < 0) {
            return -1;
        } else if (link == 1 && target != c->hook && ck_add_call(c, fi, pc, target) < 0) {
            return -1;
        }
        if (!was_auipc)
            auipc_rd = -1;
        if (hw == 0x8506 || (len == 4 && w == 0x00008513)) /* mv a0, ra */
            a0_is_ra = 1;
        else if (rv_dest(len == 4 ? w : hw, len, c->is64) == 10)
            a0_is_ra = 0;
        pc += (uint64_t)len;
    }
    return 0;
}

/* FreeRTOS's RISC-V port (freertos_risc_v_trap_handler) runs every
 * handler on a stack of its own. The shadow stack of call paths tells a
 * caller from a returned function by stack pointers, on one stack: a
 * profiled function there would be compared with the interrupted task's
 * frames, drop them and stay under the task's later calls, and the paths
 * would be silently wrong. So with call paths (mcuprof_path_enter linked),
 * every profiled function the port's application handlers reach by
 * direct calls or tail calls is an error. (A call through a pointer is
 * not followed.) */
#define ISR_CALL_DEPTH 16u

static void isr_reach(struct ck *c, size_t fi, const char *entry, unsigned depth, unsigned char *seen)
{
    const struct ck_branch *br;
    size_t n;

    if (seen[fi] || depth > ISR_CALL_DEPTH)
        return;
    seen[fi] = 1;
    if (c->syms[fi].profiled)
        ck_finding(c, 1, c->syms[fi].name, "runs on the FreeRTOS port's ISR stack (called from %s) "
                "and calls the hook: with call paths its frames are compared with the interrupted "
                "task's, and the paths come out wrong; fix: compile the interrupt code without -pg "
                "(__attribute__((no_instrument_function)))", entry);
    /* calls, and jumps to a function's entry (tail calls) */
    br = ck_branches_from(c, fi, &n);
    for (size_t i = 0; i < n; i++)
        isr_reach(c, br[i].to, entry, depth + 1u, seen);
}

void ck_check_isr_stack(struct ck *c)
{
    static const char *const entries[] = {"freertos_risc_v_application_interrupt_handler",
                                          "freertos_risc_v_application_exception_handler"};
    unsigned char *seen;

    if (!ck_sym_named(c, "freertos_risc_v_trap_handler") || !ck_sym_named(c, "mcuprof_path_enter"))
        return;
    seen = calloc(c->nsyms ? c->nsyms : 1, 1);
    if (!seen) {
        mp_error(c->path, "out of memory");
        return;
    }
    for (size_t k = 0; k < sizeof(entries) / sizeof(entries[0]); k++) {
        const struct ck_sym *e = ck_sym_named(c, entries[k]);

        /* the name the function's code was decoded under (check_sweep.c) */
        if (e && e->func && (e = ck_func_at(c, e->addr)) != NULL)
            isr_reach(c, (size_t)(e - c->syms), entries[k], 0, seen);
    }
    free(seen);
}

void ck_check_mtvec(struct ck *c)
{
    ck_check_isr_stack(c);
    printf("%s: -: note: mtvec is set at run time, so the ELF cannot show that the timer "
           "interrupt reaches mcuprof_trap_entry (point mtvec at the runtime's "
           "trap_vector)\n", mp_esc(c->path));
}

/*
 * mcount.S - the -pg call hook for RISC-V (RV32 and RV64).
 *
 * GCC emits `mv a0,ra; call _mcount` in each profiled function's prologue
 * as an ordinary call, arguments kept in saved registers around it: so
 * a0 = frompc (the profiled function's return address in its caller),
 * ra = selfpc (inside the profiled function), and a0-a7, t0-t6 are ours.
 *
 * Fast path, as on Cortex-M: the arc is the first record in its bucket's
 * chain; its count is bumped with LR/SC, so an interrupt that bumps the
 * same count in between makes our SC fail and we retry. Anything else
 * tail-calls mcuprof_record_arc(frompc, selfpc), which returns straight to
 * the profiled function. Written in assembly rather than C because GCC
 * gives a C version a stack frame on the fast path.
 */
#include "mcuprof_layout.h"
#include "mcuprof_arch.h"

/* Records of a chain past its head that the assembly compares before
 * calling C: a call site with three callees in turn finds each of them. */
#define WALK_STEPS 2
/* words -> index: * 0xAAAB >> 17 divides by 3, one more shift by 6; index
 * -> bytes: * 3, then << 2 (12-byte records) or << 3 (24-byte ones) */
#if MCUPROF_ARC_WORDS == 6
#define WALK_INDEX_SHIFT 18
#define WALK_SIZE_SHIFT 3
#else
#define WALK_INDEX_SHIFT 17
#define WALK_SIZE_SHIFT 2
#endif

#if __riscv_xlen == 64
#define LOAD_PTR ld
#define PTR_WORD .dword
#else
#define LOAD_PTR lw
#define PTR_WORD .word
#endif
#if __riscv_xlen == 64
#define STORE_PTR sd
#else
#define STORE_PTR sw
#endif

/* Addressing a symbol in two instructions, the low part folded into the
 * load that uses it: absolute (lui) on RV32, pc-relative (auipc, the
 * medany code model) on RV64, where RAM at 0x80000000 is beyond lui's
 * sign-extended reach. ADDR_HI(reg, sym, label) then OFF_LO(sym, label). */
#if __riscv_xlen == 64
#define ADDR_HI(reg, sym, label) label: auipc reg, %pcrel_hi(sym)
#define OFF_LO(sym, label) %pcrel_lo(label)
#else
#define ADDR_HI(reg, sym, label) lui reg, %hi(sym)
#define OFF_LO(sym, label) %lo(sym)
#endif

    .section .text._mcount, "ax", @progbits
    /* A bin boundary, as mcuprof_instrument() aligns C functions, so the
     * hook's samples share no histogram bin with the code before it. */
    .balign 16
    .global mcuprof_hook_begin
mcuprof_hook_begin:                     /* the hook's code, for the freeze logic */

    /* gprof hides symbols named like mcount (_mcount among them) and drops
     * their samples from its total, which raises every other share. Of
     * two global functions at one address gprof keeps the one without a
     * leading underscore: the dispatch shows as mcuprof_mcount. */
    .global mcuprof_mcount
    .type   mcuprof_mcount, @function
    .global _mcount
    .type   _mcount, @function
mcuprof_mcount:
_mcount:
    /* the linker may relax this pair to one gp-relative load */
    ADDR_HI(t0, mcuprof_hook_dispatch, .Ldispatch)
    LOAD_PTR t0, OFF_LO(mcuprof_hook_dispatch, .Ldispatch)(t0)
    jr      t0                          /* mcuprof_hook_off, _record or _slow */
    .size   _mcount, . - _mcount
    .size   mcuprof_mcount, . - mcuprof_mcount

    .global mcuprof_hook_off
    .type   mcuprof_hook_off, @function
mcuprof_hook_off:
    ret
    .size   mcuprof_hook_off, . - mcuprof_hook_off

    /* Every call to the slow path: used while a host reads the tables. */
    .global mcuprof_hook_slow
    .type   mcuprof_hook_slow, @function
mcuprof_hook_slow:
    mv      a1, ra
    tail    mcuprof_record_arc
    .size   mcuprof_hook_slow, . - mcuprof_hook_slow

#if MCUPROF_CFG_PATHS > 0
    /* Call paths (common/shadow_stack.c): mcuprof_path_enter keeps the
     * shadow stack and counts the arc, with interrupts masked. The one word
     * written here under the function's sp holds selfpc, never a return
     * address, which return_scan.c looks for there. */
    .global mcuprof_hook_paths
    .type   mcuprof_hook_paths, @function
mcuprof_hook_paths:
    addi    sp, sp, -16
    STORE_PTR ra, 16 - __SIZEOF_POINTER__(sp)
    mv      a2, a0                      /* frompc */
    mv      a0, ra                      /* selfpc */
    addi    a1, sp, 16                  /* the function's sp: _mcount runs after its prologue */
    call    mcuprof_path_enter
    LOAD_PTR ra, 16 - __SIZEOF_POINTER__(sp)
    addi    sp, sp, 16
    ret
    .size   mcuprof_hook_paths, . - mcuprof_hook_paths
#endif

    .global mcuprof_hook_record
    .type   mcuprof_hook_record, @function
mcuprof_hook_record:
    /* t0 = bucket * 2 = ((frompc >> SHIFT) & (BUCKETS - 1)) << 1: with
     * SHIFT 1 (compressed code) one mask of frompc */
#if MCUPROF_PORT_HASH_SHIFT == 1 && ((MCUPROF_BUCKETS - 1) << 1) < 2048
    andi    t0, a0, (MCUPROF_BUCKETS - 1) << 1
#elif ((MCUPROF_BUCKETS - 1) << 1) < 2048
    srli    t0, a0, MCUPROF_PORT_HASH_SHIFT - 1
    andi    t0, t0, (MCUPROF_BUCKETS - 1) << 1
#else
    srli    t0, a0, MCUPROF_PORT_HASH_SHIFT - 1
    srli    t0, t0, 1
    slli    t0, t0, __riscv_xlen - MCUPROF_CFG_BUCKET_BITS
    srli    t0, t0, __riscv_xlen - MCUPROF_CFG_BUCKET_BITS - 1
#endif
#if MCUPROF_ARCS_OFFSET + MCUPROF_ARC_OFF_COUNT - MCUPROF_BUCKETS_OFFSET <= 2048
    /* The records follow the buckets (mcuprof_layout.h) closely enough
     * for one base: t1 = record 0's count, the bucket array a 12-bit
     * offset below it (up to 512 buckets). */
    ADDR_HI(t1, mcuprof_region + MCUPROF_ARCS_OFFSET + MCUPROF_ARC_OFF_COUNT, .Lcount0)
    addi    t1, t1, OFF_LO(mcuprof_region + MCUPROF_ARCS_OFFSET + MCUPROF_ARC_OFF_COUNT, .Lcount0)
    add     t0, t0, t1
    lhu     t2, MCUPROF_BUCKETS_OFFSET - MCUPROF_ARCS_OFFSET - MCUPROF_ARC_OFF_COUNT(t0)
    slli    t0, t2, 2                   /* head record, words from record 0 (0 = empty) */
    /* t0 = the record's count, which LR/SC need as a bare address; its
     * call site and callee lie just below */
    add     t0, t0, t1
#else
    /* The symbol's low part is added by the loads, after the index: the
     * linker must not relax these pairs to gp-relative ones, which would
     * drop the index register. */
    .option push
    .option norelax
    ADDR_HI(t1, mcuprof_region + MCUPROF_BUCKETS_OFFSET, .Lbuckets)
    add     t0, t0, t1
    lhu     t2, OFF_LO(mcuprof_region + MCUPROF_BUCKETS_OFFSET, .Lbuckets)(t0)
    slli    t0, t2, 2                   /* head record, words from record 0 (0 = empty) */
    /* t0 = the record's count, which LR/SC need as a bare address; its
     * call site and callee lie just below */
    ADDR_HI(t1, mcuprof_region + MCUPROF_ARCS_OFFSET + MCUPROF_ARC_OFF_COUNT, .Larcs)
    add     t0, t0, t1
    addi    t0, t0, OFF_LO(mcuprof_region + MCUPROF_ARCS_OFFSET + MCUPROF_ARC_OFF_COUNT, .Larcs)
    .option pop
#endif
    LOAD_PTR t1, -MCUPROF_ARC_OFF_COUNT(t0) /* record 0 has frompc 0: never equal */
    bne     t1, a0, .Lwalk
    LOAD_PTR t1, __SIZEOF_POINTER__ - MCUPROF_ARC_OFF_COUNT(t0)
    bne     t1, ra, .Lwalk
.Lbump:
#if defined(__riscv_atomic)
1:  lr.w    t1, (t0)
    addi    t2, t1, 1
    beqz    t2, 9f                      /* was 0xFFFFFFFF: stays saturated */
    sc.w    t2, t2, (t0)
    bnez    t2, 1b
#else
    csrrci  t2, mstatus, MCUPROF_MSTATUS_MIE
    lw      t1, 0(t0)
    addi    t1, t1, 1
    beqz    t1, 2f
    sw      t1, 0(t0)
2:  andi    t2, t2, MCUPROF_MSTATUS_MIE
    csrs    mstatus, t2
#endif
9:  ret

    /* Not at the head: look at the next WALK_STEPS records of the chain
     * before going to C, which a call site that alternates between
     * callees would otherwise enter on every call to move its arc to the
     * front. Nothing is relinked here: a link changed meanwhile by an
     * interrupt's slow path leads to another valid record (records never
     * move) or to the end, and a record is counted only where both words
     * match. An index past the table (a stray write) goes to C, which
     * cuts the chain there. Needs a multiply (words / 3 = index). */
.Lwalk:
#if defined(__riscv_mul)
    beqz    t2, 8f                      /* an empty bucket: a new arc */
    li      t3, 0xAAAB                  /* words * 0xAAAB >> 17 = words / 3, exact for 16 bits */
    mul     t2, t2, t3
    srli    t2, t2, WALK_INDEX_SHIFT    /* the record's index */
    li      t4, WALK_STEPS
    li      t5, MCUPROF_CFG_ARCS
    .option push
    .option norelax
5:  ADDR_HI(t1, mcuprof_region + MCUPROF_LINKS_OFFSET, .Llinks)
    slli    t3, t2, 1
    add     t3, t3, t1
    lhu     t2, OFF_LO(mcuprof_region + MCUPROF_LINKS_OFFSET, .Llinks)(t3) /* next, 0 at the end */
    addi    t3, t2, -1
    bgeu    t3, t5, 8f                  /* the end, or past the table */
    slli    t3, t2, 1
    add     t3, t3, t2
    slli    t3, t3, WALK_SIZE_SHIFT     /* index * record size */
    ADDR_HI(t1, mcuprof_region + MCUPROF_ARCS_OFFSET + MCUPROF_ARC_OFF_COUNT, .Larcs2)
    add     t0, t3, t1
    addi    t0, t0, OFF_LO(mcuprof_region + MCUPROF_ARCS_OFFSET + MCUPROF_ARC_OFF_COUNT, .Larcs2)
    .option pop
    LOAD_PTR t1, -MCUPROF_ARC_OFF_COUNT(t0)
    bne     t1, a0, 6f
    LOAD_PTR t1, __SIZEOF_POINTER__ - MCUPROF_ARC_OFF_COUNT(t0)
    beq     t1, ra, .Lbump
6:  addi    t4, t4, -1
    bnez    t4, 5b
#endif
8:  mv      a1, ra
    tail    mcuprof_record_arc
    .size   mcuprof_hook_record, . - mcuprof_hook_record
.Lhook_end:

    /* Where the hook's code lies, for the freeze logic (hook_mode.c): a
     * data word rather than an end label, which gprof would list as a
     * function and hand a share of the samples in the hook's last bin.
     * The linker's relaxation moves .Lhook_end with the code. */
    .section .rodata.mcuprof_hook_span, "a", @progbits
    .balign __SIZEOF_POINTER__
    .global mcuprof_hook_span
    .type   mcuprof_hook_span, @object
mcuprof_hook_span:
    PTR_WORD mcuprof_hook_begin, .Lhook_end
    .size   mcuprof_hook_span, . - mcuprof_hook_span

/*
 * paths.c - exact call paths (MCUPROF_CFG_PATHS > 0): a shadow stack kept
 * by the call hook, and the table of the paths the sampler saw (the image's
 * MCUPROF_EXT_PATHS table). docs/paths.md has the design and its limits.
 *
 * The hook sees every profiled function enter, never return. Each frame of
 * the shadow stack keeps what later tells whether it is still live:
 *   sp      the function's stack pointer after its prologue (GCC calls the
 *           hook after the prologue on ARM and RISC-V alike);
 *   top     the top of its frame, which is its caller's sp, once known (0
 *           until then);
 *   frompc  its return address. GCC saves it at the top of the frame of
 *           every function that calls (ARM `push {..., lr}` comes first,
 *           RISC-V keeps ra in the highest slot), where it stays until the
 *           function returns.
 * A frame is dead once the stack pointer has risen above it, or once the
 * word under its top has been overwritten.
 *
 * A new call (selfpc, sp, frompc) finds its caller as the frame whose sp
 * is the top of the new function's frame: the word under that sp is
 * frompc, which the new function has just saved there. Frames above the
 * caller have returned. That is the whole rule on RISC-V, where every
 * profiled function has a frame of its own (_mcount is an ordinary call).
 * On ARM a leaf that saves nothing has no frame and shares its caller's sp:
 * only the first of a run of frames with one sp can be a caller, and a new
 * function whose sp equals its caller's was called by the first of the run.
 */
#include "mcuprof.h"
#include "mcuprof_layout.h"
#include "mcuprof_port.h"
#include "mcuprof_symbols.h"
#include "paths.h"
#include "sample_context.h"

#if MCUPROF_CFG_PATHS > 0

#define DEPTH ((uint32_t)MCUPROF_CFG_PATH_DEPTH)
#define PTR ((uintptr_t)sizeof(uintptr_t))

/* Slots of the sampler's open-addressed index: a power of two at least
 * twice the table, so a probe sequence always meets a free slot soon. */
#define P2(x) ((x) <= 2 ? 2 : (x) <= 4 ? 4 : (x) <= 8 ? 8 : (x) <= 16 ? 16 : (x) <= 32 ? 32 : \
               (x) <= 64 ? 64 : (x) <= 128 ? 128 : (x) <= 256 ? 256 : (x) <= 512 ? 512 : \
               (x) <= 1024 ? 1024 : (x) <= 2048 ? 2048 : (x) <= 4096 ? 4096 : (x) <= 8192 ? 8192 : \
               (x) <= 16384 ? 16384 : 32768)
#define SLOTS ((uint32_t)P2(2 * MCUPROF_CFG_PATHS))

struct frame {
    uintptr_t selfpc; /* the frame in a path: the hook's return address */
    uintptr_t frompc; /* its return address */
    uintptr_t sp;     /* its sp after its prologue */
    uintptr_t top;    /* the top of its frame (its caller's sp); 0: unknown */
#if MCUPROF_PORT_STACKS > 1
    uint32_t stack; /* mcuprof_port_stack_id() when it was entered */
#endif
};

/* The shadow stack, outermost frame first. */
static struct frame frames[DEPTH];
static uint32_t depth;
/* frames[0] is the root (the function that started recording): it stays
 * when a full stack drops its outermost frames, so that paths are whole
 * again once the deep calls have returned. */
static uint8_t rooted;
/* Changed with every push, pop and cut: the sampler's last lookup stays
 * valid while it does not change. */
static uint32_t generation;
/* Not 0: outermost frames were dropped (the stack overflowed); this is the
 * sp of the first one dropped, the outermost, so its paths are TRUNCATED
 * until it has returned. */
static uintptr_t truncated_sp;
static uint8_t cut;  /* a task switch emptied the stack (MCUPROF_PATH_CUT) */
static uint8_t busy; /* mcuprof_path_enter() runs (an NMI that calls profiled code) */
#if MCUPROF_CFG_TASKS > 0
static uintptr_t owner; /* the task whose frames the stack holds */
#endif
static uintptr_t root_pc, root_sp;
static uint8_t root_set;

volatile uintptr_t mcuprof_path_trap_sp;

/* The sampler's index of the table: slot -> entry + 1 (0 free), and each
 * entry's hash, so that most lookups compare one word per candidate. */
static uint16_t slots[SLOTS];
static uint32_t hashes[MCUPROF_CFG_PATHS];
static struct {
    uint32_t generation, depth, index;
    uint16_t flags;
    uint8_t valid;
} last;

MCUPROF_NOINSTR __attribute__((always_inline)) static inline struct frame *at(uint32_t i)
{
    return &frames[i];
}

MCUPROF_NOINSTR __attribute__((always_inline)) static inline uintptr_t word(uintptr_t address)
{
    return *(const volatile uintptr_t *)address;
}

/* A frame whose sp is SP_FRAME is dead when a function with sp SP is
 * entered (or interrupted) on the same stack: it lies wholly below. On
 * RISC-V a function with the same sp has returned too: the caller's sp is
 * always above its callee's. */
MCUPROF_NOINSTR __attribute__((always_inline)) static inline int below(uintptr_t sp_frame, uintptr_t sp)
{
    return MCUPROF_PORT_FRAMELESS ? sp_frame < sp : sp_frame <= sp;
}

/* Returned for certain when the function SELFPC is entered with SP: the
 * frame lies wholly below (a callee its caller made before), or it is an
 * earlier call of the same function at the same sp. */
MCUPROF_NOINSTR __attribute__((always_inline)) static inline int returned(const struct frame *f, uintptr_t selfpc,
                                                                         uintptr_t sp)
{
    return below(f->sp, sp) || (f->sp == sp && f->selfpc == selfpc);
}

/* Its top is known and the word under it no longer holds its return
 * address: something later has written over its frame, it has returned.
 * (A frame without a frame of its own, top == sp, tells nothing.) */
MCUPROF_NOINSTR __attribute__((always_inline)) static inline int overwritten(const struct frame *f)
{
    return f->top != 0u && f->top != f->sp && word(f->top - PTR) != f->frompc;
}

MCUPROF_NOINSTR __attribute__((always_inline)) static inline uint32_t same_stack(const struct frame *f,
                                                                                 uint32_t stack)
{
#if MCUPROF_PORT_STACKS > 1
    return f->stack == stack;
#else
    (void)f;
    (void)stack;
    return 1u;
#endif
}

#if MCUPROF_CFG_PATH_TASKS > 0
/* The shadow stacks of tasks that are switched out, each kept until its
 * task runs again: its frames are live meanwhile, as the task is stopped
 * in the middle of them. A task with no slot (all taken, or not seen
 * since recording started) starts empty and flagged CUT. */
struct kept_stack {
    uintptr_t task; /* its handle; 0: a free slot */
    uintptr_t truncated_sp;
    uint32_t depth;
    uint8_t rooted, cut;
    struct frame frames[DEPTH];
};
static struct kept_stack kept[MCUPROF_CFG_PATH_TASKS];

MCUPROF_NOINSTR static struct kept_stack *kept_of(uintptr_t task)
{
    for (uint32_t i = 0; i < MCUPROF_CFG_PATH_TASKS; i++)
        if (kept[i].task == task)
            return &kept[i];
    return 0;
}

/* The slot of TASK, or a free one given to it; 0 when all are taken. */
MCUPROF_NOINSTR static struct kept_stack *kept_for(uintptr_t task)
{
    struct kept_stack *k = kept_of(task);
    if (!k && (k = kept_of(0)) != 0)
        k->task = task;
    return k;
}

/* Keep the stack of the task switched out, if it gets a slot. */
MCUPROF_NOINSTR static void keep_stack(void)
{
    struct kept_stack *k = owner ? kept_for(owner) : 0;
    if (!k)
        return;
    for (uint32_t i = 0; i < depth; i++)
        k->frames[i] = frames[i];
    k->depth = depth;
    k->truncated_sp = truncated_sp;
    k->rooted = rooted;
    k->cut = cut;
}

/* Take back the kept stack of TASK, switched in: 0 when it has none. The
 * task's stack was left alone while it was switched out; a frame whose
 * return address is no longer under its top was overwritten (a stack
 * overflow, a task deleted without a word): it and those above it go. */
MCUPROF_NOINSTR static int take_stack(uintptr_t task)
{
    const struct kept_stack *k = task ? kept_of(task) : 0;
    if (!k)
        return 0;
    uint32_t n = 0;
    while (n < k->depth && !overwritten(&k->frames[n])) {
        frames[n] = k->frames[n];
        n++;
    }
    depth = n;
    truncated_sp = k->truncated_sp;
    rooted = k->rooted && n > 0u;
    cut = k->cut;
    return 1;
}

MCUPROF_NOINSTR void mcuprof_paths_task_new(uintptr_t handle)
{
    struct kept_stack *k;
    /* A task already current when created (FreeRTOS before its scheduler
     * runs) shares its stack with the code that created it: not whole. */
    void *const volatile *current = mcuprof_task_watch.current;
    if (!handle || busy || !current || (uintptr_t)*current == handle || (k = kept_for(handle)) == 0)
        return;
    k->depth = 0;
    k->truncated_sp = 0;
    k->rooted = 0;
    k->cut = 0; /* seen from its first call: its paths are whole */
}

MCUPROF_NOINSTR void mcuprof_paths_task_gone(uintptr_t handle)
{
    struct kept_stack *k;
    if (handle && !busy && (k = kept_of(handle)) != 0)
        k->task = 0;
}
#endif

#if MCUPROF_CFG_TASKS > 0
/* With a watched RTOS, the frames belong to one task: when another runs,
 * they say nothing about it. Keep them for when it runs again (PATH_TASKS)
 * and take the new task's; or empty the stack, and flag what follows. */
MCUPROF_NOINSTR static void check_task(void)
{
    void *const volatile *current = mcuprof_task_watch.current;
    if (!current)
        return;
    uintptr_t task = (uintptr_t)*current;
    if (task == owner)
        return;
#if MCUPROF_CFG_PATH_TASKS > 0
    keep_stack();
#endif
    owner = task;
    generation++;
#if MCUPROF_CFG_PATH_TASKS > 0
    if (take_stack(task))
        return;
#endif
    depth = 0;
    rooted = 0;
    truncated_sp = 0;
    cut = 1;
}
#else
#define check_task() ((void)0)
#endif

/* The call's arc, as the hook's record path counts it: a hit at the head
 * of its bucket's chain here, with interrupts masked (a handler cannot
 * undo the increment, and a fast path it interrupted, LDREX/STREX or
 * LR/SC, retries), so that a tick never splits the state check from the
 * count. Returns 0 when mcuprof_record_arc() must count it (a chain to
 * walk, a new arc, a host snapshot in progress, recording stopped).
 * Counted here rather than by the assembly fast path so that the hook's
 * exit can leave selfpc, not frompc, in the word GCC pushed (see the
 * hooks). */
MCUPROF_NOINSTR __attribute__((always_inline)) static inline int count_arc(uintptr_t selfpc, uintptr_t frompc)
{
    const uint32_t state = mcuprof_region.header.state;
    if ((state & (MCUPROF_STATE_ARCS_Msk | MCUPROF_STATE_FROZEN_Msk)) != MCUPROF_STATE_ARCS_Msk)
        return 0;
    uint32_t ref = mcuprof_region.buckets[(frompc >> MCUPROF_PORT_HASH_SHIFT) & (MCUPROF_BUCKETS - 1u)];
    mcuprof_arc_t *a = (mcuprof_arc_t *)(void *)((uint8_t *)mcuprof_region.arcs + ((uintptr_t)ref << 2));
    /* record 0 has frompc 0: never a hit */
    if (a->frompc != frompc || a->selfpc != selfpc)
        return 0;
    if (a->count != UINT32_MAX)
        a->count++;
    return 1;
}

/* Known to be live: its top is known and the word under it still holds
 * its return address. */
MCUPROF_NOINSTR __attribute__((always_inline)) static inline int intact(const struct frame *f)
{
    return f->top != 0u && f->top != f->sp && word(f->top - PTR) == f->frompc;
}

/* The new function (SELFPC, FROMPC), which has a frame, saved its return
 * address under F's sp: F is its caller. The hooks leave selfpc, never a
 * return address, in the word under a function's sp, but other copies of
 * return addresses lie about in free stack: an exception entry stacks
 * the interrupted lr, which holds the return address of the last call
 * (when it comes just after that call returned) or of the new function
 * itself (when it comes during its prologue). So a frame is taken for the
 * caller only if it can be: it is not an earlier call from the new call's
 * own call site (unless the same function: recursion), and, where its top
 * is known, its own return address is still in place under it. */
MCUPROF_NOINSTR __attribute__((always_inline)) static inline int returns_to(const struct frame *f, uintptr_t selfpc,
                                                                           uintptr_t frompc)
{
    return word(f->sp - PTR) == frompc && (f->frompc != frompc || f->selfpc == selfpc) &&
           (f->top == 0u || intact(f));
}

/* A frame with the new function's own sp (ARM) is its caller, and the
 * new function has no frame, when the frame is live and is not an earlier
 * call of the same function, nor a call from the same call site: those
 * are calls that have returned (whose return address the new call has
 * just saved again, in the same place). */
MCUPROF_NOINSTR __attribute__((always_inline)) static inline int may_call(const struct frame *f, uintptr_t selfpc,
                                                                         uintptr_t frompc)
{
    return f->selfpc != selfpc && f->frompc != frompc && intact(f);
}

/* Words looked at above a new function's sp for a saved return address. */
#define FRAME_SCAN_WORDS 32u

/* W can be a return address: it points into profiled code (the ranges of
 * the histogram), just after a call instruction. Reading the code there
 * is safe: it lies in the ranges. */
MCUPROF_NOINSTR static int return_address(uintptr_t w)
{
    uintptr_t lo0 = MCUPROF_SYM(__mcuprof_range0_low), lo1 = MCUPROF_SYM(__mcuprof_range1_low);
#if defined(__arm__)
    if (!(w & 1u))
        return 0; /* Thumb: every return address has bit 0 set */
    w &= ~(uintptr_t)1;
#else
    if (w & 1u)
        return 0;
#endif
    if (!((w - lo0 >= 4u && w - lo0 <= MCUPROF_SYM(__mcuprof_range0_size)) ||
          (w - lo1 >= 4u && w - lo1 <= MCUPROF_SYM(__mcuprof_range1_size))))
        return 0;
    const volatile uint16_t *h = (const volatile uint16_t *)w;
#if defined(__arm__)
    /* BLX Rm, or the two halves of BL */
    return (h[-1] & 0xFF87u) == 0x4780u || ((h[-2] & 0xF800u) == 0xF000u && (h[-1] & 0xD000u) == 0xD000u);
#else
    /* JAL or JALR linking ra, or C.JALR (C.JAL on RV32) */
    uint32_t insn = (uint32_t)h[-2] | (uint32_t)h[-1] << 16;
    uint32_t c = h[-1];
    return ((insn & 0xFFFu) == 0x0EFu || (insn & 0x7FFFu) == 0x00E7u) ||
           ((c & 0xF07Fu) == 0x9002u && (c & 0x0F80u) != 0u) || (__riscv_xlen == 32 && (c & 0xE003u) == 0x2001u);
#endif
}

/* The first return address in the words from SP up (at most
 * FRAME_SCAN_WORDS), and in *AT its address; 0 if none. A function that
 * calls saves its return address at the top of the registers it pushes
 * (ARM `push {..., lr}`, RISC-V's highest slot), so the scan ends in the
 * first frame above SP: the new function's if it has one, else its
 * caller's, which has one as it made a call. Every word read lies there,
 * unless that return address leads out of the profiled code (a caller in
 * ROM, say): then at most FRAME_SCAN_WORDS words above a live sp. */
MCUPROF_NOINSTR __attribute__((noinline)) static uintptr_t first_return_address(uintptr_t sp, uintptr_t *at)
{
    for (uint32_t i = 0; i < FRAME_SCAN_WORDS; i++) {
        uintptr_t w = word(sp + i * PTR);
        if (return_address(w)) {
            *at = sp + i * PTR;
            return w;
        }
    }
    *at = 0;
    return 0;
}

/* The same for a new function (SELFPC, SP, FROMPC), remembered for the
 * next call: a loop calling one function from code without the hook asks
 * at every call. The same function at the same sp from the same call site
 * has the same frame, and the word found is checked again. */
static struct {
    uintptr_t selfpc, sp, frompc, at, w;
} ra_last;

MCUPROF_NOINSTR __attribute__((always_inline)) static inline uintptr_t
frame_return_address(uintptr_t selfpc, uintptr_t sp, uintptr_t frompc, uintptr_t *at)
{
    if (ra_last.at && ra_last.selfpc == selfpc && ra_last.sp == sp && ra_last.frompc == frompc &&
        word(ra_last.at) == ra_last.w) {
        *at = ra_last.at;
        return ra_last.w;
    }
    uintptr_t w = first_return_address(sp, at);
    ra_last.selfpc = selfpc;
    ra_last.sp = sp;
    ra_last.frompc = frompc;
    ra_last.at = *at;
    ra_last.w = w;
    return w;
}

/* A frame B whose caller is not known (its top 0) shares the sp of a new
 * function (called from FROMPC): B called it and it has no frame, or B
 * was a leaf without a frame that returned and the new function has one.
 * The first return address above that sp is the one saved by whichever
 * has a frame. (The root, B's frompc 0, has one: it is the caller unless
 * the new function saved its own.) */
MCUPROF_NOINSTR static int frameless_callee(const struct frame *b, uintptr_t selfpc, uintptr_t sp,
                                            uintptr_t frompc)
{
    uintptr_t at, w = frame_return_address(selfpc, sp, frompc, &at);
    return b->frompc ? w == b->frompc : w != frompc;
}

/* The top of a new function's frame (SP, called from FROMPC) when its
 * own saved return address is the first above its sp; 0: not known (it
 * has no frame, or a larger one than the scan covers). A frame lying
 * below that top has returned, as a live caller's frame lies wholly
 * above it. */
MCUPROF_NOINSTR static uintptr_t own_top(uintptr_t selfpc, uintptr_t sp, uintptr_t frompc)
{
    uintptr_t at, w = frame_return_address(selfpc, sp, frompc, &at);
    return w == frompc ? at + PTR : 0u;
}

/* The general case of a new call (selfpc, sp, frompc) on STACK, whose
 * frames above K have returned for certain: find its caller and the top
 * of its frame (0: unknown), and leave in *K the frames that stay. */
MCUPROF_NOINSTR __attribute__((noinline)) static uintptr_t find_caller(uint32_t *kp, uintptr_t selfpc, uintptr_t sp,
                                                                      uintptr_t frompc, uint32_t stack)
{
    uint32_t k = *kp;
    /* [run, k): frames with the new function's own sp. Only a function
     * without a frame shares its caller's sp (ARM), so of these only the
     * first can be live (the others are leaves that returned), and only as
     * the caller of a new function that has no frame either. */
    uint32_t run = k;
    while (MCUPROF_PORT_FRAMELESS && run && same_stack(at(run - 1u), stack) && at(run - 1u)->sp == sp)
        run--;
    int keep_first = 0;
    if (run < k) {
        const struct frame *b = at(run);
        if (may_call(b, selfpc, frompc)) {
            *kp = run + 1u; /* live: the caller, and the new function has no frame */
            return sp;
        }
        /* not the caller if it is the same function, or was called from
         * the same call site, or has no frame itself, or has returned;
         * else perhaps (its top is unknown) */
        keep_first = b->selfpc != selfpc && b->frompc != frompc && b->top == 0u &&
                     frameless_callee(b, selfpc, sp, frompc);
        k = run;
    }

    /* The caller of a function with a frame: the word under its sp is the
     * new function's saved return address (see returns_to). */
    for (uint32_t i = k; i-- > 0u;) {
        const struct frame *t = at(i);
        if (!same_stack(t, stack))
            break; /* an interrupted task's frames: the caller is not below */
        if (returns_to(t, selfpc, frompc)) {
            /* frames with t's sp above the first of them have no frame
             * of their own: they are leaves that returned */
            while (i && at(i - 1u)->sp == t->sp && same_stack(at(i - 1u), stack))
                i--;
            *kp = i + 1u;
            return at(i)->sp;
        }
        /* (A return address still in place under a frame's top does not
         * prove that frame live: a larger frame that replaced it may not
         * have written that word yet. So the search goes on down.) */
    }
    if (keep_first) {
        /* no caller found below: take the first frame with the new
         * function's sp for its caller, the new function for one without
         * a frame */
        *kp = run + 1u;
        return sp;
    }
    /* the caller is not known: keep what is not known to have returned */
    /* A frame whose extent is not known (its caller unknown, or it has no
     * frame of its own) may have returned without a trace: the new
     * function's own frame may tell. Not for the root, live until a call
     * above it (and which a loop of calls from code without the hook
     * would otherwise pay for at every call). */
    const struct frame *t = k ? at(k - 1u) : 0;
    uintptr_t top = t && same_stack(t, stack) && t->frompc != 0u && (t->top == 0u || t->top == t->sp)
                        ? own_top(selfpc, sp, frompc)
                        : 0u;
    while (k && same_stack(at(k - 1u), stack) && (overwritten(at(k - 1u)) || at(k - 1u)->sp < top))
        k--;
    *kp = k;
    return top; /* its caller's sp, if its frame told */
}

/* Push the new call's frame above the K frames that stay; TOP is the top
 * of its frame (0: unknown). */
MCUPROF_NOINSTR __attribute__((always_inline)) static inline void push(uint32_t k, uintptr_t selfpc,
                                                                      uintptr_t sp, uintptr_t frompc,
                                                                      uintptr_t top, uint32_t stack)
{
    struct frame *f = at(k);
    f->selfpc = selfpc;
    f->frompc = frompc;
    f->sp = sp;
    f->top = top;
#if MCUPROF_PORT_STACKS > 1
    f->stack = stack;
#else
    (void)stack;
#endif
    /* the frame is whole before the depth counts it (an NMI sampler) */
    __asm__ volatile("" ::: "memory");
    depth = k + 1u;
    generation++;
}

/* The arc is not a hit at the head of its chain: mcuprof_record_arc()
 * counts it, with interrupts masked by itself. */
MCUPROF_NOINSTR __attribute__((noinline)) static uintptr_t record_arc(uintptr_t selfpc, uintptr_t frompc)
{
    mcuprof_record_arc(frompc, selfpc);
    return frompc;
}

/* mcuprof_path_enter() past its common cases, interrupts masked (S). */
MCUPROF_NOINSTR __attribute__((noinline)) static uintptr_t enter(uintptr_t selfpc, uintptr_t sp, uintptr_t frompc,
                                                                mcuprof_irq_state_t s)
{
    if (busy)
        goto out; /* an NMI or fault handler interrupted an update: leave it */
    busy = 1;
    check_task();

    uint32_t stack = mcuprof_port_stack_id();
    uint32_t k = depth;
#if MCUPROF_PORT_STACKS > 1
    /* On the process stack, frames of the main stack on top are handlers
     * that have returned. Frames of the other stack further down stay as
     * they are, and no stack pointer is compared across stacks: a task's
     * frames under a handler were interrupted, main-stack frames under a
     * task's are code from before its scheduler. */
    while (stack && k && !at(k - 1u)->stack)
        k--;
#endif
    /* The outermost dropped frame has returned once a call is at or above
     * its sp: it had callees, so it had a frame of its own. */
    if (truncated_sp && truncated_sp <= sp)
        truncated_sp = 0;
    while (k && same_stack(at(k - 1u), stack) && returned(at(k - 1u), selfpc, sp))
        k--;
    uintptr_t top = find_caller(&k, selfpc, sp, frompc, stack);
    if (k == 0u)
        rooted = 0;
    if (k == DEPTH) {
        /* full: drop the outermost frame but the root; paths are
         * TRUNCATED until it returns */
        uint32_t first = rooted;
        if (!truncated_sp)
            truncated_sp = at(first)->sp;
        for (uint32_t i = first; i + 1u < k; i++)
            *at(i) = *at(i + 1u);
        k--;
    }
    push(k, selfpc, sp, frompc, top, stack);
    busy = 0;
out:;
    int counted = count_arc(selfpc, frompc);
    mcuprof_port_irq_restore(s);
    if (!counted)
        mcuprof_record_arc(frompc, selfpc);
    return frompc;
}

/* The common cases here, without a call (so without saving registers):
 * after the frames that returned, the top frame is the caller of a
 * function with a frame, which saved its return address under the
 * caller's sp; or (ARM) a live frame with the new function's own sp, the
 * caller of a function without a frame, under at most one leaf that
 * returned. Everything else, enter(). */
MCUPROF_NOINSTR uintptr_t mcuprof_path_enter(uintptr_t selfpc, uintptr_t sp, uintptr_t frompc)
{
    mcuprof_irq_state_t s = mcuprof_port_irq_save();
#if MCUPROF_CFG_TASKS > 0
    if (mcuprof_task_watch.current && (uintptr_t)*mcuprof_task_watch.current != owner)
        return enter(selfpc, sp, frompc, s);
#endif
    uint32_t k = depth;
    uint32_t stack = mcuprof_port_stack_id();
    if (busy || truncated_sp || k == 0u)
        return enter(selfpc, sp, frompc, s);
    const struct frame *t = at(k - 1u);
    while (same_stack(t, stack) && returned(t, selfpc, sp)) {
        if (--k == 0u)
            return enter(selfpc, sp, frompc, s);
        t--;
    }
    if (!same_stack(t, stack) || k == DEPTH)
        return enter(selfpc, sp, frompc, s);
    uintptr_t top;
    if (t->sp != sp) {
        if (!returns_to(t, selfpc, frompc) || (k > 1u && t[-1].sp == t->sp))
            return enter(selfpc, sp, frompc, s);
        top = t->sp;
    } else if (MCUPROF_PORT_FRAMELESS && may_call(t, selfpc, frompc)) {
        top = sp;
    } else if (MCUPROF_PORT_FRAMELESS && k > 1u && t[-1].sp == sp && same_stack(&t[-1], stack) &&
               may_call(&t[-1], selfpc, frompc)) {
        k--;
        top = sp;
    } else {
        return enter(selfpc, sp, frompc, s);
    }
    push(k, selfpc, sp, frompc, top, stack);
    int counted = count_arc(selfpc, frompc);
    mcuprof_port_irq_restore(s);
    if (!counted)
        return record_arc(selfpc, frompc);
    return frompc;
}

/* FNV-1a over the path (frames FIRST to N of the stack): flags and depth,
 * then each frame. */
MCUPROF_NOINSTR static uint32_t hash_path(uint32_t first, uint32_t n, uint32_t flags)
{
    uint32_t h = (2166136261u ^ flags ^ ((n - first) << 16)) * 16777619u;
    for (uint32_t i = first; i < n; i++) {
        uintptr_t pc = at(i)->selfpc;
        h = (h ^ (uint32_t)pc) * 16777619u;
#if UINTPTR_MAX > 0xFFFFFFFFu
        h = (h ^ (uint32_t)(pc >> 32)) * 16777619u;
#endif
    }
    return h;
}

MCUPROF_NOINSTR static int path_is(const struct mcuprof_path_entry *e, uint32_t first, uint32_t n,
                                    uint32_t flags)
{
    if (e->h.depth != n - first || e->h.flags != flags)
        return 0;
    for (uint32_t i = first; i < n; i++)
        if (e->frames[i - first] != at(i)->selfpc)
            return 0;
    return 1;
}

/* The entry of the path of frames FIRST to N with FLAGS: found, or added;
 * -1 when the table is full. */
MCUPROF_NOINSTR static int32_t find_path(uint32_t first, uint32_t n, uint32_t flags)
{
    struct mcuprof_ext *x = &mcuprof_region.path_ext;
    uint32_t used = x->used;
    uint32_t h = hash_path(first, n, flags);
    uint32_t slot = h & (SLOTS - 1u);
    for (uint32_t probes = 0; probes < SLOTS; probes++, slot = (slot + 1u) & (SLOTS - 1u)) {
        uint32_t v = slots[slot];
        if (v != 0u && v <= used) {
            if (hashes[v - 1u] == h && path_is(&mcuprof_region.paths[v - 1u], first, n, flags))
                return (int32_t)(v - 1u);
            continue;
        }
        /* A free slot (or one left by entries a host removed): the path is
         * not in the table. */
        if (used >= MCUPROF_CFG_PATHS)
            return -1;
        struct mcuprof_path_entry *e = &mcuprof_region.paths[used];
        for (uint32_t i = first; i < n; i++)
            e->frames[i - first] = at(i)->selfpc;
        for (uint32_t i = n - first; i < DEPTH; i++)
            e->frames[i] = 0;
        e->h.samples = 0;
        e->h.depth = (uint16_t)(n - first);
        e->h.flags = (uint16_t)flags;
        hashes[used] = h;
        slots[slot] = (uint16_t)(used + 1u);
        /* the entry is whole before a host can see it in use */
        mcuprof_port_barrier();
        x->used = used + 1u;
        return (int32_t)used;
    }
    return -1;
}

MCUPROF_NOINSTR void mcuprof_path_sample(uintptr_t sp, uint32_t stack, uintptr_t lr)
{
    const uint32_t on = MCUPROF_STATE_ARCS_Msk | MCUPROF_STATE_SAMPLING_Msk;
    /* counted only where the sample was, and only while the hook keeps
     * the stack */
    if ((mcuprof_region.header.state & (on | MCUPROF_STATE_FROZEN_Msk)) != on)
        return;
    if (busy)
        return; /* (an NMI sampler in the middle of an update) */
    check_task();

    /* The live frames: from the top, drop those that have returned. */
    uint32_t n = depth;
    while (n) {
        const struct frame *e = at(n - 1u);
        if (!same_stack(e, stack)) {
            if (stack) {
                n--; /* a handler's frame, seen from a task: returned */
                continue;
            }
            break; /* a task's frames under a handler: interrupted, live */
        }
        if (e->sp < sp || overwritten(e)) {
            n--;
            continue;
        }
        /* A function without a frame leaves nothing on the stack: while
         * it runs lr still holds its return address (it cannot save lr);
         * once another lr is seen, it has returned. */
        if (MCUPROF_PORT_FRAMELESS && e->top == e->sp && e->sp == sp && lr != 0u && lr != e->frompc) {
            n--;
            continue;
        }
        break;
    }
    uint32_t flags = (cut ? MCUPROF_PATH_CUT : 0u) |
                     (truncated_sp != 0u && truncated_sp >= sp ? MCUPROF_PATH_TRUNCATED : 0u);

    struct mcuprof_ext *x = &mcuprof_region.path_ext;
    int32_t index;
    if (last.valid && last.generation == generation && last.depth == n && last.flags == flags &&
        last.index < x->used) {
        index = (int32_t)last.index; /* nothing entered or left since */
    } else {
        /* a truncated path has lost frames above the root: it is the
         * innermost frames alone */
        index = find_path(flags & MCUPROF_PATH_TRUNCATED ? rooted : 0u, n, flags);
        if (index < 0) {
            mcuprof_count_saturating(&x->lost);
            last.valid = 0;
            return;
        }
        last.generation = generation;
        last.depth = n;
        last.flags = (uint16_t)flags;
        last.index = (uint32_t)index;
        last.valid = 1;
    }
    mcuprof_count_saturating(&mcuprof_region.paths[index].h.samples);
    if (flags & MCUPROF_PATH_TRUNCATED)
        mcuprof_count_saturating(&x->invalid);
}

MCUPROF_NOINSTR uintptr_t mcuprof_path_take_sp(uintptr_t here)
{
    uintptr_t sp = mcuprof_path_trap_sp;
    if (!sp)
        return here;
    mcuprof_path_trap_sp = 0;
    return sp;
}

MCUPROF_NOINSTR void mcuprof_paths_set_root(uintptr_t pc, uintptr_t sp)
{
    if (root_set)
        return;
    root_pc = pc;
    root_sp = sp;
    root_set = 1;
}

MCUPROF_NOINSTR void mcuprof_paths_clear_root(void)
{
    root_set = 0;
}

MCUPROF_NOINSTR void mcuprof_paths_restart(void)
{
#if MCUPROF_CFG_PATH_TASKS > 0
    /* what the tasks called while recording was off is not known */
    for (uint32_t i = 0; i < MCUPROF_CFG_PATH_TASKS; i++)
        kept[i].task = 0;
#endif
    depth = 0;
    rooted = 0;
    truncated_sp = 0;
    cut = 0;
    generation++;
#if MCUPROF_CFG_TASKS > 0
    owner = mcuprof_task_watch.current ? (uintptr_t)*mcuprof_task_watch.current : 0u;
#endif
    if (root_set && root_sp) {
        /* The function that started recording is live, and its callees'
         * frames end at its sp: a frame of its own, at the bottom. Its
         * entry was not seen, so the top of its frame is unknown. */
        struct frame *f = at(0);
        f->selfpc = root_pc;
        f->frompc = 0;
        f->sp = root_sp;
        f->top = 0;
#if MCUPROF_PORT_STACKS > 1
        f->stack = mcuprof_port_stack_id();
#endif
        depth = 1;
        rooted = 1;
    }
    root_set = 0;
}

MCUPROF_NOINSTR void mcuprof_paths_init(void)
{
    for (uint32_t i = 0; i < SLOTS; i++)
        slots[i] = 0;
    last.valid = 0;
    mcuprof_path_trap_sp = 0;
    mcuprof_paths_restart();
}

MCUPROF_NOINSTR void mcuprof_paths_reset(void)
{
    struct mcuprof_ext *x = &mcuprof_region.path_ext;
    for (uint32_t i = 0; i < MCUPROF_CFG_PATHS; i++)
        mcuprof_region.paths[i].h.samples = 0;
    x->lost = 0;
    x->invalid = 0;
}
#endif

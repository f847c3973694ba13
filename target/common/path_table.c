/*
 * path_table.c - the table of the call paths the sampler saw
 * (MCUPROF_CFG_PATHS > 0, the image's MCUPROF_EXT_PATHS table): on each
 * sample, the frames of the shadow stack (shadow_stack.h) that are still
 * live make the path, found in or added to the table through an
 * open-addressed index, and counted. The frame under the innermost one
 * then keeps the entry, so that the next samples of that path count it
 * inline (path_sample.h).
 */
#include "mcuprof.h"
#include "mcuprof_layout.h"
#include "mcuprof_port.h"
#include "path_sample.h"
#include "paths.h"
#include "shadow_stack.h"

#if MCUPROF_CFG_PATHS > 0

/* Slots of the sampler's open-addressed index: a power of two at least
 * twice the table, so a probe sequence always meets a free slot soon. */
#define P2(x) ((x) <= 2 ? 2 : (x) <= 4 ? 4 : (x) <= 8 ? 8 : (x) <= 16 ? 16 : (x) <= 32 ? 32 : \
               (x) <= 64 ? 64 : (x) <= 128 ? 128 : (x) <= 256 ? 256 : (x) <= 512 ? 512 : \
               (x) <= 1024 ? 1024 : (x) <= 2048 ? 2048 : (x) <= 4096 ? 4096 : (x) <= 8192 ? 8192 : \
               (x) <= 16384 ? 16384 : 32768)
#define SLOTS ((uint32_t)P2(2 * MCUPROF_CFG_PATHS))

volatile uintptr_t mcuprof_path_trap_sp;

/* The sampler's index of the table: slot -> entry + 1 (0 free), and each
 * entry's hash, so that most lookups compare one word per candidate. */
static uint16_t slots[SLOTS];
static uint32_t hashes[MCUPROF_CFG_PATHS];
struct mcuprof_path_entry *mcuprof_path_root_child;

/* FNV-1a over the path (frames FIRST to N of the stack): flags and depth,
 * then each frame. */
MCUPROF_NOINSTR static uint32_t hash_path(uint32_t first, uint32_t n, uint32_t flags)
{
    uint32_t h = (2166136261u ^ flags ^ ((n - first) << 16)) * 16777619u;
    for (uint32_t i = first; i < n; i++) {
        uintptr_t pc = frame_at(i)->selfpc;
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
        if (e->frames[i - first] != frame_at(i)->selfpc)
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
            e->frames[i - first] = frame_at(i)->selfpc;
        for (uint32_t i = n - first; i < MCUPROF_SHADOW_DEPTH; i++)
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
    const struct mcuprof_shadow_stack *s = &mcuprof_shadow;
    const uint32_t on = MCUPROF_STATE_ARCS_Msk | MCUPROF_STATE_SAMPLING_Msk;
    /* counted only where the sample was, and only while the hook keeps
     * the stack */
    if ((mcuprof_region.header.state & (on | MCUPROF_STATE_FROZEN_Msk)) != on)
        return;
    if (s->busy)
        return; /* (an NMI sampler in the middle of an update) */
    shadow_check_task();

    /* The live frames: from the top, drop those that have returned. */
    uint32_t n = s->depth;
    while (n) {
        const struct mcuprof_frame *e = frame_at(n - 1u);
        if (mcuprof_frame_live_at(e, sp, stack, lr))
            break;
        if (!frame_on_stack(e, stack) && !stack)
            break; /* a task's frames under a handler: interrupted, live */
        n--;       /* returned (a handler's frame seen from a task, too) */
    }
    uint32_t flags = (s->cut ? MCUPROF_PATH_CUT : 0u) |
                     (s->truncated_sp != 0u && s->truncated_sp >= sp ? MCUPROF_PATH_TRUNCATED : 0u);

    /* a truncated path has lost frames above the root: it is the
     * innermost frames alone */
    struct mcuprof_ext *x = &mcuprof_region.path_ext;
    uint32_t first = flags & MCUPROF_PATH_TRUNCATED ? s->rooted : 0u;
    int32_t index = find_path(first, n, flags);
    if (index < 0) {
        mcuprof_count_saturating(&x->lost);
        return;
    }
    mcuprof_count_saturating(&mcuprof_region.paths[index].h.samples);
    if (flags & MCUPROF_PATH_TRUNCATED)
        mcuprof_count_saturating(&x->invalid);
    /* the next samples of this path: path_sample.h */
    if (n > 1u && n > first)
        frame_at(n - 2u)->child = &mcuprof_region.paths[index];
    else if (n == 1u && first == 0u)
        mcuprof_path_root_child = &mcuprof_region.paths[index];
}

MCUPROF_NOINSTR uintptr_t mcuprof_path_take_sp(uintptr_t here)
{
    uintptr_t sp = mcuprof_path_trap_sp;
    if (!sp)
        return here;
    mcuprof_path_trap_sp = 0;
    return sp;
}

MCUPROF_NOINSTR void mcuprof_paths_init(void)
{
    for (uint32_t i = 0; i < SLOTS; i++)
        slots[i] = 0;
    mcuprof_path_root_child = 0;
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

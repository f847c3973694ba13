/*
 * mcuprof_layout.h - where the runtime puts the tables inside the profile
 * image. Read by the portable C code and by the assembly hooks, so the two
 * can never disagree about an offset. The format itself is in
 * mcuprof/image.h; this only instantiates it for this build's configuration.
 */
#ifndef MCUPROF_LAYOUT_H
#define MCUPROF_LAYOUT_H

#include "mcuprof/image.h"
#include "mcuprof_config.h"

#if __SIZEOF_POINTER__ == 4
#define MCUPROF_ARC_SIZE MCUPROF_ARC32_SIZE
#define MCUPROF_ARC_OFF_COUNT MCUPROF_ARC32_OFF_COUNT
#elif __SIZEOF_POINTER__ == 8
#define MCUPROF_ARC_SIZE MCUPROF_ARC64_SIZE
#define MCUPROF_ARC_OFF_COUNT MCUPROF_ARC64_OFF_COUNT
#else
#error "mcuprof supports 4- and 8-byte pointers"
#endif

/* A record reference (bucket or link entry) is the record's distance from
 * record 0 in words: address = &arcs[0] + (ref << 2). */
#define MCUPROF_ARC_WORDS (MCUPROF_ARC_SIZE / 4)
#if MCUPROF_CFG_ARCS * MCUPROF_ARC_WORDS > 65535
#error "MCUPROF_CFG_ARCS too large: record references are 16-bit word offsets (at most 21845 arcs with 32-bit pointers, 10922 with 64-bit)"
#endif

/* The buckets follow the header, then the arc records (record 0 is the
 * sentinel), then the links. Records right after the buckets let the
 * ARMv7-M hook reach a record from the bucket array's address with the
 * load's own offset (up to 1020 bytes: 256 buckets), one base register
 * instead of two. The records start 8-byte aligned (a 64-bit target's
 * pointers). */
#define MCUPROF_BUCKETS_OFFSET MCUPROF_HEADER_SIZE
#define MCUPROF_ARCS_OFFSET (MCUPROF_BUCKETS_OFFSET + (MCUPROF_BUCKETS * 2 + 7) / 8 * 8)
#define MCUPROF_LINKS_OFFSET (MCUPROF_ARCS_OFFSET + (MCUPROF_CFG_ARCS + 1) * MCUPROF_ARC_SIZE)

#if !defined(__ASSEMBLER__)
#if __SIZEOF_POINTER__ == 4
typedef struct mcuprof_arc32 mcuprof_arc_t;
#else
typedef struct mcuprof_arc64 mcuprof_arc_t;
#endif

/* Every build has the table of held-off samples (struct mcuprof_held). */
#define MCUPROF_HAS_EXT 1
/* The fixed entries of the context table. */
#define MCUPROF_CTX_SLOT_THREAD 0u
#define MCUPROF_CTX_SLOT_IDLE 1u
#define MCUPROF_CTX_SLOT_IDLE_MISSED 2u
#define MCUPROF_CTX_FIXED 3u
#if MCUPROF_CFG_CONTEXTS > 0 && MCUPROF_CFG_CONTEXTS < MCUPROF_CTX_FIXED
#error "MCUPROF_CFG_CONTEXTS: 0 (no table) or at least 3 (thread, idle, idle periods missed)"
#endif

#if MCUPROF_CFG_PATHS > 0
/* An entry of the path table (MCUPROF_EXT_TASK_PATHS): the format's
 * header, then the frames in the target's pointer size, outermost first
 * (mcuprof/image.h). */
struct mcuprof_path_entry {
    struct mcuprof_task_path h;
    uintptr_t frames[MCUPROF_CFG_PATH_DEPTH];
};
#endif

/* The fixed-size part of the image. The histogram follows it; the linker
 * fragment sizes that from the text ranges. The extension tables start
 * 8-byte aligned, as the format requires. */
struct mcuprof_region {
    struct mcuprof_header header;
    uint16_t buckets[MCUPROF_BUCKETS];
    mcuprof_arc_t arcs[MCUPROF_CFG_ARCS + 1] __attribute__((aligned(8)));
    uint16_t links[MCUPROF_CFG_ARCS + 1]; /* by record index */
    /* The extension tables, each its header then its entries: spelled
     * out one by one, as each is present or not on its own option and a
     * debugger shows each under its own name. */
#if MCUPROF_CFG_SPILL > 0
    struct mcuprof_ext spill_ext __attribute__((aligned(8)));
    struct mcuprof_spill spills[MCUPROF_CFG_SPILL];
#endif
#if MCUPROF_CFG_LATE > 0
    struct mcuprof_ext late_ext __attribute__((aligned(8)));
    struct mcuprof_late lates[MCUPROF_CFG_LATE];
#endif
    struct mcuprof_ext held_ext __attribute__((aligned(8)));
    struct mcuprof_held held;
#if MCUPROF_CFG_BLOCKERS > 0
    struct mcuprof_ext blocker_ext __attribute__((aligned(8)));
    struct mcuprof_blocker blockers[MCUPROF_CFG_BLOCKERS];
#endif
#if MCUPROF_CFG_CONTEXTS > 0
    struct mcuprof_ext context_ext __attribute__((aligned(8)));
    struct mcuprof_context contexts[MCUPROF_CFG_CONTEXTS];
#endif
#if MCUPROF_CFG_TASKS > 0
    struct mcuprof_ext task_ext __attribute__((aligned(8)));
    struct mcuprof_task tasks[MCUPROF_CFG_TASKS];
#endif
#if MCUPROF_CFG_PATHS > 0
    struct mcuprof_ext path_ext __attribute__((aligned(8)));
    struct mcuprof_path_entry paths[MCUPROF_CFG_PATHS];
#endif
#if MCUPROF_HAS_EXT
    struct mcuprof_ext ext_end __attribute__((aligned(8))); /* kind 0: the list ends */
#endif
};

_Static_assert(sizeof(mcuprof_arc_t) == MCUPROF_ARC_SIZE, "arc record size");
_Static_assert(__builtin_offsetof(struct mcuprof_region, arcs) == MCUPROF_ARCS_OFFSET, "arcs offset");
_Static_assert(__builtin_offsetof(struct mcuprof_region, links) == MCUPROF_LINKS_OFFSET, "links offset");
_Static_assert(__builtin_offsetof(struct mcuprof_region, buckets) == MCUPROF_BUCKETS_OFFSET, "buckets offset");

extern struct mcuprof_region mcuprof_region;
#endif

#endif /* MCUPROF_LAYOUT_H */

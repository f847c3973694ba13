/*
 * mcuprof/image.h - the profile image: the one format shared by the target
 * runtime and the host tool.
 *
 * The image is one contiguous block of target RAM:
 *
 *   +--------------------------------+  image_addr
 *   | struct mcuprof_header          |  magic, geometry, ranges, counters
 *   +--------------------------------+  buckets_offset
 *   | uint16 buckets [nbuckets]      |  the first record of each hash chain
 *   +--------------------------------+  arcs_offset
 *   | arc records [0 .. capacity]    |  record 0 is a sentinel that never
 *   |                                |  matches (its frompc is 0)
 *   +--------------------------------+  links_offset
 *   | uint16 links [0 .. capacity]   |  links[i]: index of the record after
 *   |                                |  record i in its hash chain, 0 = none
 *   +--------------------------------+  ext_offset (0: none)
 *   | extension tables, each a       |  samples by context, by RTOS task
 *   | struct mcuprof_ext + entries   |  (kinds below); a kind 0 ends them
 *   +--------------------------------+  ranges[i].hist_offset
 *   | histogram bins of range 0, 1.. |  one counter per bin, counter_bytes
 *   +--------------------------------+  image_size
 *
 * The runtime lays the tables out in this order; a reader takes every
 * offset from the header and must not assume one.
 *
 * Every field is stored in the target's byte order; byte_order says which.
 * Fields have fixed widths and natural alignment so that a 32-bit target and
 * a 64-bit host agree on every offset; addresses in the header are 64-bit on
 * every target so the header layout does not depend on the pointer size.
 * Only the arc records use the target's pointer size (ptr_size), because
 * they are the bulk of the RAM.
 *
 * A bucket refers to the first record of its chain by the record's
 * distance from record 0 in 4-byte words (index * arc_record_size / 4),
 * 0 meaning none: the call hook turns that into an address with one shift,
 * whatever the record size. Links, followed only by the slower path that
 * walks a chain, hold plain record indexes. They live apart from the
 * records so that a record on a 32-bit target is 12 bytes, not 16 with
 * padding.
 *
 * A host that has nothing but a raw dump of the block (and no ELF) can
 * convert it: everything it needs is described here.
 *
 * This header is included by freestanding target code and by host code: it
 * uses <stdint.h> only.
 */
#ifndef MCUPROF_IMAGE_H
#define MCUPROF_IMAGE_H

#if !defined(__ASSEMBLER__)
#include <stdint.h>
#endif

/* The magic reads "MCPF" in memory on a little-endian target and "FPCM" on
 * a big-endian one. The target writes it last, after a barrier, so a host
 * scanning RAM never matches a half-initialised block. The word and its
 * two byte sequences are spelled here only; every C file takes them from
 * here, and the scripts that cannot include this header (the OpenOCD and
 * GDB scripts) are checked against it by a test. */
#define MCUPROF_IMAGE_MAGIC 0x4650434Du
#define MCUPROF_IMAGE_MAGIC_LE "MCPF" /* the word's bytes at offset 0, little-endian */
#define MCUPROF_IMAGE_MAGIC_BE "FPCM" /* the same, big-endian */
#define MCUPROF_IMAGE_VERSION 1u

#define MCUPROF_ORDER_LITTLE 1u
#define MCUPROF_ORDER_BIG 2u

/* ELF e_machine values of the supported targets; the host uses them to pick
 * how a return address maps to its call instruction. */
#define MCUPROF_MACHINE_ARM 40u
#define MCUPROF_MACHINE_RISCV 243u

/* Text ranges: code in flash plus code in RAM or ITCM is the common case;
 * four leave room for a second flash bank or overlay. */
#define MCUPROF_MAX_RANGES 4u
/* A GNU build-id is 20 bytes with the default sha1; md5 gives 16, uuid 16. */
#define MCUPROF_BUILD_ID_MAX 32u

/* state bits (header.state), written by the target */
#define MCUPROF_STATE_ARCS_Pos 0u
#define MCUPROF_STATE_ARCS_Msk (1u << MCUPROF_STATE_ARCS_Pos)         /* hook records arcs */
#define MCUPROF_STATE_SAMPLING_Pos 1u
#define MCUPROF_STATE_SAMPLING_Msk (1u << MCUPROF_STATE_SAMPLING_Pos) /* sampler fills bins */
#define MCUPROF_STATE_FROZEN_Pos 2u
#define MCUPROF_STATE_FROZEN_Msk (1u << MCUPROF_STATE_FROZEN_Pos)     /* a host snapshot is in progress */

/* What measured missed_periods (header.missed_source). */
#define MCUPROF_MISSED_NONE 0u   /* nothing: the core cannot tell (SysTick alone) */
#define MCUPROF_MISSED_MTIME 1u  /* RISC-V mtime, a free-running 64-bit counter */
#define MCUPROF_MISSED_CYCCNT 2u /* the DWT cycle counter (ARMv7-M, ARMv8-M Mainline) */
#define MCUPROF_MISSED_CLOCK 3u  /* a free-running clock the firmware registered */

/* Byte offsets the host parses and the target's assembly relies on. */
#define MCUPROF_HEADER_SIZE 256
#define MCUPROF_OFF_STATE 184
#define MCUPROF_OFF_FREEZE_REQUEST 188
#define MCUPROF_OFF_FREEZE_ACK 192
#define MCUPROF_OFF_LOST_CALLS_FROZEN 208
#define MCUPROF_OFF_LINKS_OFFSET 228
#define MCUPROF_ARC32_SIZE 12
#define MCUPROF_ARC64_SIZE 24
#define MCUPROF_ARC32_OFF_COUNT 8
#define MCUPROF_ARC64_OFF_COUNT 16

#if !defined(__ASSEMBLER__)

/* One profiled text range and its slice of the histogram. */
struct mcuprof_range {
    uint64_t low;         /* first address covered, a multiple of the bin size */
    uint64_t high;        /* end (exclusive): low + (nbins << bin_shift) */
    uint32_t hist_offset; /* byte offset of the range's first bin from image start */
    uint32_t nbins;       /* number of counters */
};

struct mcuprof_header {
    /* identity */
    uint32_t magic;        /* MCUPROF_IMAGE_MAGIC, written last */
    uint16_t version;      /* MCUPROF_IMAGE_VERSION */
    uint8_t byte_order;    /* MCUPROF_ORDER_LITTLE or MCUPROF_ORDER_BIG */
    uint8_t ptr_size;      /* 4 or 8: width of addresses in the arc records */
    uint16_t machine;      /* ELF e_machine of the firmware */
    uint16_t header_size;  /* sizeof(struct mcuprof_header) */
    uint32_t image_size;   /* bytes from image_addr to the end of the histogram */
    uint64_t image_addr;   /* where the image lives in target memory */

    /* arc table: records hashed by call site, see the diagram above */
    uint32_t arcs_offset;      /* byte offset of record 0 (the sentinel) */
    uint32_t arcs_capacity;    /* usable records, excluding the sentinel */
    uint32_t arcs_used;        /* records 1..arcs_used hold arcs */
    uint16_t arc_record_size;  /* sizeof(struct mcuprof_arc32 or _arc64) */
    uint16_t hash_shift;       /* bucket = (frompc >> hash_shift) & (nbuckets - 1) */
    uint32_t buckets_offset;   /* byte offset of the uint16 bucket array */
    uint32_t nbuckets;         /* a power of two */

    /* histogram */
    uint32_t sample_rate_hz; /* samples per second; 0 if the sampler never ran */
    uint8_t bin_shift;       /* bin size in bytes = 1 << bin_shift */
    uint8_t counter_bytes;   /* width of a bin counter: 2 or 4 */
    uint8_t nranges;         /* used entries of ranges[] */
    uint8_t build_id_len;    /* bytes of build_id used; 0 if the firmware has none */
    uint8_t build_id[MCUPROF_BUILD_ID_MAX]; /* GNU build-id of the firmware */
    struct mcuprof_range ranges[MCUPROF_MAX_RANGES];

    /* live state */
    uint32_t state;          /* MCUPROF_STATE_* bits */
    uint32_t freeze_request; /* a host writes non-zero to ask for a snapshot */
    uint32_t freeze_ack;     /* the target copies freeze_request here once idle */
    uint32_t generation;     /* incremented by every reset of the tables */

    /* What was not recorded. Each counter saturates at UINT32_MAX. */
    uint32_t lost_arcs_table_full;   /* calls of new arcs that found no free record */
    uint32_t lost_calls_reentrant;   /* calls made while the arc table was being changed */
    uint32_t lost_calls_frozen;      /* calls made during a host snapshot */
    uint32_t lost_samples_out_of_range; /* samples outside every range */
    uint32_t lost_samples_saturated; /* samples whose bin was already full */
    uint32_t lost_samples_frozen;    /* samples taken during a host snapshot */
    uint32_t samples_taken;          /* every sample the sampler saw while on */

    uint32_t links_offset;           /* byte offset of the uint16 link array */

    /* The sampler's timing. Older images hold zeros here, which reads as
     * "not measured". */
    uint32_t missed_periods; /* sampler periods that passed without a sample
                              * (interrupts masked, a higher-priority handler
                              * running), counted where missed_source says the
                              * hardware can tell; saturates */
    uint32_t timer_period;   /* mean sampler period in timer ticks; 0: unknown */
    uint8_t missed_source;   /* MCUPROF_MISSED_*: what measured missed_periods */
    uint8_t jitter_percent;  /* each sample lands at a random point of a window
                              * this wide (percent of the period) at the start
                              * of its period; 0: a fixed period */
    uint16_t timing_flags;   /* MCUPROF_TIMING_*: what the sampler could measure
                              * of its own lateness, and what went wrong;
                              * 0 in older images: nothing measured */
    uint32_t arc_table_repairs; /* times the hook's slow path found a bucket or
                                 * link out of range, or a chain longer than the
                                 * table (a stray write into the image), and cut
                                 * the chain there: the arcs behind the cut are
                                 * counted afresh in new records; saturates */
    uint32_t ext_offset;     /* byte offset of the first extension table
                              * (struct mcuprof_ext), 0: none */
    uint32_t deferred_samples; /* samples taken late by at least the deferral
                                * threshold (struct mcuprof_held) but less than
                                * a period: the sampler was held off (masked, a
                                * handler it cannot preempt) without missing a
                                * period; valid with MCUPROF_TIMING_DEFERRED;
                                * saturates */
};

/* timing_flags bits */
#define MCUPROF_TIMING_DEFERRED 0x0001u    /* deferred_samples is measured */
#define MCUPROF_TIMING_CHARGED 0x0002u     /* missed periods are added to the bin of
                                            * the late sample's PC (and to its
                                            * MCUPROF_EXT_LATE entry) */
#define MCUPROF_TIMING_BLOCKERS 0x0004u    /* the runtime looked for interrupts the
                                            * sampler cannot preempt
                                            * (MCUPROF_EXT_BLOCKERS) */
#define MCUPROF_TIMING_CLOCK_STALLED 0x0010u /* the clock that measures lateness did
                                              * not advance between two ticks: it was
                                              * dropped, later periods not measured */
#define MCUPROF_TIMING_CLOCK_JUMPED 0x0020u  /* it went backwards or jumped ahead of
                                              * the sampler timer (wrapped, or runs at
                                              * another rate): it was dropped */

/* Extension tables: what only some builds record, each self-describing so
 * a host skips kinds it does not know. The first is at ext_offset; the
 * next at its offset + size; kind MCUPROF_EXT_END (or the end of the
 * image) ends the list. Offsets and sizes are multiples of 8. */
#define MCUPROF_EXT_END 0u
#define MCUPROF_EXT_CONTEXTS 1u /* entries: struct mcuprof_context */
#define MCUPROF_EXT_TASKS 2u    /* entries: struct mcuprof_task */
#define MCUPROF_EXT_PATHS 3u    /* entries: struct mcuprof_path + frames */
#define MCUPROF_EXT_SPILL 4u    /* entries: struct mcuprof_spill */
#define MCUPROF_EXT_LATE 5u     /* entries: struct mcuprof_late */
#define MCUPROF_EXT_BLOCKERS 6u /* entries: struct mcuprof_blocker */
#define MCUPROF_EXT_HELD 7u     /* one entry: struct mcuprof_held */
#define MCUPROF_EXT_TASK_PATHS 8u /* entries: struct mcuprof_task_path + frames */

struct mcuprof_ext {
    uint16_t kind;       /* MCUPROF_EXT_* */
    uint16_t entry_size; /* bytes per entry */
    uint32_t size;       /* bytes of the table, this header included */
    uint32_t capacity;   /* entries the table holds */
    uint32_t used;       /* entries in use, from the first */
    uint32_t lost;       /* samples that found the table full; saturates */
    uint32_t invalid;    /* tasks: samples whose task handle was unusable
                          * (misaligned or outside the range the firmware
                          * gave); saturates */
};

/* What a sample interrupted: the key of a context entry. The top byte is
 * the kind, the rest its number. Every sample the sampler counts (not
 * frozen) is counted in exactly one context; the IDLE_MISSED entry counts
 * missed periods (missed_periods), so the entries add up to at most
 * samples_taken + missed_periods. */
#define MCUPROF_CTX_KIND_Msk 0xFF000000u
#define MCUPROF_CTX_NUMBER_Msk 0x00FFFFFFu
#define MCUPROF_CTX_THREAD 0x00000000u       /* no handler running (ARM thread mode) */
#define MCUPROF_CTX_IDLE 0x01000000u         /* waiting in WFI/WFE */
#define MCUPROF_CTX_IDLE_MISSED 0x01000001u  /* not samples: sampler periods that
                                              * passed without a sample and ended
                                              * in a sample of a waiting core (it
                                              * slept through them: deep sleep
                                              * stops some timers) */
#define MCUPROF_CTX_HOOK 0x02000000u         /* inside the call hook: the profiler's own cost */
#define MCUPROF_CTX_ARM_EXCEPTION 0x10000000u /* | exception number (IPSR): 16 + n is IRQ n */
#define MCUPROF_CTX_RV_INTERRUPT 0x20000000u  /* | mcause code of the interrupt being handled */
#define MCUPROF_CTX_RV_EXCEPTION 0x30000000u  /* | mcause code of the exception being handled */

struct mcuprof_context {
    uint32_t key;     /* MCUPROF_CTX_* */
    uint32_t samples; /* saturates */
};

/* A call path the sampler saw (call-path builds, MCUPROF_CFG_PATHS; kind
 * MCUPROF_EXT_PATHS, as runtimes before struct mcuprof_task_path wrote
 * it, and the start of that entry): the
 * functions whose frames were live when a sample was taken, outermost
 * first, each as the address the call hook saw on entry (selfpc: inside
 * the function, just after its hook call; Thumb bit set on ARM). The
 * outermost frame may instead be the return address of mcuprof_start():
 * inside the function that started recording, whose own entry the hook
 * did not see. The sampled PC is not kept: it lies in the innermost function, or in code
 * called from it that has no hook (a library, a handler without -pg).
 * An entry is this header followed by `depth_max` frames of ptr_size
 * bytes (entry_size = 8 + depth_max * ptr_size); frames past `depth` are
 * zero. A path deeper than the shadow stack keeps its outermost frames
 * (the root side) and its innermost (the leaf side) and is flagged
 * MCUPROF_PATH_GAP: one frame between them is 0 and stands for
 * the frames dropped there (one or more). Runtimes before the
 * gap dropped the outermost frames instead (MCUPROF_PATH_TRUNCATED, the
 * path is the innermost frames); a reader takes both, a runtime writes
 * one. In the table's header, lost counts samples that found the table
 * full and invalid counts samples whose shadow stack had overflowed
 * (paths flagged GAP or TRUNCATED). */
#define MCUPROF_PATH_TRUNCATED 1u /* older runtimes: deeper than the shadow stack,
                                   * outer frames missing */
#define MCUPROF_PATH_CUT 2u       /* recorded after a task switch emptied the shadow
                                   * stack: the frames the task had before it was
                                   * switched in are missing */
#define MCUPROF_PATH_GAP 4u       /* deeper than the shadow stack: frames missing
                                   * where the 0 frame is */
struct mcuprof_path {
    uint32_t samples; /* saturates */
    uint16_t depth;   /* frames in use */
    uint16_t flags;   /* MCUPROF_PATH_* */
    /* uintptr frames[depth_max] follow, in the target's pointer size */
};

/* The call paths of runtimes that tell tasks and contexts apart
 * (MCUPROF_EXT_TASK_PATHS, written instead of MCUPROF_EXT_PATHS): the
 * same entry, keyed also by the RTOS task that was running and by what
 * the sample interrupted, so the same frames in two tasks (a function
 * both call) or in a task and a handler are two entries. A new kind
 * rather than a new version: a reader of kind 3 alone skips this table
 * and reads the rest of the image, and this reader still reads kind 3
 * (task and context then unknown). The header is 16 bytes, so 8-byte
 * frames stay 8-byte aligned (entry_size = 16 + depth_max * ptr_size).
 * The table header's lost and invalid are as for kind 3. */
#define MCUPROF_PATH_NO_TASK 0xFFFFu         /* no task table, or the task had no entry
                                              * (table full, unusable handle) */
#define MCUPROF_PATH_NO_CONTEXT 0xFFFFFFFFu  /* no context table in the build */
struct mcuprof_task_path {
    uint32_t samples; /* saturates */
    uint16_t depth;   /* frames in use */
    uint16_t flags;   /* MCUPROF_PATH_* */
    uint32_t context; /* MCUPROF_CTX_* key of the sample's context entry
                       * (THREAD, IDLE, a handler), or MCUPROF_PATH_NO_CONTEXT */
    uint16_t task;    /* index of the running task's entry in the task table
                       * (MCUPROF_EXT_TASKS), or MCUPROF_PATH_NO_TASK */
    uint16_t reserved; /* zero */
    /* uintptr frames[depth_max] follow, in the target's pointer size */
};

/* A task of the firmware's RTOS, as the sampler saw it running. */
#define MCUPROF_TASK_NAME_MAX 16u
#define MCUPROF_TASK_DELETED 1u /* the firmware said it was deleted: a new
                                 * task at the same handle gets a new entry */
struct mcuprof_task {
    uint64_t handle;  /* the kernel's task handle (TCB address); 0: no task */
    uint32_t samples; /* saturates */
    uint32_t flags;   /* MCUPROF_TASK_* */
    char name[MCUPROF_TASK_NAME_MAX]; /* copied at first sight, NUL padded, not
                                       * always NUL terminated */
};

/* A histogram bin that passed its counter's maximum (65,535 with
 * counter_bytes 2): the bin wrapped to 0 and its entry counted the carry,
 * so the bin's true count is carries * 65536 + the bin's value (x 2^32
 * with 4-byte counters). A bin that wraps when the table is full stays at
 * the maximum instead, and the sample is counted in lost_samples_saturated
 * and in the table's lost. Entries are in the order bins first wrapped. */
struct mcuprof_spill {
    uint32_t bin_offset; /* byte offset of the bin from the image's start */
    uint32_t carries;    /* times it wrapped; saturates */
};

/* Where samples the sampler took late landed after interrupts had been
 * masked: its interrupt was held off and taken at pc, just after the
 * instruction that unmasked them, in the code that masked them. Those
 * samples are binned at pc and the periods they missed are charged to
 * pc's bin. (Late samples anywhere else: struct mcuprof_held.) One entry
 * per pc, in the order first seen; lost counts late samples that found
 * the table full (their periods are still charged to their bin and
 * counted in the header). */
struct mcuprof_late {
    uint64_t pc;      /* the sampled PC of the late samples */
    uint32_t samples; /* samples taken at pc that were deferred (late by at
                       * least the threshold) or missed periods; saturates */
    uint32_t missed;  /* sampler periods missed before them, charged to pc's
                       * bin (MCUPROF_TIMING_CHARGED); saturates */
};

/* Samples the sampler took late when nothing says interrupts were masked
 * where they landed (the instruction before the PC does not unmask them):
 * its interrupt was held off by a handler it cannot preempt, whose time
 * the PC would wrongly be charged with. Such a sample is counted in
 * samples_taken (and in deferred_samples or missed_periods) but binned
 * nowhere: the profile holds the time the sampler could see, and this
 * says how much it could not. */
struct mcuprof_held {
    uint32_t samples;   /* late samples not binned; saturates */
    uint32_t periods;   /* periods missed before them (in missed_periods, in no bin) */
    uint32_t threshold; /* the deferral threshold in timer ticks: a sample this
                         * late or later counts as late */
    uint32_t scans;     /* times the runtime looked for blockers; saturates */
};

/* An interrupt the sampler cannot preempt, found enabled at a priority as
 * urgent as the sampler's (Cortex-M: the same group priority or a more
 * urgent one; RISC-V: every enabled machine interrupt other than the
 * timer, whose handler runs masked unless it unmasks). Its time is charged
 * to the code it interrupted. The runtime looks when the sampler starts
 * and again after deferred samples; an interrupt enabled later is added
 * when seen. lost counts such interrupts that found the table full. */
#define MCUPROF_BLOCKER_SEEN_BLOCKING 1u    /* seen enabled at a priority the sampler cannot preempt */
#define MCUPROF_BLOCKER_SEEN_PREEMPTIBLE 2u /* seen later at one it can, or disabled:
                                             * its priority changed during the run */
struct mcuprof_blocker {
    uint32_t source;          /* MCUPROF_CTX_ARM_EXCEPTION | exception number (16 + IRQ
                               * n), or MCUPROF_CTX_RV_INTERRUPT | mcause code */
    uint8_t priority;         /* its priority register when last seen blocking (Cortex-M:
                               * the NVIC_IPR byte; RISC-V: 0) */
    uint8_t sampler_priority; /* the sampler's at that time (Cortex-M: SysTick's SHPR3 byte) */
    uint16_t flags;           /* MCUPROF_BLOCKER_* */
};

/* Arc records. count saturates at UINT32_MAX; a host treats that value as
 * "at least". */
struct mcuprof_arc32 {
    uint32_t frompc; /* return address in the caller, as the hook saw it */
    uint32_t selfpc; /* address inside the callee, just after its hook call */
    uint32_t count;
};

struct mcuprof_arc64 {
    uint64_t frompc;
    uint64_t selfpc;
    uint32_t count;
    uint32_t reserved; /* zero; the record stays 8-byte aligned */
};

#if defined(__cplusplus)
#define MCUPROF_STATIC_ASSERT static_assert
#else
#define MCUPROF_STATIC_ASSERT _Static_assert
#endif
MCUPROF_STATIC_ASSERT(sizeof(struct mcuprof_range) == 24, "range layout");
MCUPROF_STATIC_ASSERT(sizeof(struct mcuprof_header) == MCUPROF_HEADER_SIZE, "header layout");
MCUPROF_STATIC_ASSERT(__builtin_offsetof(struct mcuprof_header, state) == MCUPROF_OFF_STATE, "state offset");
MCUPROF_STATIC_ASSERT(__builtin_offsetof(struct mcuprof_header, freeze_request) == MCUPROF_OFF_FREEZE_REQUEST, "freeze offset");
MCUPROF_STATIC_ASSERT(__builtin_offsetof(struct mcuprof_header, freeze_ack) == MCUPROF_OFF_FREEZE_ACK, "ack offset");
MCUPROF_STATIC_ASSERT(__builtin_offsetof(struct mcuprof_header, lost_calls_frozen) == MCUPROF_OFF_LOST_CALLS_FROZEN, "frozen offset");
MCUPROF_STATIC_ASSERT(__builtin_offsetof(struct mcuprof_header, ranges) == 88, "ranges offset");
MCUPROF_STATIC_ASSERT(__builtin_offsetof(struct mcuprof_header, links_offset) == MCUPROF_OFF_LINKS_OFFSET, "links offset");
MCUPROF_STATIC_ASSERT(__builtin_offsetof(struct mcuprof_header, missed_periods) == 232, "missed offset");
MCUPROF_STATIC_ASSERT(__builtin_offsetof(struct mcuprof_header, ext_offset) == 248, "ext offset");
MCUPROF_STATIC_ASSERT(sizeof(struct mcuprof_ext) == 24, "ext layout");
MCUPROF_STATIC_ASSERT(sizeof(struct mcuprof_context) == 8, "context layout");
MCUPROF_STATIC_ASSERT(sizeof(struct mcuprof_task) == 32, "task layout");
MCUPROF_STATIC_ASSERT(sizeof(struct mcuprof_path) == 8, "path layout");
MCUPROF_STATIC_ASSERT(sizeof(struct mcuprof_task_path) == 16, "task path layout");
MCUPROF_STATIC_ASSERT(sizeof(struct mcuprof_spill) == 8, "spill layout");
MCUPROF_STATIC_ASSERT(sizeof(struct mcuprof_late) == 16, "late layout");
MCUPROF_STATIC_ASSERT(sizeof(struct mcuprof_blocker) == 8, "blocker layout");
MCUPROF_STATIC_ASSERT(sizeof(struct mcuprof_held) == 16, "held layout");
MCUPROF_STATIC_ASSERT(__builtin_offsetof(struct mcuprof_header, timing_flags) == 242, "timing flags offset");
MCUPROF_STATIC_ASSERT(__builtin_offsetof(struct mcuprof_header, deferred_samples) == 252, "deferred offset");
MCUPROF_STATIC_ASSERT(sizeof(struct mcuprof_arc32) == MCUPROF_ARC32_SIZE, "arc32 layout");
MCUPROF_STATIC_ASSERT(sizeof(struct mcuprof_arc64) == MCUPROF_ARC64_SIZE, "arc64 layout");
MCUPROF_STATIC_ASSERT(__builtin_offsetof(struct mcuprof_arc32, count) == MCUPROF_ARC32_OFF_COUNT, "arc32 count");
MCUPROF_STATIC_ASSERT(__builtin_offsetof(struct mcuprof_arc64, count) == MCUPROF_ARC64_OFF_COUNT, "arc64 count");
#endif /* !__ASSEMBLER__ */

#endif /* MCUPROF_IMAGE_H */

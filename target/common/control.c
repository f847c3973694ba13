/*
 * control.c - the image header, and switching profiling on and off.
 */
#include "mcuprof.h"
#include "mcuprof_layout.h"
#include "mcuprof_port.h"
#include "mcuprof_symbols.h"
#include "paths.h"

/* The image. Not in .bss: startup code must not zero it behind our back
 * (mcuprof_init does, and a warm reset may want to keep it), so it has a
 * section of its own that the linker fragment places first in .mcuprof. */
struct mcuprof_region mcuprof_region __attribute__((section(".mcuprof.region"), aligned(8)));

#define NOTE_TYPE_GNU_BUILD_ID 3u

/* Word stores where the range is aligned: mcuprof_reset() runs with
 * interrupts masked, and a byte loop over a few KB of tables held the
 * sampler off for several periods. volatile keeps the compiler from turning
 * the loops into a memset call, which a freestanding runtime cannot count
 * on. */
MCUPROF_NOINSTR static void zero_bytes(volatile uint8_t *p, uintptr_t n)
{
    while (n && ((uintptr_t)p & 3u)) {
        *p++ = 0;
        n--;
    }
    volatile uint32_t *w = (volatile uint32_t *)(volatile void *)p;
    for (; n >= 4u; n -= 4u)
        *w++ = 0;
    p = (volatile uint8_t *)w;
    while (n--)
        *p++ = 0;
}

/* Copy the descriptor of an ELF note "GNU" of type NT_GNU_BUILD_ID. */
MCUPROF_NOINSTR static void copy_build_id(struct mcuprof_header *h)
{
    const uint8_t *note = __mcuprof_build_id_note;
    if (note == 0)
        return;
    const uint32_t *w = (const uint32_t *)(const void *)note;
    uint32_t namesz = w[0], descsz = w[1], type = w[2];
    if (namesz != 4u || type != NOTE_TYPE_GNU_BUILD_ID || note[12] != 'G' ||
        note[13] != 'N' || note[14] != 'U' || note[15] != 0)
        return;
    if (descsz > MCUPROF_BUILD_ID_MAX)
        descsz = MCUPROF_BUILD_ID_MAX;
    for (uint32_t i = 0; i < descsz; i++)
        h->build_id[i] = note[16 + i];
    h->build_id_len = (uint8_t)descsz;
}

MCUPROF_NOINSTR static void add_range(struct mcuprof_header *h, uintptr_t low, uintptr_t high,
                                       const char *bins, uint8_t shift)
{
    if (high <= low)
        return; /* the fragment's default for an unused range */
    struct mcuprof_range *r = &h->ranges[h->nranges++];
    r->low = low;
    r->high = high;
    r->hist_offset = (uint32_t)(MCUPROF_SYM(bins) - MCUPROF_SYM(__mcuprof_start));
    r->nbins = (uint32_t)((high - low) >> shift);
}

/* Fill the header of table E (SIZE bytes with its header, rounded to the
 * 8 bytes the next table starts on) and make it the first table when it
 * is the first one laid out. */
MCUPROF_NOINSTR static void ext_init(struct mcuprof_header *h, struct mcuprof_ext *e, uint16_t kind,
                                     uint16_t entry_size, uintptr_t size, uint32_t capacity)
{
    e->kind = kind;
    e->entry_size = entry_size;
    e->size = (uint32_t)((size + 7u) / 8u * 8u);
    e->capacity = capacity;
    if (!h->ext_offset)
        h->ext_offset = (uint32_t)((uintptr_t)e - (uintptr_t)&mcuprof_region);
}

MCUPROF_NOINSTR static void init_ext(struct mcuprof_header *h)
{
#if MCUPROF_HAS_EXT
    struct mcuprof_region *r = &mcuprof_region;
    /* The tables every build has come first; ext_offset is the first
     * table present. */
#if MCUPROF_CFG_SPILL > 0
    ext_init(h, &r->spill_ext, MCUPROF_EXT_SPILL, sizeof(struct mcuprof_spill),
             sizeof r->spill_ext + sizeof r->spills, MCUPROF_CFG_SPILL);
#endif
#if MCUPROF_CFG_LATE > 0
    ext_init(h, &r->late_ext, MCUPROF_EXT_LATE, sizeof(struct mcuprof_late), sizeof r->late_ext + sizeof r->lates,
             MCUPROF_CFG_LATE);
#endif
    ext_init(h, &r->held_ext, MCUPROF_EXT_HELD, sizeof(struct mcuprof_held), sizeof r->held_ext + sizeof r->held, 1u);
    r->held_ext.used = 1;
#if MCUPROF_CFG_BLOCKERS > 0
    ext_init(h, &r->blocker_ext, MCUPROF_EXT_BLOCKERS, sizeof(struct mcuprof_blocker),
             sizeof r->blocker_ext + sizeof r->blockers, MCUPROF_CFG_BLOCKERS);
#endif
#if MCUPROF_CFG_CONTEXTS > 0
    ext_init(h, &r->context_ext, MCUPROF_EXT_CONTEXTS, sizeof(struct mcuprof_context),
             sizeof r->context_ext + sizeof r->contexts, MCUPROF_CFG_CONTEXTS);
    r->contexts[MCUPROF_CTX_SLOT_THREAD].key = MCUPROF_CTX_THREAD;
    r->contexts[MCUPROF_CTX_SLOT_IDLE].key = MCUPROF_CTX_IDLE;
    r->contexts[MCUPROF_CTX_SLOT_IDLE_MISSED].key = MCUPROF_CTX_IDLE_MISSED;
    r->context_ext.used = MCUPROF_CTX_FIXED;
#endif
#if MCUPROF_CFG_TASKS > 0
    ext_init(h, &r->task_ext, MCUPROF_EXT_TASKS, sizeof(struct mcuprof_task), sizeof r->task_ext + sizeof r->tasks,
             MCUPROF_CFG_TASKS);
    /* an unused entry must never match the sampler's check of the entry
     * hit last (handle 0 is "no task yet") */
    for (uint32_t i = 0; i < MCUPROF_CFG_TASKS; i++)
        r->tasks[i].flags = MCUPROF_TASK_DELETED;
#endif
#if MCUPROF_CFG_PATHS > 0
    /* to the next table, which starts 8-byte aligned */
    ext_init(h, &r->path_ext, MCUPROF_EXT_TASK_PATHS, sizeof(struct mcuprof_path_entry),
             __builtin_offsetof(struct mcuprof_region, ext_end) - __builtin_offsetof(struct mcuprof_region, path_ext),
             MCUPROF_CFG_PATHS);
    mcuprof_paths_init();
#endif
    /* ext_end stays zero: kind MCUPROF_EXT_END */
#else
    (void)h;
#endif
}

/* The counts of the extension tables, as mcuprof_reset() and a host's
 * drain zero them: the entries stay (keys, task handles and names), their
 * counts restart from zero. */
MCUPROF_NOINSTR static void reset_ext(void)
{
    /* The spill entries go with the bins they carry for (zeroed with
     * them); late samples with the counts they were charged to. Blockers
     * stay: the interrupts are still enabled. */
#if MCUPROF_CFG_SPILL > 0
    for (uint32_t i = 0; i < MCUPROF_CFG_SPILL; i++) {
        mcuprof_region.spills[i].bin_offset = 0;
        mcuprof_region.spills[i].carries = 0;
    }
    mcuprof_region.spill_ext.used = 0;
    mcuprof_region.spill_ext.lost = 0;
#endif
#if MCUPROF_CFG_LATE > 0
    for (uint32_t i = 0; i < MCUPROF_CFG_LATE; i++) {
        mcuprof_region.lates[i].pc = 0;
        mcuprof_region.lates[i].samples = 0;
        mcuprof_region.lates[i].missed = 0;
    }
    mcuprof_region.late_ext.used = 0;
    mcuprof_region.late_ext.lost = 0;
#endif
    mcuprof_region.held.samples = 0;
    mcuprof_region.held.periods = 0;
#if MCUPROF_CFG_CONTEXTS > 0
    for (uint32_t i = 0; i < MCUPROF_CFG_CONTEXTS; i++)
        mcuprof_region.contexts[i].samples = 0;
    mcuprof_region.context_ext.lost = 0;
#endif
#if MCUPROF_CFG_TASKS > 0
    for (uint32_t i = 0; i < MCUPROF_CFG_TASKS; i++)
        mcuprof_region.tasks[i].samples = 0;
    mcuprof_region.task_ext.lost = 0;
    mcuprof_region.task_ext.invalid = 0;
#endif
#if MCUPROF_CFG_PATHS > 0
    mcuprof_paths_reset();
#endif
}

MCUPROF_NOINSTR void mcuprof_init(void)
{
    struct mcuprof_header *h = &mcuprof_region.header;
    uint8_t shift = (uint8_t)MCUPROF_SYM(__mcuprof_bin_shift);

    mcuprof_hook_set_mode(MCUPROF_HOOK_OFF);
    zero_bytes((volatile uint8_t *)__mcuprof_start,
               MCUPROF_SYM(__mcuprof_end) - MCUPROF_SYM(__mcuprof_start));

    h->version = MCUPROF_IMAGE_VERSION;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    h->byte_order = MCUPROF_ORDER_BIG;
#else
    h->byte_order = MCUPROF_ORDER_LITTLE;
#endif
    h->ptr_size = (uint8_t)sizeof(uintptr_t);
    h->machine = MCUPROF_ARCH_MACHINE;
    h->header_size = MCUPROF_HEADER_SIZE;
    h->image_size = (uint32_t)(MCUPROF_SYM(__mcuprof_end) - MCUPROF_SYM(__mcuprof_start));
    h->image_addr = MCUPROF_SYM(__mcuprof_start);

    h->arcs_offset = MCUPROF_ARCS_OFFSET;
    h->arcs_capacity = MCUPROF_CFG_ARCS;
    h->arc_record_size = MCUPROF_ARC_SIZE;
    h->hash_shift = MCUPROF_PORT_HASH_SHIFT;
    h->buckets_offset = MCUPROF_BUCKETS_OFFSET;
    h->links_offset = MCUPROF_LINKS_OFFSET;
    h->nbuckets = MCUPROF_BUCKETS;

    h->bin_shift = shift;
    h->counter_bytes = 2;
    add_range(h, MCUPROF_SYM(__mcuprof_range0_low), MCUPROF_SYM(__mcuprof_range0_high),
              __mcuprof_hist0, shift);
    add_range(h, MCUPROF_SYM(__mcuprof_range1_low), MCUPROF_SYM(__mcuprof_range1_high),
              __mcuprof_hist1, shift);
    copy_build_id(h);
    init_ext(h);

    /* The magic goes last, so that a host scanning RAM never matches a
     * half-made header. */
    mcuprof_port_barrier();
    h->magic = MCUPROF_IMAGE_MAGIC;
    mcuprof_port_barrier();
}

MCUPROF_NOINSTR void mcuprof_apply_hook_mode(void)
{
    uint32_t state = mcuprof_region.header.state;
    if (!(state & MCUPROF_STATE_ARCS_Msk))
        mcuprof_hook_set_mode(MCUPROF_HOOK_OFF);
    else if (state & MCUPROF_STATE_FROZEN_Msk)
        mcuprof_hook_set_mode(MCUPROF_HOOK_SLOW);
    else
        mcuprof_hook_set_mode(MCUPROF_HOOK_RECORD);
}

/* The sampler tick changes the state too (freeze.c): update it with
 * interrupts masked. */
MCUPROF_NOINSTR static void change_state(uint32_t set, uint32_t clear)
{
    mcuprof_irq_state_t s = mcuprof_port_irq_save();
    mcuprof_region.header.state = (mcuprof_region.header.state | set) & ~clear;
    mcuprof_apply_hook_mode();
    mcuprof_port_irq_restore(s);
}

MCUPROF_NOINSTR void mcuprof_start(void)
{
#if MCUPROF_CFG_PATHS > 0
    /* the caller is live and its callees' frames end at its sp: the root
     * of the paths (paths.h) */
    mcuprof_paths_set_root((uintptr_t)__builtin_return_address(0), (uintptr_t)__builtin_dwarf_cfa());
#endif
    change_state(MCUPROF_STATE_ARCS_Msk | MCUPROF_STATE_SAMPLING_Msk, 0);
#if MCUPROF_CFG_PATHS > 0
    mcuprof_paths_clear_root();
#endif
}

MCUPROF_NOINSTR void mcuprof_stop(void)
{
    change_state(0, MCUPROF_STATE_ARCS_Msk | MCUPROF_STATE_SAMPLING_Msk);
}

MCUPROF_NOINSTR void moncontrol(int mode)
{
#if MCUPROF_CFG_PATHS > 0
    if (mode) /* its caller, not moncontrol, is the root */
        mcuprof_paths_set_root((uintptr_t)__builtin_return_address(0), (uintptr_t)__builtin_dwarf_cfa());
#endif
    if (mode)
        mcuprof_start();
    else
        mcuprof_stop();
}

MCUPROF_NOINSTR void mcuprof_reset(void)
{
    struct mcuprof_header *h = &mcuprof_region.header;
    /* With interrupts masked neither the hook's slow path nor the sampler
     * can run; a fast-path hit that was interrupted just before its store
     * may still add one call to a zeroed arc, which is the call it was
     * counting anyway. */
    mcuprof_irq_state_t s = mcuprof_port_irq_save();
    zero_bytes((volatile uint8_t *)&mcuprof_region.arcs, sizeof mcuprof_region.arcs);
    zero_bytes((volatile uint8_t *)&mcuprof_region.links, sizeof mcuprof_region.links);
    zero_bytes((volatile uint8_t *)&mcuprof_region.buckets, sizeof mcuprof_region.buckets);
    for (uint8_t i = 0; i < h->nranges; i++)
        zero_bytes((volatile uint8_t *)__mcuprof_start + h->ranges[i].hist_offset,
                   (uintptr_t)h->ranges[i].nbins * h->counter_bytes);
    h->arcs_used = 0;
    h->lost_arcs_table_full = 0;
    h->lost_calls_reentrant = 0;
    h->lost_calls_frozen = 0;
    h->lost_samples_out_of_range = 0;
    h->lost_samples_saturated = 0;
    h->lost_samples_frozen = 0;
    h->samples_taken = 0;
    h->missed_periods = 0;
    h->deferred_samples = 0;
    reset_ext();
    h->generation++;
    mcuprof_port_barrier();
    mcuprof_port_irq_restore(s);
}

MCUPROF_NOINSTR void mcuprof_set_sample_rate(uint32_t rate_hz)
{
    mcuprof_region.header.sample_rate_hz = rate_hz;
}

MCUPROF_NOINSTR const void *mcuprof_image(void)
{
    return __mcuprof_start;
}

MCUPROF_NOINSTR uint32_t mcuprof_image_size(void)
{
    return (uint32_t)(MCUPROF_SYM(__mcuprof_end) - MCUPROF_SYM(__mcuprof_start));
}

#if MCUPROF_CFG_AUTOSTART
MCUPROF_NOINSTR static void mcuprof_autostart(void)
{
    mcuprof_init();
#if MCUPROF_CFG_PATHS > 0
    mcuprof_paths_set_root(0, 0); /* from reset: every frame is seen, none is a root */
#endif
    mcuprof_start();
}
/* .preinit_array runs before every constructor, so even they are profiled. */
__attribute__((section(".preinit_array"), used)) static void (*const mcuprof_preinit)(void) =
    mcuprof_autostart;
#endif

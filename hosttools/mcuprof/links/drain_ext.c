/*
 * drain_ext.c - zero the counts of the image's extension tables during a
 * drain (snapshot.c), as the runtime's mcuprof_reset() does: the entries
 * stay (context keys, task handles and names, call paths and their
 * frames, late-sample PCs, blockers), their counts restart. A blocker
 * has no count: what it says holds until the firmware changes it. The
 * spill table is emptied: its entries carry for bins the drain zeroes.
 * The samples held off restart, and so do the looks for blockers; the
 * deferral threshold stays.
 *
 * The target is frozen (or halted) here: the sampler leaves the tables
 * alone, so each table is written back in one request, its counts zeroed,
 * rather than one small write per entry.
 */
#include "drain_ext.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"

static void zero32(uint8_t *p)
{
    memset(p, 0, 4);
}

/* Where an entry of KIND keeps its counts: *LEN bytes at *OFF (0 bytes:
 * none; *OFF SIZE_MAX: the whole table is emptied). 0, or -1 for a kind
 * this tool does not know. */
static int counts_of(uint16_t kind, size_t *off, size_t *len)
{
    *len = 4;
    switch (kind) {
    case MCUPROF_EXT_CONTEXTS: *off = offsetof(struct mcuprof_context, samples); return 0;
    case MCUPROF_EXT_TASKS: *off = offsetof(struct mcuprof_task, samples); return 0;
    case MCUPROF_EXT_PATHS: *off = offsetof(struct mcuprof_path, samples); return 0;
    case MCUPROF_EXT_TASK_PATHS: *off = offsetof(struct mcuprof_task_path, samples); return 0;
    case MCUPROF_EXT_LATE: /* samples and missed, side by side */
        *off = offsetof(struct mcuprof_late, samples);
        *len = sizeof(struct mcuprof_late) - *off;
        return 0;
    case MCUPROF_EXT_BLOCKERS: *off = *len = 0; return 0;
    case MCUPROF_EXT_SPILL: *off = SIZE_MAX; *len = 0; return 0; /* the entries go with the bins */
    case MCUPROF_EXT_HELD: /* samples and periods, as mcuprof_reset() does (scans: mp_drain_ext) */
        *off = offsetof(struct mcuprof_held, samples);
        *len = offsetof(struct mcuprof_held, threshold) - *off;
        return 0;
    default: return -1;
    }
}

int mp_drain_ext(struct mp_link *l, uint64_t addr, const struct mp_image *img)
{
    unsigned i;

    for (i = 0; i < img->next; i++) {
        const struct mp_ext *e = &img->ext[i];
        size_t counts_off, counts_len, n, len;
        uint8_t *buf;
        uint32_t k;
        int ret;

        if (counts_of(e->kind, &counts_off, &counts_len) < 0)
            continue; /* a kind this tool does not know: left as it is */
        n = e->capacity;
        len = sizeof(struct mcuprof_ext) + n * e->entry_size;
        if (!(buf = malloc(len)))
            return mp_error(l->name, "out of memory for a %zu-byte table", len);
        memcpy(buf, img->data + e->offset, len);
        zero32(buf + offsetof(struct mcuprof_ext, lost));
        zero32(buf + offsetof(struct mcuprof_ext, invalid));
        if (counts_off == SIZE_MAX) { /* every entry and used, as the runtime's reset */
            zero32(buf + offsetof(struct mcuprof_ext, used));
            memset(buf + sizeof(struct mcuprof_ext), 0, n * e->entry_size);
        }
        for (k = 0; k < n && counts_off != SIZE_MAX; k++)
            memset(buf + sizeof(struct mcuprof_ext) + (size_t)k * e->entry_size + counts_off, 0, counts_len);
        /* the looks for blockers restart too (mcuprof_reset() keeps them):
         * drains are summed, and each look must count once */
        if (e->kind == MCUPROF_EXT_HELD && n)
            zero32(buf + sizeof(struct mcuprof_ext) + offsetof(struct mcuprof_held, scans));
        ret = l->ops->write(l, addr + e->offset, buf, len);
        free(buf);
        if (ret < 0)
            return -1;
    }
    return 0;
}

/*
 * drain_ext.c - zero the counts of the image's extension tables during a
 * drain (snapshot.c), as the runtime's mcuprof_reset() does: the entries
 * stay (context keys, task handles and names, call paths and their
 * frames), their counts restart. The spill table is emptied: its entries
 * carry for bins the drain zeroes.
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

int mp_drain_ext(struct mp_link *l, uint64_t addr, const struct mp_image *img)
{
    unsigned i;

    for (i = 0; i < img->next; i++) {
        const struct mp_ext *e = &img->ext[i];
        size_t samples_off, n, len;
        uint8_t *buf;
        uint32_t k;
        int ret;

        if (e->kind == MCUPROF_EXT_CONTEXTS)
            samples_off = offsetof(struct mcuprof_context, samples);
        else if (e->kind == MCUPROF_EXT_TASKS)
            samples_off = offsetof(struct mcuprof_task, samples);
        else if (e->kind == MCUPROF_EXT_PATHS)
            samples_off = offsetof(struct mcuprof_path, samples);
        else if (e->kind == MCUPROF_EXT_SPILL)
            samples_off = SIZE_MAX; /* the entries go with the bins they carry for */
        else
            continue; /* a kind this tool does not know: left as it is */
        n = e->capacity;
        len = sizeof(struct mcuprof_ext) + n * e->entry_size;
        if (!(buf = malloc(len)))
            return mp_error(l->name, "out of memory for a %zu-byte table", len);
        memcpy(buf, img->data + e->offset, len);
        zero32(buf + offsetof(struct mcuprof_ext, lost));
        zero32(buf + offsetof(struct mcuprof_ext, invalid));
        if (samples_off == SIZE_MAX) { /* every entry and used, as the runtime's reset */
            zero32(buf + offsetof(struct mcuprof_ext, used));
            memset(buf + sizeof(struct mcuprof_ext), 0, n * e->entry_size);
        }
        for (k = 0; k < n && samples_off != SIZE_MAX; k++)
            zero32(buf + sizeof(struct mcuprof_ext) + (size_t)k * e->entry_size + samples_off);
        ret = l->ops->write(l, addr + e->offset, buf, len);
        free(buf);
        if (ret < 0)
            return -1;
    }
    return 0;
}

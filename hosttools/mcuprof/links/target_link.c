#include "target_link.h"

int mp_link_read(struct mp_link *l, uint64_t addr, uint8_t *buf, size_t len)
{
    size_t chunk = l->chunk >= 64 ? l->chunk : 64, done = 0;

    while (done < len) {
        size_t n = len - done < chunk ? len - done : chunk;

        if (l->ops->read(l, addr + done, buf + done, n) < 0)
            return -1;
        done += n;
        if (l->progress)
            l->progress(l->progress_ctx, done, len);
    }
    return 0;
}

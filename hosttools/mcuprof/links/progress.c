#include "progress.h"

#include <stdio.h>

#include "diag.h"
#include "net.h"

#define SHOW_AFTER_MS 500u

void mp_progress_init(struct mp_progress *p)
{
    p->enabled = mp_progress_wanted();
    p->shown = 0;
    p->start_ms = mp_now_ms();
}

void mp_progress_begin(struct mp_progress *p)
{
    p->start_ms = mp_now_ms();
}

void mp_progress_update(void *ctx, size_t done, size_t total)
{
    struct mp_progress *p = ctx;
    uint64_t ms = mp_now_ms() - p->start_ms;

    if (!p->enabled || ms < SHOW_AFTER_MS)
        return;
    mp_progress_show("pulled %zu/%zu bytes, %.1f KB/s", done, total, (double)done / 1024.0 / ((double)ms / 1000.0));
    p->shown = 1;
}

void mp_progress_end(struct mp_progress *p)
{
    if (p->shown)
        mp_progress_clear();
    p->shown = 0;
}

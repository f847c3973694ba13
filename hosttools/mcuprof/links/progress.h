/*
 * progress.h - one self-overwriting line on stderr for long pulls
 * ("bytes/total, KB/s"), shown only when stderr is a terminal and only once
 * a pull has taken half a second: short pulls and logs stay clean.
 */
#ifndef MCUPROF_PROGRESS_H
#define MCUPROF_PROGRESS_H

#include <stddef.h>
#include <stdint.h>

struct mp_progress {
    int enabled;     /* stderr is a terminal */
    int shown;       /* the line is on screen */
    uint64_t start_ms;
};

void mp_progress_init(struct mp_progress *p);
/* Start timing a new transfer. */
void mp_progress_begin(struct mp_progress *p);
/* A target_link progress callback: CTX is a struct mp_progress. */
void mp_progress_update(void *ctx, size_t done, size_t total);
/* Erase the line, so what follows starts on a clean one. */
void mp_progress_end(struct mp_progress *p);

#endif /* MCUPROF_PROGRESS_H */

/*
 * bytes.h - explicit byte-order access to file buffers and output files.
 *
 * The image and gmon.out are in the target's byte order, which may differ
 * from the host's; every field is read and written byte by byte here, never
 * by casting a buffer to a struct (alignment, padding and host byte order
 * would all leak into the result).
 */
#ifndef MCUPROF_BYTES_H
#define MCUPROF_BYTES_H

#include <stdint.h>
#include <stdio.h>

/* Inline: a histogram is read bin by bin, in several passes, and a call
 * per bin costs more than the read. */
static inline uint16_t mp_get16(const uint8_t *p, int big)
{
    return big ? (uint16_t)(p[0] << 8 | p[1]) : (uint16_t)(p[1] << 8 | p[0]);
}

static inline uint32_t mp_get32(const uint8_t *p, int big)
{
    if (big)
        return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
    return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}
uint64_t mp_get64(const uint8_t *p, int big);
/* An address of SIZE (4 or 8) bytes. */
uint64_t mp_getptr(const uint8_t *p, unsigned size, int big);

/* A sequential writer. Errors are sticky: the writer keeps going as a
 * no-op after a failed fwrite and the caller checks `failed` once at the
 * end (after mp_out_flush), which keeps the format code free of error
 * plumbing. Bytes are gathered in a buffer of its own: a histogram is
 * written two bytes at a time, and an fwrite call per bin costs several
 * times the conversion itself. */
struct mp_out {
    FILE *f;
    int big;           /* write multi-byte values big-endian */
    unsigned ptr_size; /* width of mp_put_ptr, 4 or 8 */
    int failed;
    uint64_t written;  /* bytes accepted so far */
    size_t fill;       /* bytes waiting in buf */
    uint8_t buf[8192];
};

void mp_out_init(struct mp_out *o, FILE *f, int big, unsigned ptr_size);
/* Hand the buffered bytes to the FILE; sets failed on error. */
void mp_out_flush(struct mp_out *o);
void mp_put_bytes(struct mp_out *o, const void *p, size_t n);
void mp_put8(struct mp_out *o, uint8_t v);
/* Room for N bytes (at most sizeof buf) at the end of the buffer, flushed
 * first if need be, for a caller that fills many values in one loop; NULL
 * once the writer has failed. mp_put_commit(o, N) then adds them. */
uint8_t *mp_put_reserve(struct mp_out *o, size_t n);
void mp_put_commit(struct mp_out *o, size_t n);
void mp_put32(struct mp_out *o, uint32_t v);
void mp_put_ptr(struct mp_out *o, uint64_t v);

#endif /* MCUPROF_BYTES_H */

#include "bytes.h"

#include <string.h>

uint64_t mp_get64(const uint8_t *p, int big)
{
    uint64_t hi = mp_get32(p + (big ? 0 : 4), big);
    uint64_t lo = mp_get32(p + (big ? 4 : 0), big);

    return hi << 32 | lo;
}

uint64_t mp_getptr(const uint8_t *p, unsigned size, int big)
{
    return size == 8 ? mp_get64(p, big) : mp_get32(p, big);
}

void mp_out_init(struct mp_out *o, FILE *f, int big, unsigned ptr_size)
{
    o->f = f;
    o->big = big;
    o->ptr_size = ptr_size;
    o->failed = 0;
    o->written = 0;
    o->fill = 0;
}

void mp_out_flush(struct mp_out *o)
{
    if (!o->failed && o->fill && fwrite(o->buf, 1, o->fill, o->f) != o->fill)
        o->failed = 1;
    o->fill = 0;
}

void mp_put_bytes(struct mp_out *o, const void *p, size_t n)
{
    if (o->failed)
        return;
    if (o->fill + n > sizeof(o->buf)) {
        mp_out_flush(o);
        if (o->failed)
            return;
    }
    if (n > sizeof(o->buf)) {
        if (fwrite(p, 1, n, o->f) != n)
            o->failed = 1;
    } else {
        memcpy(o->buf + o->fill, p, n);
        o->fill += n;
    }
    if (!o->failed)
        o->written += n;
}

uint8_t *mp_put_reserve(struct mp_out *o, size_t n)
{
    if (!o->failed && o->fill + n > sizeof(o->buf))
        mp_out_flush(o);
    return o->failed ? NULL : o->buf + o->fill;
}

void mp_put_commit(struct mp_out *o, size_t n)
{
    o->fill += n;
    o->written += n;
}

void mp_put8(struct mp_out *o, uint8_t v)
{
    mp_put_bytes(o, &v, 1);
}

/* Store the low N bytes of V in the writer's byte order. */
static void put_n(struct mp_out *o, uint64_t v, unsigned n)
{
    uint8_t b[8];
    unsigned i;

    for (i = 0; i < n; i++) {
        unsigned shift = 8 * (o->big ? n - 1 - i : i);
        b[i] = (uint8_t)(v >> shift);
    }
    mp_put_bytes(o, b, n);
}

void mp_put32(struct mp_out *o, uint32_t v) { put_n(o, v, 4); }
void mp_put_ptr(struct mp_out *o, uint64_t v) { put_n(o, v, o->ptr_size); }

/*
 * pb_write.c - the protocol buffers wire format (pb_write.h).
 */
#include "pb_write.h"

#include <stdlib.h>
#include <string.h>

/* Wire types: the low 3 bits of a tag. */
#define WIRE_VARINT 0u
#define WIRE_LEN 2u

void mp_pb_init(struct mp_pb *b)
{
    memset(b, 0, sizeof(*b));
}

void mp_pb_free(struct mp_pb *b)
{
    free(b->data);
    mp_pb_init(b);
}

void mp_pb_clear(struct mp_pb *b)
{
    b->len = 0;
}

/* Room for N more bytes; sets failed (and returns -1) when there is none. */
static int reserve(struct mp_pb *b, size_t n)
{
    size_t cap;
    uint8_t *p;

    if (b->failed)
        return -1;
    if (n <= b->cap - b->len)
        return 0;
    if (n > SIZE_MAX / 2 - b->len) {
        b->failed = 1;
        return -1;
    }
    cap = b->cap ? b->cap : 256;
    while (cap - b->len < n)
        cap *= 2;
    if (!(p = realloc(b->data, cap))) {
        b->failed = 1;
        return -1;
    }
    b->data = p;
    b->cap = cap;
    return 0;
}

static void append(struct mp_pb *b, const void *data, size_t len)
{
    if (len && reserve(b, len) == 0) {
        memcpy(b->data + b->len, data, len);
        b->len += len;
    }
}

/* Seven bits per byte, least significant first, the top bit set on every
 * byte but the last: at most ten bytes for 64 bits. */
void mp_pb_varint(struct mp_pb *b, uint64_t v)
{
    uint8_t tmp[10];
    size_t n = 0;

    while (v >= 0x80) {
        tmp[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    tmp[n++] = (uint8_t)v;
    append(b, tmp, n);
}

static void tag(struct mp_pb *b, unsigned field, unsigned wire)
{
    mp_pb_varint(b, (uint64_t)field << 3 | wire);
}

void mp_pb_uint(struct mp_pb *b, unsigned field, uint64_t v)
{
    tag(b, field, WIRE_VARINT);
    mp_pb_varint(b, v);
}

void mp_pb_int(struct mp_pb *b, unsigned field, int64_t v)
{
    mp_pb_uint(b, field, (uint64_t)v);
}

void mp_pb_bytes(struct mp_pb *b, unsigned field, const void *data, size_t len)
{
    tag(b, field, WIRE_LEN);
    mp_pb_varint(b, len);
    append(b, data, len);
}

void mp_pb_string(struct mp_pb *b, unsigned field, const char *s)
{
    mp_pb_bytes(b, field, s, strlen(s));
}

void mp_pb_message(struct mp_pb *b, unsigned field, const struct mp_pb *sub)
{
    if (sub->failed) {
        b->failed = 1;
        return;
    }
    mp_pb_bytes(b, field, sub->data, sub->len);
}

static size_t varint_size(uint64_t v)
{
    size_t n = 1;

    while (v >= 0x80) {
        v >>= 7;
        n++;
    }
    return n;
}

void mp_pb_packed(struct mp_pb *b, unsigned field, const uint64_t *v, size_t n)
{
    size_t i, len = 0;

    if (!n)
        return;
    for (i = 0; i < n; i++)
        len += varint_size(v[i]);
    tag(b, field, WIRE_LEN);
    mp_pb_varint(b, len);
    for (i = 0; i < n; i++)
        mp_pb_varint(b, v[i]);
}

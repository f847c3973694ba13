/*
 * pb_write.h - the protocol buffers wire format, encoding side only:
 * varints, tagged scalar fields, length-delimited fields (bytes, strings,
 * submessages) and packed repeated integers, appended to a growable
 * buffer. Field numbers and types come from the caller's .proto; nothing
 * here knows a message.
 *
 * A submessage's length precedes it on the wire, so it is encoded into a
 * buffer of its own and then appended whole. The top-level message has
 * no length: a writer can emit its fields one at a time and hand each
 * chunk on, never holding the whole message.
 *
 * Out of memory is sticky: every call after it does nothing, and the
 * writer checks `failed` once at the end.
 */
#ifndef MCUPROF_PB_WRITE_H
#define MCUPROF_PB_WRITE_H

#include <stddef.h>
#include <stdint.h>

struct mp_pb {
    uint8_t *data;
    size_t len, cap;
    int failed; /* an allocation failed: the contents are incomplete */
};

void mp_pb_init(struct mp_pb *b);
void mp_pb_free(struct mp_pb *b);
/* Empty the buffer for the next message, keeping its memory. */
void mp_pb_clear(struct mp_pb *b);

/* A bare varint (no tag). */
void mp_pb_varint(struct mp_pb *b, uint64_t v);

/* Field FIELD as a varint: uint64, uint32, bool and enum fields. */
void mp_pb_uint(struct mp_pb *b, unsigned field, uint64_t v);
/* An int64 or int32 field: a negative value takes ten bytes, as the
 * format says (not zigzag: that is sint64). */
void mp_pb_int(struct mp_pb *b, unsigned field, int64_t v);

/* Length-delimited fields: bytes, a string (without its NUL), and a
 * submessage encoded in SUB. */
void mp_pb_bytes(struct mp_pb *b, unsigned field, const void *data, size_t len);
void mp_pb_string(struct mp_pb *b, unsigned field, const char *s);
void mp_pb_message(struct mp_pb *b, unsigned field, const struct mp_pb *sub);

/* A packed repeated varint field (repeated uint64/int64 of non-negative
 * values): one tag and length for all N values; nothing when N is 0, which
 * is how an empty repeated field looks on the wire. */
void mp_pb_packed(struct mp_pb *b, unsigned field, const uint64_t *v, size_t n);

#endif /* MCUPROF_PB_WRITE_H */

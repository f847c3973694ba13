/*
 * json_parse.h - a strict, small pull parser of JSON (RFC 8259) for the
 * profile document (json_read.c). No tree is built: the reader asks for
 * the value it expects next (an object's members one by one, an array's
 * items, a number, a string) and the parser checks the text as it goes,
 * so memory stays what the model needs, whatever the input holds.
 *
 * Untrusted input: containers nest at most MP_JSON_DEPTH_MAX deep (the
 * only recursion, mp_jp_skip, stops there), strings decode to at most
 * MP_JSON_STRING_MAX bytes, member names to MP_JSON_KEY_MAX. Every error
 * is one line, "FILE: byte N: WHAT: expected ..., got ...", where WHAT is
 * the caller's name of the value (e.g. "arcs[3].count") and N the byte
 * offset of the value (from 0).
 *
 * Strings are C strings for the model: \u0000 is refused, raw bytes must
 * be UTF-8, and \u0080..\u00ff stand for the byte of that value (the
 * writer, json_write.h, writes a byte that is not UTF-8 that way).
 */
#ifndef MCUPROF_JSON_PARSE_H
#define MCUPROF_JSON_PARSE_H

#include <stddef.h>
#include <stdint.h>

#include "diag.h"

#define MP_JSON_DEPTH_MAX 32
#define MP_JSON_STRING_MAX 65536
#define MP_JSON_KEY_MAX 256

struct mp_jp {
    const char *name;   /* the file, for messages */
    const uint8_t *d;
    size_t len, pos;
    unsigned depth;     /* containers open */
    unsigned char more[MP_JSON_DEPTH_MAX + 1]; /* that container had an item */
    char key[MP_JSON_KEY_MAX + 1];             /* the member mp_jp_member found */
    char *str;          /* the last string value, decoded, NUL-terminated */
    size_t str_cap;
    char got[48];       /* what was found instead, for a message */
};

/* Parse the LEN bytes at DATA (named NAME in messages). mp_jp_free frees
 * the string buffer. */
void mp_jp_init(struct mp_jp *p, const char *name, const uint8_t *data, size_t len);
void mp_jp_free(struct mp_jp *p);

/* Byte offset of the next value (whitespace skipped). */
size_t mp_jp_offset(struct mp_jp *p);

/* In every call below, WHERE and KEY name the value in a message
 * ("WHERE.KEY", or WHERE alone when KEY is NULL). Each returns -1 after
 * reporting one error. */

/* Open an object; then mp_jp_member until it returns 0. */
int mp_jp_object(struct mp_jp *p, const char *where, const char *key);
/* 1: p->key names the next member, whose value the caller reads next;
 * 0: the object ended. */
int mp_jp_member(struct mp_jp *p, const char *where);

/* Open an array; then mp_jp_item until it returns 0. */
int mp_jp_array(struct mp_jp *p, const char *where, const char *key);
/* 1: an item follows, which the caller reads; 0: the array ended. */
int mp_jp_item(struct mp_jp *p, const char *where);

/* A string, decoded into p->str (valid until the next string). */
int mp_jp_string(struct mp_jp *p, const char *where, const char *key, const char **s);
/* An integer from 0 to MAX, exactly (no fraction, no exponent). */
int mp_jp_uint(struct mp_jp *p, const char *where, const char *key, uint64_t max, uint64_t *v);
/* A finite number. */
int mp_jp_double(struct mp_jp *p, const char *where, const char *key, double *v);
int mp_jp_bool(struct mp_jp *p, const char *where, const char *key, int *v);
/* 1 when the next value is null (it is consumed), 0 when it is not. */
int mp_jp_null(struct mp_jp *p);
/* Any value, checked and passed over. */
int mp_jp_skip(struct mp_jp *p, const char *where, const char *key);
/* Nothing but whitespace after the top-level value. */
int mp_jp_end(struct mp_jp *p);

/* The value of hex digit C (either case), -1 when it is none: for \u
 * escapes and for the addresses a document writes as hex strings. */
int mp_jp_hex_digit(int c);

/* Report "byte OFF: ..." about the file. Returns -1. */
int mp_jp_fail(struct mp_jp *p, size_t off, const char *fmt, ...) MP_PRINTF(3, 4);

#endif /* MCUPROF_JSON_PARSE_H */

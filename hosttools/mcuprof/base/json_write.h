/*
 * json_write.h - a small JSON writer (RFC 8259) for the profile document
 * (format_json.c). A container is laid out either one item per line,
 * indented, or all on one line: the document puts one arc, one function
 * or one source line per line, so it stays readable and greppable however
 * large it grows.
 *
 * Strings are escaped per RFC 8259: quote, backslash and control
 * characters; valid UTF-8 is written as is, and any byte that is not part
 * of valid UTF-8 as \u00XX of that byte (json_read.c takes \u0080..\u00ff
 * back as the byte, so every name reads back exactly).
 */
#ifndef MCUPROF_JSON_WRITE_H
#define MCUPROF_JSON_WRITE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Deeper than any document this tool writes. */
#define MP_JW_DEPTH 16

struct mp_jw {
    FILE *f;
    unsigned depth;                       /* containers open */
    unsigned one_line;                    /* depth from which all is on one line, 0: none */
    unsigned char items[MP_JW_DEPTH + 1]; /* the container at that depth has an item */
    char close[MP_JW_DEPTH + 1];          /* its closing bracket */
    int keyed;                            /* a member name was written: its value follows */
};

void mp_jw_init(struct mp_jw *w, FILE *f);

/* Open an object or an array as the next value; ONE_LINE keeps it and
 * everything in it on one line. mp_jw_end closes the innermost one (the
 * outermost gets a newline after it). */
void mp_jw_object(struct mp_jw *w, int one_line);
void mp_jw_array(struct mp_jw *w, int one_line);
void mp_jw_end(struct mp_jw *w);

/* The name of the next member of the object open. */
void mp_jw_key(struct mp_jw *w, const char *key);

/* Values. */
void mp_jw_string(struct mp_jw *w, const char *s); /* NULL: null */
void mp_jw_null(struct mp_jw *w);
void mp_jw_bool(struct mp_jw *w, int v);
void mp_jw_uint(struct mp_jw *w, uint64_t v);
/* An address as "0x..." (lower-case hex): a JSON number above 2^53 is
 * not exact in most readers. */
void mp_jw_hex(struct mp_jw *w, uint64_t v);
/* The fewest significant digits (15 to 17) that read back as exactly V;
 * V must be finite (JSON has no NaN or infinity): null otherwise. */
void mp_jw_double(struct mp_jw *w, double v);

/* A member: mp_jw_key then the value. */
void mp_jw_kstring(struct mp_jw *w, const char *key, const char *s);
void mp_jw_kbool(struct mp_jw *w, const char *key, int v);
void mp_jw_kuint(struct mp_jw *w, const char *key, uint64_t v);
void mp_jw_khex(struct mp_jw *w, const char *key, uint64_t v);
void mp_jw_kdouble(struct mp_jw *w, const char *key, double v);

#endif /* MCUPROF_JSON_WRITE_H */

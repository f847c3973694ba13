/*
 * json_parse.c - the strict JSON pull parser (json_parse.h), RFC 8259's
 * grammar and nothing more: no comments, no trailing commas, no NaN, no
 * leading zeros or '+', no byte order mark.
 */
#include "json_parse.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "text_safe.h"

/* Longest number token read as a double: far more digits than a double
 * holds, and every number this tool writes is shorter. */
#define NUMBER_MAX 128

void mp_jp_init(struct mp_jp *p, const char *name, const uint8_t *data, size_t len)
{
    memset(p, 0, sizeof(*p));
    p->name = name;
    p->d = data;
    p->len = len;
}

void mp_jp_free(struct mp_jp *p)
{
    free(p->str);
    p->str = NULL;
    p->str_cap = 0;
}

int mp_jp_fail(struct mp_jp *p, size_t off, const char *fmt, ...)
{
    char msg[512];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    return mp_error(p->name, "byte %zu: %s", off, msg);
}

static void skip_ws(struct mp_jp *p)
{
    while (p->pos < p->len &&
           (p->d[p->pos] == ' ' || p->d[p->pos] == '\t' || p->d[p->pos] == '\n' || p->d[p->pos] == '\r'))
        p->pos++;
}

size_t mp_jp_offset(struct mp_jp *p)
{
    skip_ws(p);
    return p->pos;
}

/* What the next value is, in words, for "expected ..., got ...". */
static const char *got(struct mp_jp *p)
{
    int c;

    skip_ws(p);
    if (p->pos >= p->len)
        return "the end of the document";
    c = p->d[p->pos];
    switch (c) {
    case '{': return "an object";
    case '[': return "an array";
    case '"': return "a string";
    case 't': case 'f': return "a boolean";
    case 'n': return "null";
    case '-': return "a number";
    default: break;
    }
    if (c >= '0' && c <= '9')
        return "a number";
    if (c > 0x20 && c < 0x7f)
        snprintf(p->got, sizeof(p->got), "'%c'", c);
    else
        snprintf(p->got, sizeof(p->got), "byte 0x%02x", (unsigned)c);
    return p->got;
}

/* "WHERE.KEY" for a message. */
static const char *label(char *buf, size_t size, const char *where, const char *key)
{
    /* a long path is cut, not an error: the offset says where it is */
    if (snprintf(buf, size, "%s%s%s", where, key && *where ? "." : "", key ? key : "") < 0)
        buf[0] = '\0';
    return *buf ? buf : "the document";
}

static int expected(struct mp_jp *p, const char *where, const char *key, const char *what)
{
    char l[160];
    size_t off = mp_jp_offset(p);

    return mp_jp_fail(p, off, "%s: expected %s, got %s", label(l, sizeof(l), where, key), what, got(p));
}

static int peek(struct mp_jp *p)
{
    skip_ws(p);
    return p->pos < p->len ? p->d[p->pos] : -1;
}

static int open_container(struct mp_jp *p, const char *where, const char *key, int open_c, const char *what)
{
    char l[160];

    if (peek(p) != open_c)
        return expected(p, where, key, what);
    if (p->depth >= MP_JSON_DEPTH_MAX)
        return mp_jp_fail(p, p->pos, "%s: nested deeper than %d levels", label(l, sizeof(l), where, key),
                          MP_JSON_DEPTH_MAX);
    p->pos++;
    p->depth++;
    p->more[p->depth] = 0;
    return 0;
}

int mp_jp_object(struct mp_jp *p, const char *where, const char *key)
{
    return open_container(p, where, key, '{', "an object");
}

int mp_jp_array(struct mp_jp *p, const char *where, const char *key)
{
    return open_container(p, where, key, '[', "an array");
}

/* After an item of the container open: its end (0), or the separator
 * before the next item (1). */
static int next(struct mp_jp *p, const char *where, int close_c, const char *after)
{
    int c = peek(p);
    char what[64];

    if (c == close_c) {
        p->pos++;
        p->depth--;
        return 0;
    }
    if (p->more[p->depth]) {
        if (c != ',') {
            snprintf(what, sizeof(what), "',' or '%c' after %s", close_c, after);
            return expected(p, where, NULL, what);
        }
        p->pos++;
    }
    p->more[p->depth] = 1;
    return 1;
}

/* Room in the value buffer for N bytes and a NUL after them. */
static int str_room(struct mp_jp *p, size_t n)
{
    size_t cap;
    char *s;

    if (n + 1 < p->str_cap)
        return 0;
    cap = p->str_cap ? p->str_cap * 2 : 256;
    if (!(s = realloc(p->str, cap)))
        return mp_error(p->name, "out of memory for a string of %zu bytes", cap);
    p->str = s;
    p->str_cap = cap;
    return 0;
}

/* Append byte C to the decoded string (DEST 1: the member name, 2: the
 * value buffer, 0: counted only), N bytes so far; START is the string's
 * offset. */
static int put_byte(struct mp_jp *p, int dest, size_t *n, size_t start, uint8_t c)
{
    size_t max = dest == 1 ? MP_JSON_KEY_MAX : MP_JSON_STRING_MAX;

    /* the limit holds for strings passed over too: the same document
     * must not read differently by what this reader knows */
    if (*n >= max)
        return mp_jp_fail(p, start, "%s of more than %zu bytes", dest == 1 ? "a member name" : "a string", max);
    if (dest == 0) {
        (*n)++;
        return 0;
    }
    if (dest == 1) {
        p->key[(*n)++] = (char)c;
        return 0;
    }
    if (str_room(p, *n) < 0)
        return -1;
    p->str[(*n)++] = (char)c;
    return 0;
}

static int hex4(struct mp_jp *p, size_t at, unsigned *v)
{
    size_t i;

    *v = 0;
    if (p->len - at < 4)
        return -1;
    for (i = at; i < at + 4; i++) {
        int c = mp_hex_digit(p->d[i]);

        if (c < 0)
            return -1;
        *v = *v << 4 | (unsigned)c;
    }
    return 0;
}

/* A \u escape at p->pos (just past the backslash and 'u'): its bytes. */
static int unicode_escape(struct mp_jp *p, int dest, size_t *n, size_t start)
{
    size_t at = p->pos - 2;
    unsigned cp, lo;
    uint8_t b[4];
    size_t nb, i;

    if (hex4(p, p->pos, &cp) < 0)
        return mp_jp_fail(p, at, "expected four hex digits after \\u");
    p->pos += 4;
    if (cp >= 0xdc00 && cp <= 0xdfff)
        return mp_jp_fail(p, at, "\\u%04x is a low surrogate without a high one before it", cp);
    if (cp >= 0xd800 && cp <= 0xdbff) {
        if (p->len - p->pos < 6 || p->d[p->pos] != '\\' || p->d[p->pos + 1] != 'u' ||
            hex4(p, p->pos + 2, &lo) < 0 || lo < 0xdc00 || lo > 0xdfff)
            return mp_jp_fail(p, at, "\\u%04x is a high surrogate without a low one after it", cp);
        p->pos += 6;
        cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
    }
    if (cp == 0)
        return mp_jp_fail(p, at, "\\u0000: a name cannot hold a NUL byte");
    if (cp < 0x100) {
        /* \u0080..\u00ff: the byte itself (json_parse.h) */
        b[0] = (uint8_t)cp;
        nb = 1;
    } else if (cp < 0x800) {
        b[0] = (uint8_t)(0xc0 | cp >> 6);
        b[1] = (uint8_t)(0x80 | (cp & 0x3f));
        nb = 2;
    } else if (cp < 0x10000) {
        b[0] = (uint8_t)(0xe0 | cp >> 12);
        b[1] = (uint8_t)(0x80 | (cp >> 6 & 0x3f));
        b[2] = (uint8_t)(0x80 | (cp & 0x3f));
        nb = 3;
    } else {
        b[0] = (uint8_t)(0xf0 | cp >> 18);
        b[1] = (uint8_t)(0x80 | (cp >> 12 & 0x3f));
        b[2] = (uint8_t)(0x80 | (cp >> 6 & 0x3f));
        b[3] = (uint8_t)(0x80 | (cp & 0x3f));
        nb = 4;
    }
    for (i = 0; i < nb; i++)
        if (put_byte(p, dest, n, start, b[i]) < 0)
            return -1;
    return 0;
}

/* The string at p->pos (its opening quote), decoded into DEST. */
static int string_token(struct mp_jp *p, int dest, size_t *n)
{
    size_t start = p->pos;

    *n = 0;
    p->pos++;
    for (;;) {
        uint8_t c;
        size_t u;

        if (p->pos >= p->len)
            return mp_jp_fail(p, start, "a string without its closing quote");
        c = p->d[p->pos];
        if (c == '"') {
            p->pos++;
            break;
        }
        if (c < 0x20)
            return mp_jp_fail(p, p->pos, "control character 0x%02x in a string: it must be escaped", c);
        if (c >= 0x80) {
            if ((u = mp_utf8_len(p->d + p->pos, p->len - p->pos)) == 0)
                return mp_jp_fail(p, p->pos, "byte 0x%02x in a string is not UTF-8", c);
            for (; u; u--)
                if (put_byte(p, dest, n, start, p->d[p->pos++]) < 0)
                    return -1;
            continue;
        }
        p->pos++;
        if (c != '\\') {
            if (put_byte(p, dest, n, start, c) < 0)
                return -1;
            continue;
        }
        if (p->pos >= p->len)
            return mp_jp_fail(p, start, "a string without its closing quote");
        c = p->d[p->pos++];
        switch (c) {
        case '"': case '\\': case '/': break;
        case 'b': c = '\b'; break;
        case 'f': c = '\f'; break;
        case 'n': c = '\n'; break;
        case 'r': c = '\r'; break;
        case 't': c = '\t'; break;
        case 'u':
            if (unicode_escape(p, dest, n, start) < 0)
                return -1;
            continue;
        default:
            return mp_jp_fail(p, p->pos - 2, "'\\%c' is not an escape of JSON", c >= 0x20 && c < 0x7f ? c : '?');
        }
        if (put_byte(p, dest, n, start, c) < 0)
            return -1;
    }
    if (dest == 1)
        p->key[*n] = '\0';
    if (dest == 2) {
        if (str_room(p, *n) < 0)
            return -1;
        p->str[*n] = '\0';
    }
    return 0;
}

int mp_jp_member(struct mp_jp *p, const char *where)
{
    int after_comma = p->more[p->depth], r = next(p, where, '}', "a member");
    size_t n;

    if (r <= 0)
        return r;
    if (peek(p) != '"')
        return expected(p, where, NULL, after_comma ? "a member name after ','" : "a member name or '}'");
    if (string_token(p, 1, &n) < 0)
        return -1;
    if (peek(p) != ':')
        return expected(p, where, p->key, "':' after the member name");
    p->pos++;
    return 1;
}

int mp_jp_item(struct mp_jp *p, const char *where)
{
    return next(p, where, ']', "an item");
}

int mp_jp_string(struct mp_jp *p, const char *where, const char *key, const char **s)
{
    size_t n;

    if (peek(p) != '"')
        return expected(p, where, key, "a string");
    if (string_token(p, 2, &n) < 0)
        return -1;
    *s = p->str;
    return 0;
}

/* The number at p->pos, by JSON's grammar: [START, p->pos) afterwards;
 * *INTEGER when it has neither fraction nor exponent. */
static int number_token(struct mp_jp *p, const char *where, const char *key, size_t *start, int *integer)
{
    const uint8_t *d = p->d;
    char l[160];

    *start = p->pos;
    *integer = 1;
    if (p->pos < p->len && d[p->pos] == '-')
        p->pos++;
    if (p->pos < p->len && d[p->pos] == '0') {
        p->pos++;
    } else if (p->pos < p->len && d[p->pos] >= '1' && d[p->pos] <= '9') {
        while (p->pos < p->len && d[p->pos] >= '0' && d[p->pos] <= '9')
            p->pos++;
    } else {
        return mp_jp_fail(p, *start, "%s: a number without digits", label(l, sizeof(l), where, key));
    }
    if (p->pos < p->len && d[p->pos] == '.') {
        *integer = 0;
        if (++p->pos >= p->len || d[p->pos] < '0' || d[p->pos] > '9')
            return mp_jp_fail(p, *start, "%s: no digit after the decimal point", label(l, sizeof(l), where, key));
        while (p->pos < p->len && d[p->pos] >= '0' && d[p->pos] <= '9')
            p->pos++;
    }
    if (p->pos < p->len && (d[p->pos] == 'e' || d[p->pos] == 'E')) {
        *integer = 0;
        if (++p->pos < p->len && (d[p->pos] == '+' || d[p->pos] == '-'))
            p->pos++;
        if (p->pos >= p->len || d[p->pos] < '0' || d[p->pos] > '9')
            return mp_jp_fail(p, *start, "%s: no digit in the exponent", label(l, sizeof(l), where, key));
        while (p->pos < p->len && d[p->pos] >= '0' && d[p->pos] <= '9')
            p->pos++;
    }
    return 0;
}

static int is_number_start(int c)
{
    return c == '-' || (c >= '0' && c <= '9');
}

int mp_jp_uint(struct mp_jp *p, const char *where, const char *key, uint64_t max, uint64_t *v)
{
    char what[80], l[160];
    size_t start, i;
    int integer;

    snprintf(what, sizeof(what), "an integer from 0 to %llu", (unsigned long long)max);
    if (!is_number_start(peek(p)))
        return expected(p, where, key, what);
    if (number_token(p, where, key, &start, &integer) < 0)
        return -1;
    if (p->d[start] == '-' || !integer)
        return mp_jp_fail(p, start, "%s: expected %s, got %.*s", label(l, sizeof(l), where, key), what,
                          (int)(p->pos - start > 40 ? 40 : p->pos - start), (const char *)p->d + start);
    *v = 0;
    for (i = start; i < p->pos; i++) {
        unsigned digit = (unsigned)(p->d[i] - '0');

        if (digit > max || *v > (max - digit) / 10)
            return mp_jp_fail(p, start, "%s: expected %s, got a larger number", label(l, sizeof(l), where, key),
                              what);
        *v = *v * 10 + digit;
    }
    return 0;
}

int mp_jp_double(struct mp_jp *p, const char *where, const char *key, double *v)
{
    char buf[NUMBER_MAX + 1], l[160];
    size_t start, n;
    int integer;

    if (!is_number_start(peek(p)))
        return expected(p, where, key, "a number");
    if (number_token(p, where, key, &start, &integer) < 0)
        return -1;
    n = p->pos - start;
    if (n > NUMBER_MAX)
        return mp_jp_fail(p, start, "%s: a number of more than %d characters", label(l, sizeof(l), where, key),
                          NUMBER_MAX);
    memcpy(buf, p->d + start, n);
    buf[n] = '\0';
    *v = strtod(buf, NULL);
    /* 1e999: JSON's grammar allows it, a double cannot hold it */
    if (!isfinite(*v))
        return mp_jp_fail(p, start, "%s: %s is beyond the range of a double", label(l, sizeof(l), where, key),
                          buf);
    return 0;
}

/* A literal (true, false, null) at p->pos: 1 when it is WORD. */
static int literal(struct mp_jp *p, const char *word)
{
    size_t n = strlen(word);

    if (p->len - p->pos < n || memcmp(p->d + p->pos, word, n) != 0)
        return 0;
    p->pos += n;
    return 1;
}

int mp_jp_bool(struct mp_jp *p, const char *where, const char *key, int *v)
{
    int c = peek(p);

    if (c == 't' && literal(p, "true"))
        *v = 1;
    else if (c == 'f' && literal(p, "false"))
        *v = 0;
    else
        return expected(p, where, key, "true or false");
    return 0;
}

int mp_jp_null(struct mp_jp *p)
{
    return peek(p) == 'n' && literal(p, "null");
}

/* Skip the value named PATH; its members and items are named after it
 * (PATH.key, PATH[i]) so an error deep inside says where it is. */
static int skip_at(struct mp_jp *p, const char *path)
{
    char sub[160];
    size_t start, n, i = 0;
    int c = peek(p), r, integer;

    switch (c) {
    case '{':
        if (mp_jp_object(p, path, NULL) < 0)
            return -1;
        while ((r = mp_jp_member(p, path)) == 1)
            if (skip_at(p, label(sub, sizeof(sub), path, p->key)) < 0)
                return -1;
        return r;
    case '[':
        if (mp_jp_array(p, path, NULL) < 0)
            return -1;
        while ((r = mp_jp_item(p, path)) == 1) {
            if (snprintf(sub, sizeof(sub), "%s[%zu]", path, i++) < 0)
                sub[0] = '\0';
            if (skip_at(p, sub) < 0)
                return -1;
        }
        return r;
    case '"':
        return string_token(p, 0, &n);
    case 't':
    case 'f':
    case 'n':
        if (literal(p, "true") || literal(p, "false") || literal(p, "null"))
            return 0;
        break;
    default:
        if (is_number_start(c))
            return number_token(p, path, NULL, &start, &integer);
        break;
    }
    return expected(p, path, NULL, "a value");
}

int mp_jp_skip(struct mp_jp *p, const char *where, const char *key)
{
    char path[160];

    return skip_at(p, label(path, sizeof(path), where, key));
}

int mp_jp_end(struct mp_jp *p)
{
    if (peek(p) != -1)
        return mp_jp_fail(p, p->pos, "expected the end of the document after its top-level object, got %s",
                          got(p));
    return 0;
}

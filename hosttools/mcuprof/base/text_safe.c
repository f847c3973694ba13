/*
 * text_safe.c - input-derived text made safe to show (text_safe.h).
 */
#include "text_safe.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

size_t mp_utf8_len(const unsigned char *s, size_t avail)
{
    size_t n, i;

    if (avail == 0)
        return 0;
    if (s[0] >= 0xc2 && s[0] <= 0xdf)
        n = 2;
    else if (s[0] >= 0xe0 && s[0] <= 0xef)
        n = 3;
    else if (s[0] >= 0xf0 && s[0] <= 0xf4)
        n = 4;
    else
        return 0;
    if (avail < n)
        return 0;
    for (i = 1; i < n; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    /* Overlong forms, UTF-16 surrogates and code points above U+10FFFF
     * are not UTF-8. */
    if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0) || (s[0] == 0xf0 && s[1] < 0x90) ||
        (s[0] == 0xf4 && s[1] >= 0x90))
        return 0;
    return n;
}

/* The code point of the valid N-byte sequence at S. */
static uint32_t code_point(const unsigned char *s, size_t n)
{
    uint32_t cp = s[0] & (0x7f >> n);
    size_t i;

    for (i = 1; i < n; i++)
        cp = cp << 6 | (s[i] & 0x3f);
    return cp;
}

/* Code points a terminal acts on (C1), or that reorder or break the line
 * a reader sees (bidirectional controls, line and paragraph separators). */
static int hidden_effect(uint32_t cp)
{
    return (cp >= 0x80 && cp <= 0x9f) || cp == 0x61c || cp == 0x200e || cp == 0x200f ||
           (cp >= 0x2028 && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

size_t mp_text_kept_len(const unsigned char *s, size_t avail)
{
    size_t n;

    if (avail == 0)
        return 0;
    if (s[0] < 0x80)
        return s[0] >= 0x20 && s[0] < 0x7f && s[0] != '\\';
    n = mp_utf8_len(s, avail);
    return n && !hidden_effect(code_point(s, n)) ? n : 0;
}

/* The next piece of S (LEFT bytes) as shown, into OUT (at least 5 bytes):
 * its length, and in *TAKEN the input bytes it stands for. KEEP_BS: a
 * backslash is kept as it is (mp_esc_message). */
static size_t piece(const unsigned char *s, size_t left, char *out, size_t *taken, int keep_bs)
{
    static const char hex[] = "0123456789abcdef";
    size_t n = keep_bs && s[0] == '\\' ? 1 : mp_text_kept_len(s, left);

    if (n) {
        memcpy(out, s, n);
        *taken = n;
        return n;
    }
    *taken = 1;
    out[0] = '\\';
    if (s[0] == '\\') {
        out[1] = '\\';
        return 2;
    }
    out[1] = 'x';
    out[2] = hex[s[0] >> 4];
    out[3] = hex[s[0] & 0xf];
    return 4;
}

/* The length S has when escaped; 0 when nothing in it is escaped. */
static size_t escaped_len(const char *str, size_t len)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t at = 0, out = 0, n, taken;
    int changed = 0;
    char tmp[8];

    while (at < len) {
        n = piece(s + at, len - at, tmp, &taken, 0);
        changed |= n != taken;
        out += n;
        at += taken;
    }
    return changed ? out : 0;
}

static size_t escape(char *buf, size_t size, const char *str, int keep_bs)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t len = strlen(str), at = 0, out = 0, n, taken;
    char tmp[8];

    if (size == 0)
        return 0;
    while (at < len) {
        n = piece(s + at, len - at, tmp, &taken, keep_bs);
        if (out + n >= size)
            break;
        memcpy(buf + out, tmp, n);
        out += n;
        at += taken;
    }
    buf[out] = '\0';
    return out;
}

size_t mp_esc_buf(char *buf, size_t size, const char *s)
{
    return escape(buf, size, s, 0);
}

size_t mp_esc_message(char *buf, size_t size, const char *s)
{
    return escape(buf, size, s, 1);
}

void mp_esc_put(FILE *f, const char *s)
{
    fputs(mp_esc(s), f);
}

const char *mp_esc(const char *s)
{
    /* Buffers reused in turn; each keeps the largest size it was given.
     * Memory: MP_TEXT_SAFE_RING times 4 x the longest name escaped + 1. */
    static char *ring[MP_TEXT_SAFE_RING];
    static size_t cap[MP_TEXT_SAFE_RING];
    static unsigned next;
    size_t len, need;
    unsigned k;

    if (!s)
        return "(null)";
    len = strlen(s);
    if ((need = escaped_len(s, len)) == 0)
        return s;
    k = next;
    next = (next + 1) % MP_TEXT_SAFE_RING;
    if (cap[k] < need + 1) {
        char *p = realloc(ring[k], need + 1);

        if (!p)
            return "(name not shown: out of memory)";
        ring[k] = p;
        cap[k] = need + 1;
    }
    mp_esc_buf(ring[k], need + 1, s);
    return ring[k];
}

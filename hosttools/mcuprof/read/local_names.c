/*
 * local_names.c - every offset of a string table judged at once
 * (local_names.h).
 */
#include "local_names.h"

#include <stdlib.h>
#include <string.h>

#include "clone_names.h"

/* What holds from an offset up to its name's NUL. */
enum {
    HAS_DOLLAR = 1,  /* a '$' */
    HAS_DOT = 2,     /* a '.' */
    ALL_SUFFIX = 4,  /* only clone suffixes (clone_names.h), or nothing */
    ANY_SUFFIX = 8,  /* a dot from which ALL_SUFFIX holds */
    GPROF_KEEPS = 16 /* gprof's scan, entered here, keeps the name */
};

/* Non-zero when at least N bytes before END and the name's NUL are left
 * at S + P. */
static int chars_left(const char *s, size_t p, size_t end, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (p + i >= end || !s[p + i])
            return 0;
    return 1;
}

/* gprof's step at the dot at P (below END): ".clone." and ".constprop."
 * skipped (gprof tests the length left first; only whether more than 7
 * (11) bytes are left matters), then digits up to the name's NUL or a dot
 * after a digit, which goes on in the scan from there: from that dot, or
 * past the NUL from the next string of the table. V is known past P. */
static int gprof_dot(const unsigned char *v, const char *s, size_t p, size_t end)
{
    size_t r = p;
    int digit_seen = 0;

    if (chars_left(s, p, end, 8) && strncmp(s + p, ".clone.", 7) == 0)
        r = p + 6;
    else if (chars_left(s, p, end, 12) && strncmp(s + p, ".constprop.", 11) == 0)
        r = p + 10;
    for (r++; r < end && s[r]; r++) {
        if (digit_seen && s[r] == '.')
            break;
        if (s[r] >= '0' && s[r] <= '9')
            digit_seen = 1;
        else
            return 0;
    }
    if (r >= end)
        return 1;
    return s[r] == '.' ? v[r] & GPROF_KEEPS : v[r + 1] & GPROF_KEEPS;
}

/* Each bit at P follows from S[P] and the bits at later offsets: from the
 * next byte, past one clone suffix component, or past one gprof step. A
 * digit run is read by the gprof steps of at most three dots (right
 * before it, or before ".clone." or ".constprop." before it), a clone
 * component by the one dot that starts it: linear in N. */
int mp_local_names_scan(struct mp_local_names *ln, const char *s, size_t n, size_t end)
{
    unsigned char *v = malloc(n + 1);
    size_t p;

    ln->v = v;
    ln->n = n;
    if (!v)
        return -1;
    if (end > n)
        end = n;
    v[n] = ALL_SUFFIX | GPROF_KEEPS;
    for (p = n; p-- > 0;) {
        unsigned char next = v[p + 1], bits;
        char c = s[p];

        if (c == '\0') {
            v[p] = ALL_SUFFIX | GPROF_KEEPS;
            continue;
        }
        bits = next & (HAS_DOLLAR | HAS_DOT | ANY_SUFFIX);
        if (c == '$')
            bits |= HAS_DOLLAR;
        if (c == '.') {
            size_t k = mp_clone_component_len(s + p);

            bits |= HAS_DOT;
            if (k && (v[p + k] & ALL_SUFFIX))
                bits |= ALL_SUFFIX | ANY_SUFFIX;
        }
        if (p >= end || (c != '$' && c != '.' && (next & GPROF_KEEPS)) ||
            (c == '.' && gprof_dot(v, s, p, end)))
            bits |= GPROF_KEEPS;
        v[p] = bits;
    }
    return 0;
}

void mp_local_names_free(struct mp_local_names *ln)
{
    free(ln->v);
    ln->v = NULL;
    ln->n = 0;
}

/* Names no local function has: empty, a label's, GCC's marker. */
static int never_local(const char *s, size_t off)
{
    return s[off] == '\0' || s[off] == '.' || strncmp(s + off, "__gnu_compiled", 14) == 0;
}

int mp_local_name_ok(const struct mp_local_names *ln, const char *s, size_t off, int is_func)
{
    if (off >= ln->n || never_local(s, off) || (ln->v[off] & HAS_DOLLAR))
        return 0;
    /* a clone's name: a dot after its first byte from which only clone
     * suffixes follow (mp_clone_origin_len shorter than the name) */
    return !(ln->v[off] & HAS_DOT) || is_func || (ln->v[off + 1] & ANY_SUFFIX);
}

int mp_local_name_gprof_ok(const struct mp_local_names *ln, const char *s, size_t off)
{
    if (off >= ln->n || never_local(s, off))
        return 0;
    return (ln->v[off] & GPROF_KEEPS) != 0;
}

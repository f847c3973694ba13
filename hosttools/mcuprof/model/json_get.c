/*
 * json_get.c - the JSON reader's members and typed values (json_read.h):
 * an object's members by a table of names (each at most once, the needed
 * ones there), counts within a field's width, samples, addresses as hex
 * strings, strings kept in the model. Every error names the value and
 * its byte offset.
 */
#include <stdio.h>
#include <string.h>

#include "json_read.h"

/* The next member of the object WHERE: 1 with *IDX its index in KEYS (-1
 * for one this reader does not know), 0 at the object's end. */
int jr_member(struct rd *r, const char *where, const char *const *keys, uint32_t *seen, int *idx)
{
    int k = mp_jp_member(&r->p, where), i;

    if (k <= 0)
        return k;
    for (i = 0; keys[i] && strcmp(keys[i], r->p.key) != 0; i++)
        ;
    *idx = keys[i] ? i : -1;
    if (*idx >= 0 && (*seen & BIT(i)))
        return mp_jp_fail(&r->p, mp_jp_offset(&r->p), "%s%s'%s' given twice", where, *where ? ": " : "", keys[i]);
    if (*idx >= 0)
        *seen |= BIT(i);
    return 1;
}

/* Every member of REQ (bits of KEYS) must be in SEEN; OFF is the
 * object's offset. */
int jr_required(struct rd *r, size_t off, const char *where, const char *const *keys, uint32_t seen,
                uint32_t req)
{
    int i;

    for (i = 0; keys[i]; i++)
        if ((req & BIT(i)) && !(seen & BIT(i)))
            return mp_jp_fail(&r->p, off, "%s%shas no member '%s'", where, *where ? " " : "", keys[i]);
    return 0;
}

int jr_u64(struct rd *r, const char *where, const char *key, uint64_t *v)
{
    return mp_jp_uint(&r->p, where, key, UINT64_MAX, v);
}

int jr_u32(struct rd *r, const char *where, const char *key, uint32_t *v)
{
    uint64_t x;

    if (mp_jp_uint(&r->p, where, key, UINT32_MAX, &x) < 0)
        return -1;
    *v = (uint32_t)x;
    return 0;
}

int jr_u16(struct rd *r, const char *where, const char *key, unsigned *v)
{
    uint64_t x;

    if (mp_jp_uint(&r->p, where, key, UINT16_MAX, &x) < 0)
        return -1;
    *v = (unsigned)x;
    return 0;
}

int jr_unsigned(struct rd *r, const char *where, const char *key, unsigned *v)
{
    uint32_t x;

    if (jr_u32(r, where, key, &x) < 0)
        return -1;
    *v = x;
    return 0;
}

int jr_flag(struct rd *r, const char *where, const char *key, unsigned char *v)
{
    int b;

    if (mp_jp_bool(&r->p, where, key, &b) < 0)
        return -1;
    *v = (unsigned char)b;
    return 0;
}

/* Samples: a finite number, not negative. */
int jr_samples(struct rd *r, const char *where, const char *key, double *v)
{
    size_t off = mp_jp_offset(&r->p);

    if (mp_jp_double(&r->p, where, key, v) < 0)
        return -1;
    if (*v < 0.0)
        return mp_jp_fail(&r->p, off, "%s.%s: expected a number of samples, not below 0, got %g", where, key, *v);
    return 0;
}

/* An address: "0x" and 1 to 16 hex digits (KEY NULL: WHERE names it). */
int jr_addr(struct rd *r, const char *where, const char *key, uint64_t *v)
{
    size_t off = mp_jp_offset(&r->p), i;
    const char *s;

    if (mp_jp_string(&r->p, where, key, &s) < 0)
        return -1;
    *v = 0;
    if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X') || !s[2] || strlen(s) > 18)
        goto bad;
    for (i = 2; s[i]; i++) {
        int c = mp_jp_hex_digit(s[i]);

        if (c < 0)
            goto bad;
        *v = *v << 4 | (uint64_t)c;
    }
    return 0;
bad:
    return mp_jp_fail(&r->p, off, "%s%s%s: expected an address, \"0x\" and 1 to 16 hex digits, got \"%.40s\"", where,
                      *where && key ? "." : "", key ? key : "", s);
}

/* A string kept in the model; NULLABLE: null gives NULL. */
int jr_str(struct rd *r, const char *where, const char *key, const char **out, int nullable)
{
    const char *s;

    if (nullable && mp_jp_null(&r->p)) {
        *out = NULL;
        return 0;
    }
    if (mp_jp_string(&r->p, where, key, &s) < 0)
        return -1;
    if (!r->last_str || strcmp(r->last_str, s) != 0)
        if (!(r->last_str = mp_model_strdup(r->m, s)))
            return -1;
    *out = r->last_str;
    return 0;
}

/* An array of items read by ITEM. */
int jr_read_list(struct rd *r, const char *name, int (*item)(struct rd *r, const char *where))
{
    char where[40];
    size_t n = 0;
    int k;

    if (mp_jp_array(&r->p, "", name) < 0)
        return -1;
    while ((k = mp_jp_item(&r->p, name)) == 1) {
        snprintf(where, sizeof(where), "%s[%zu]", name, n++);
        if (item(r, where) < 0)
            return -1;
    }
    return k;
}

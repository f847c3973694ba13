/*
 * json_write.c - the JSON writer of the profile document (json_write.h).
 * Write errors are left in the FILE's error flag: the caller checks
 * ferror once, as every writer of the format table does.
 */
#include "json_write.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#include "text_safe.h"

void mp_jw_init(struct mp_jw *w, FILE *f)
{
    w->f = f;
    w->depth = 0;
    w->one_line = 0;
    w->items[0] = 0;
    w->keyed = 0;
}

static void indent(struct mp_jw *w, unsigned depth)
{
    unsigned i;

    fputc('\n', w->f);
    for (i = 0; i < depth; i++)
        fputs("  ", w->f);
}

/* Before a value: the separator from the previous item, and the new
 * line of a container laid out one item per line. A member's value
 * follows its name directly. */
static void before_value(struct mp_jw *w)
{
    if (w->keyed) {
        w->keyed = 0;
        return;
    }
    if (w->depth == 0)
        return;
    if (w->items[w->depth])
        fputc(',', w->f);
    if (!w->one_line)
        indent(w, w->depth);
    else if (w->items[w->depth])
        fputc(' ', w->f);
    w->items[w->depth] = 1;
}

static void open_container(struct mp_jw *w, char open_c, char close_c, int one_line)
{
    before_value(w);
    fputc(open_c, w->f);
    if (w->depth < MP_JW_DEPTH) {
        w->depth++;
        w->items[w->depth] = 0;
        w->close[w->depth] = close_c;
        if (one_line && !w->one_line)
            w->one_line = w->depth;
    }
}

void mp_jw_object(struct mp_jw *w, int one_line)
{
    open_container(w, '{', '}', one_line);
}

void mp_jw_array(struct mp_jw *w, int one_line)
{
    open_container(w, '[', ']', one_line);
}

void mp_jw_end(struct mp_jw *w)
{
    if (w->depth == 0)
        return;
    if (w->items[w->depth] && !w->one_line)
        indent(w, w->depth - 1);
    fputc(w->close[w->depth], w->f);
    if (w->one_line == w->depth)
        w->one_line = 0;
    if (--w->depth == 0)
        fputc('\n', w->f);
}

static void put_string(FILE *f, const char *str)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t left = 0, n;

    while (s[left])
        left++;
    fputc('"', f);
    while (left) {
        unsigned char c = *s;

        if (c == '"' || c == '\\') {
            fputc('\\', f);
            fputc(c, f);
        } else if (c == '\n') {
            fputs("\\n", f);
        } else if (c == '\t') {
            fputs("\\t", f);
        } else if (c == '\r') {
            fputs("\\r", f);
        } else if (c < 0x20 || c == 0x7f) {
            fprintf(f, "\\u%04x", (unsigned)c);
        } else if (c < 0x80) {
            fputc(c, f);
        } else if ((n = mp_text_kept_len(s, left)) != 0) {
            fwrite(s, 1, n, f);
            s += n;
            left -= n;
            continue;
        } else {
            /* not UTF-8, or a character text_safe.h keeps off a terminal
             * (a C1 or bidirectional control): each byte's value as a
             * Latin-1 character, which mcuprof's reader takes back as
             * that byte, so no reader that prints the file acts on it */
            fprintf(f, "\\u%04x", (unsigned)c);
        }
        s++;
        left--;
    }
    fputc('"', f);
}

void mp_jw_key(struct mp_jw *w, const char *key)
{
    before_value(w);
    put_string(w->f, key);
    fputs(": ", w->f);
    w->keyed = 1;
}

void mp_jw_string(struct mp_jw *w, const char *s)
{
    before_value(w);
    if (s)
        put_string(w->f, s);
    else
        fputs("null", w->f);
}

void mp_jw_null(struct mp_jw *w)
{
    before_value(w);
    fputs("null", w->f);
}

void mp_jw_bool(struct mp_jw *w, int v)
{
    before_value(w);
    fputs(v ? "true" : "false", w->f);
}

void mp_jw_uint(struct mp_jw *w, uint64_t v)
{
    before_value(w);
    fprintf(w->f, "%" PRIu64, v);
}

void mp_jw_hex(struct mp_jw *w, uint64_t v)
{
    before_value(w);
    fprintf(w->f, "\"0x%" PRIx64 "\"", v);
}

void mp_jw_double(struct mp_jw *w, double v)
{
    char buf[40];
    int prec;

    before_value(w);
    if (!isfinite(v)) {
        fputs("null", w->f);
        return;
    }
    /* %.17g always reads back exactly; fewer digits often do and read
     * better (0.1, not 0.10000000000000001). */
    for (prec = 15; prec < 17; prec++) {
        snprintf(buf, sizeof(buf), "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    if (prec == 17)
        snprintf(buf, sizeof(buf), "%.17g", v);
    fputs(buf, w->f);
}

/* The keyed writers: a member in one call, one per value type. They are
 * alike by design (the key, then the value); each stays a plain function so
 * that its name and argument types can be found and checked like any other. */
void mp_jw_kstring(struct mp_jw *w, const char *key, const char *s)
{
    mp_jw_key(w, key);
    mp_jw_string(w, s);
}

void mp_jw_kbool(struct mp_jw *w, const char *key, int v)
{
    mp_jw_key(w, key);
    mp_jw_bool(w, v);
}

void mp_jw_kuint(struct mp_jw *w, const char *key, uint64_t v)
{
    mp_jw_key(w, key);
    mp_jw_uint(w, v);
}

void mp_jw_khex(struct mp_jw *w, const char *key, uint64_t v)
{
    mp_jw_key(w, key);
    mp_jw_hex(w, v);
}

void mp_jw_kdouble(struct mp_jw *w, const char *key, double v)
{
    mp_jw_key(w, key);
    mp_jw_double(w, v);
}

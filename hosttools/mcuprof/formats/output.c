/*
 * output.c - the outputs of `convert`, `pull` and `sample` (output.h);
 * each says it was written (wrote_line.h) once it is in place.
 */
#include "output.h"

#include <string.h>

#include "diag.h"
#include "file_io.h"
#include "wrote_line.h"

int mp_outputs_add(struct mp_outputs *o, const char *arg)
{
    char name[32];
    const char *p = arg;

    if (!*p)
        return mp_error(NULL, "--format: empty format name");
    while (*p) {
        const char *end = p + strcspn(p, ",:"), *file = NULL;
        size_t len = (size_t)(end - p);

        if (len == 0 || len >= sizeof(name))
            return mp_error(NULL, "--format '%s': '%.*s' is not a format name", arg, (int)(len ? len : 1), p);
        memcpy(name, p, len);
        name[len] = '\0';
        p = end;
        if (*p == ':') {
            file = ++p;
            p += strcspn(p, ",");
            if (p == file)
                return mp_error(NULL, "--format '%s': empty file name after '%s:'", arg, name);
        }
        if (o->n == MP_OUTPUTS_MAX)
            return mp_error(NULL, "--format: more than %d outputs", MP_OUTPUTS_MAX);
        if (!(o->fmt[o->n] = mp_format_find(name)))
            return -1;
        o->path[o->n] = NULL;
        if (file) {
            size_t flen = (size_t)(p - file);

            if (flen >= sizeof(o->names[0]))
                return mp_error(NULL, "--format '%s': file name longer than %zu bytes", arg,
                                sizeof(o->names[0]) - 1);
            memcpy(o->names[o->n], file, flen);
            o->names[o->n][flen] = '\0';
            o->path[o->n] = o->names[o->n];
        }
        o->n++;
        if (*p == ',')
            p++;
    }
    return 0;
}

int mp_outputs_finish(struct mp_outputs *o)
{
    unsigned i, j, unnamed = 0;

    if (o->n == 0) {
        o->fmt[0] = &mp_format_gnu;
        o->path[0] = NULL;
        o->n = 1;
    }
    for (i = 0; i < o->n; i++)
        unnamed += o->path[i] == NULL;
    if (o->out && unnamed > 1)
        return mp_error(NULL, "-o names one output but %u formats have no file: give them as "
                              "--format NAME:FILE",
                        unnamed);
    for (i = 0; i < o->n; i++)
        if (!o->path[i])
            o->path[i] = o->out ? o->out : o->fmt[i]->default_out;
    for (i = 0; i < o->n; i++) {
        if (!o->path[i][0])
            return mp_error(NULL, "empty output name for --format %s", o->fmt[i]->name);
        for (j = 0; j < i; j++)
            if (mp_same_file(o->path[i], o->path[j]))
                return mp_error(o->path[i], "--format %s and --format %s would both write this file: "
                                            "name one as --format NAME:FILE",
                                o->fmt[j]->name, o->fmt[i]->name);
    }
    return 0;
}

unsigned mp_outputs_needs(const struct mp_outputs *o)
{
    unsigned i, needs = o->lines ? MP_WANTS_LINES : 0;

    for (i = 0; i < o->n; i++)
        needs |= o->fmt[i]->needs;
    return needs;
}

int mp_outputs_check(const struct mp_outputs *o)
{
    unsigned i;

    for (i = 0; i < o->n; i++)
        if (mp_output_check(o->path[i]) < 0)
            return -1;
    return 0;
}

/* Open OUT and write LEN bytes of DATA to it, not yet in place. */
static int stage_raw(struct mp_atomic *a, const uint8_t *data, size_t len, const char *out)
{
    if (mp_atomic_open(a, out) < 0)
        return -1;
    if (fwrite(data, 1, len, a->f) != len)
        return mp_atomic_write_failed(a);
    return 0;
}

/* Every output is staged first (a temporary file beside it, or for a
 * stream an unnamed one) and readied (flushed to disk, a stream opened);
 * only then is the first one put in place, so a failure on the way (a
 * full disk, a directory that cannot be written) replaces none. */
int mp_outputs_write(const struct mp_outputs *o, const struct mp_model *m, const struct mp_raw_output *raw)
{
    return mp_outputs_write_raws(o, m, raw, raw ? 1 : 0);
}

int mp_outputs_write_raws(const struct mp_outputs *o, const struct mp_model *m, const struct mp_raw_output *raw,
                          unsigned nraw)
{
    struct mp_atomic at[MP_OUTPUTS_MAX + MP_RAW_OUTPUTS_MAX];
    unsigned i, n = 0;

    if (nraw > MP_RAW_OUTPUTS_MAX)
        return mp_error(NULL, "%u raw outputs: at most %u", nraw, MP_RAW_OUTPUTS_MAX);
    for (i = 0; i < o->n; i++)
        if (mp_format_check(o->fmt[i], m) < 0)
            return -1;
    for (i = 0; i < nraw; i++) {
        if (stage_raw(&at[n], raw[i].data, raw[i].len, raw[i].path) < 0)
            goto fail;
        n++;
    }
    for (i = 0; i < o->n; i++) {
        if (mp_atomic_open(&at[n], o->path[i]) < 0)
            goto fail;
        if (mp_format_write_staged(o->fmt[i], m, &at[n++]) < 0)
            goto fail;
    }
    for (i = 0; i < n; i++)
        if (mp_atomic_ready(&at[i]) < 0)
            goto fail;
    if (mp_atomic_place_all(at, n) < 0)
        return -1;
    for (i = 0; i < nraw; i++)
        mp_say_wrote_raw(raw[i].path, raw[i].len);
    for (i = 0; i < o->n; i++)
        mp_say_wrote(o->path[i], o->fmt[i], m);
    return 0;

fail:
    for (i = 0; i < n; i++)
        mp_atomic_abort(&at[i]);
    return -1;
}

void mp_outputs_help(FILE *f)
{
    fputs("  -f, --format F[:FILE]  write format F (to FILE, else -o or F's default file);\n"
          "                         repeat it or list several, comma separated:\n",
          f);
    mp_formats_help(f);
}

int mp_output_raw(const uint8_t *data, size_t len, const char *out)
{
    struct mp_atomic atomic;

    if (stage_raw(&atomic, data, len, out) < 0 || mp_atomic_commit(&atomic) < 0)
        return -1;
    mp_say_wrote_raw(out, len);
    return 0;
}

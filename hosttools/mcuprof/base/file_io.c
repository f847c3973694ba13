/*
 * file_io.c - whole-file reads and what every host's outputs share
 * (file_io.h); the outputs' calls to the system are file_sys_posix.c and
 * file_sys_win32.c (file_sys.h).
 */
#include "file_io.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <mcuprof/image.h>

#include "bytes.h"
#include "diag.h"
#include "file_open.h"
#include "file_sys.h"
#include "input_kind.h"

/* Bytes read before deciding what a file is: more than an image header. */
#define HEAD_BLOCK 4096u

/* Inputs of this command, by device and inode (file_sys.h). */
#define MAX_INPUTS 8
static struct mp_file_id inputs[MAX_INPUTS];
static unsigned ninputs;

int mp_file_is_input(const struct mp_file_id *id)
{
    unsigned i;

    for (i = 0; i < ninputs; i++) {
        if (inputs[i].dev == id->dev && inputs[i].ino == id->ino)
            return 1;
    }
    return 0;
}

static void note_input(const struct mp_file_id *id)
{
    if (!mp_file_is_input(id) && ninputs < MAX_INPUTS)
        inputs[ninputs++] = *id;
}

void mp_file_note_input(const char *path)
{
    struct mp_file_id id;

    if (mp_file_id_of(path, &id) == 0)
        note_input(&id);
}

/* Read into *BUF (capacity *CAP, grown) until *N reaches WANT or the end. */
static int read_upto(FILE *f, const char *path, uint8_t **buf, size_t *cap, size_t *n, size_t want)
{
    while (*n < want) {
        size_t got;

        if (*n == *cap) {
            size_t grow = *cap ? *cap * 2 : HEAD_BLOCK;
            uint8_t *p;

            if (grow > want)
                grow = want;
            p = realloc(*buf, grow);
            if (!p)
                return mp_error(path, "out of memory reading %zu bytes", grow);
            *buf = p;
            *cap = grow;
        }
        got = fread(*buf + *n, 1, *cap - *n, f);
        *n += got;
        if (got == 0) {
            if (ferror(f))
                return mp_error(path, "read error after %zu bytes: %s", *n, strerror(errno));
            break;
        }
    }
    return 0;
}

/* PATH opened to be read, *ST its status; NULL (reported) when it cannot
 * be opened or is a directory (a profile input or an ELF: WHAT). */
static FILE *open_input(const char *path, struct mp_file_facts *st, const char *what)
{
    FILE *f = mp_fopen(path, "rb");

    if (!f) {
        if (errno == EISDIR) /* Windows opens no folder (file_open_win32.c) */
            mp_error(path, "is a directory, not %s", what);
        else
            mp_error(path, "cannot open: %s", strerror(errno));
        return NULL;
    }
    if (mp_file_facts(f, path, st) != 0) {
        mp_error(path, "cannot stat: %s", strerror(errno));
    } else if (st->dir) {
        mp_error(path, "is a directory, not %s", what);
    } else {
        return f;
    }
    fclose(f);
    return NULL;
}

/* The N bytes read (*BUF) become the caller's (*DATA, *LEN), a non-NULL
 * buffer even for none; *BUF is then NULL. */
static int hand_over(uint8_t **buf, size_t n, const char *path, uint8_t **data, size_t *len)
{
    if (!*buf && !(*buf = malloc(1)))
        return mp_error(path, "out of memory");
    *data = *buf;
    *len = n;
    *buf = NULL;
    return 0;
}

/* The input is read in steps that double what is held, each step's
 * bytes checked (mp_input_bound) before the next is read: what it holds
 * decides how far the read may go, so a stream that cannot be an input
 * is refused after at most twice the bytes that showed it, and the memory
 * is at most twice the bound of its kind (input_kind.h). */
int mp_read_file(const char *path, size_t max, uint8_t **data, size_t *len)
{
    struct mp_input_scan scan;
    uint8_t *buf = NULL;
    size_t cap = 0, n = 0, bound;
    struct mp_file_facts st;
    FILE *f;
    int ret = -1;

    if (!(f = open_input(path, &st, "a profile image or gmon.out")))
        return -1;
    note_input(&st.id);
    memset(&scan, 0, sizeof(scan));
    if (read_upto(f, path, &buf, &cap, &n, max < HEAD_BLOCK ? max : HEAD_BLOCK) < 0)
        goto out_free;
    bound = mp_input_bound(&scan, buf, n, max);
    /* (an image's file may be longer than its image_size: only that is read) */
    if (st.regular && scan.limit && st.size > scan.limit) {
        mp_error(path, "is %jd bytes, more than the %zu a %s can be", (intmax_t)st.size, scan.limit,
                 mp_input_kind_name(mp_input_kind(buf, n)));
        goto out_free;
    }
    while (n < bound) {
        size_t want = n < bound / 2 ? 2 * n : bound;

        if (read_upto(f, path, &buf, &cap, &n, want) < 0)
            goto out_free;
        if (n < want)
            break; /* the end of the file */
        bound = mp_input_bound(&scan, buf, n, max);
    }
    if (scan.limit && n == scan.limit && fgetc(f) != EOF) {
        mp_error(path, "holds more than %zu bytes, more than a %s can be", scan.limit,
                 mp_input_kind_name(mp_input_kind(buf, n)));
        goto out_free;
    }
    ret = hand_over(&buf, n, path, data, len);
out_free:
    free(buf);
    fclose(f);
    return ret;
}

int mp_read_whole_file(const char *path, size_t max, uint8_t **data, size_t *len)
{
    uint8_t *buf = NULL;
    size_t cap = 0, n = 0;
    struct mp_file_facts st;
    FILE *f;
    int ret = -1;

    if (!(f = open_input(path, &st, "an ELF file")))
        return -1;
    if (st.regular && st.size > max) {
        mp_error(path, "is %jd bytes, more than the %zu the tool reads", (intmax_t)st.size, max);
        goto out;
    }
    /* a regular file in one step; a stream doubling up to MAX, then one
     * byte more to tell a stream that goes on past it */
    if (read_upto(f, path, &buf, &cap, &n, st.regular && st.size > 0 ? (size_t)st.size : max) < 0)
        goto out;
    if (n == max && fgetc(f) != EOF) {
        mp_error(path, "holds more than the %zu bytes the tool reads", max);
        goto out;
    }
    ret = hand_over(&buf, n, path, data, len);
out:
    free(buf);
    fclose(f);
    return ret;
}

/* Bytes a terminal acts on: C0 controls but tab and newline, DEL, and C1
 * controls as UTF-8 encodes them (0xc2 0x80..0x9f). */
static int terminal_control(int prev, int c)
{
    return (c < 0x20 && c != '\t' && c != '\n') || c == 0x7f || (prev == 0xc2 && c >= 0x80 && c <= 0x9f);
}

/* A terminal shows text only: an output (binary, or text holding a
 * name from the input with escape sequences in it) that holds a byte
 * it would act on is refused, as nothing from the input reaches a
 * terminal unescaped. F is read from its start. */
int mp_file_check_terminal(struct mp_atomic *a)
{
    uintmax_t off = 0;
    int c, prev = 0;

    rewind(a->f);
    while ((c = getc(a->f)) != EOF) {
        if (terminal_control(prev, c))
            return mp_error(a->path, "is a terminal, and the output holds byte 0x%02x at offset %ju, which a "
                                     "terminal acts on: write it to a file or a pipe",
                            (unsigned)c, off);
        prev = c;
        off++;
    }
    if (ferror(a->f))
        return mp_error(a->path, "cannot read back the staged output: %s", strerror(errno));
    return 0;
}

int mp_atomic_ready(struct mp_atomic *a)
{
    FILE *f = a->f;

    if (a->stream) {
        if (mp_file_stream_ready(a) == 0)
            return 0;
        goto err;
    }
    a->f = NULL;
    if (fflush(f) != 0 || mp_file_sync(f) != 0) {
        mp_error(a->path, "cannot write %s: %s", a->tmp_path, strerror(errno));
        fclose(f);
        goto err;
    }
    if (fclose(f) != 0) {
        mp_error(a->path, "cannot close %s: %s", a->tmp_path, strerror(errno));
        goto err;
    }
    return 0;

err:
    mp_atomic_abort(a);
    return -1;
}

int mp_atomic_commit(struct mp_atomic *a)
{
    return mp_atomic_ready(a) < 0 ? -1 : mp_atomic_place(a, NULL);
}

/* Streams first: a write to a pipe or a device is what fails once all is
 * ready (a reader gone, a full device), and when it does no file has been
 * replaced yet. */
int mp_atomic_place_all(struct mp_atomic *a, unsigned n)
{
    char done[1024], note[1100];
    unsigned pass, i, j;
    size_t len = 0;

    done[0] = '\0';
    for (pass = 0; pass < 2; pass++) {
        for (i = 0; i < n; i++) {
            if (a[i].stream != (pass == 0))
                continue;
            if (len)
                snprintf(note, sizeof(note), "; already written: %s; no other output was", done);
            else
                snprintf(note, sizeof(note), "; no other output was written");
            if (mp_atomic_place(&a[i], n > 1 ? note : NULL) < 0) {
                for (j = 0; j < n; j++)
                    mp_atomic_abort(&a[j]);
                return -1;
            }
            if (len < sizeof(done))
                len += (size_t)snprintf(done + len, sizeof(done) - len, "%s%s", len ? ", " : "", a[i].path);
        }
    }
    return 0;
}

int mp_atomic_write_failed(struct mp_atomic *a)
{
    mp_error(a->path, "write error in %s", a->tmp_path ? a->tmp_path : "the staged output");
    mp_atomic_abort(a);
    return -1;
}

int mp_atomic_place(struct mp_atomic *a, const char *note)
{
    int ret = 0;

    if (!note)
        note = "";
    if (a->stream) {
        ret = mp_file_copy_out(a, note);
        if (a->fd < 0 && mp_file_close_fd(a->dest) != 0 && ret == 0)
            ret = mp_error(a->path, "cannot close: %s%s", strerror(errno), note);
        a->dest = -1;
    } else if ((ret = mp_file_replace(a, note)) == 0) {
        free(a->tmp_path);
        a->tmp_path = NULL;
    }
    mp_atomic_abort(a);
    return ret;
}

void mp_atomic_abort(struct mp_atomic *a)
{
    if (a->f) {
        fclose(a->f);
        a->f = NULL;
    }
    if (a->dest >= 0 && a->fd < 0)
        mp_file_close_fd(a->dest);
    a->dest = -1;
    if (a->tmp_path) {
        mp_remove(a->tmp_path);
        free(a->tmp_path);
        a->tmp_path = NULL;
    }
    free(a->real_path);
    a->real_path = NULL;
}

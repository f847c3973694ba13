#include "diag.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "term.h"
#include "text_safe.h"

/* A message as composed (file name and text), and as stored and printed:
 * escaped, so up to four times as long. */
#define MSG_RAW 512
#define MSG_SHOWN 1024
/* What mp_say says (a command's summary line is longer). */
#define SAY_RAW 1024
#define SAY_SHOWN 2048

static char last_error[MSG_SHOWN];
static char last_warning[MSG_SHOWN];
static unsigned errors;
static unsigned warnings;
static unsigned quiet; /* depth of nested mp_diag_quiet(1) */
static int user_quiet; /* -q: no mp_say, no progress, no notes */
static int progress_on; /* a progress line is on screen */
static char say_context[64];
/* mp_say_keep: the lines kept, all said under one context */
#define KEPT_MAX 12
static int keeping;
static char kept[KEPT_MAX][SAY_SHOWN];
static char kept_context[64];
static unsigned nkept;
static char say_last[SAY_SHOWN];

/* The warnings and notes printed so far, by a hash of their kind and
 * text: one printed again is the same fact said twice. A run says a
 * few dozen at most; past SAID_MAX they are all printed. */
#define SAID_MAX 256
static uint64_t said[SAID_MAX];
static unsigned nsaid;

/* Warnings held by mp_diag_hold. A conversion raises at most seven
 * different ones. */
#define MAX_HELD 8
static char held[MAX_HELD][MSG_SHOWN];
static const char *held_kind[MAX_HELD]; /* "warning" or "note" */
static unsigned nheld;
static int holding;

/* FNV-1a of KIND, a NUL and TEXT. */
static uint64_t said_hash(const char *kind, const char *text)
{
    uint64_t h = 0xcbf29ce484222325u;
    const char *s;

    for (s = kind; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3u;
    h *= 0x100000001b3u;
    for (s = text; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3u;
    return h;
}

static int said_before(uint64_t h)
{
    unsigned i;

    for (i = 0; i < nsaid; i++)
        if (said[i] == h)
            return 1;
    return 0;
}

/* Every line goes out here: the progress line erased first, so the
 * line starts at the left margin and the progress is not left half
 * overwritten; a warning or a note said before in this run is dropped. */
static void emit(const char *kind, const char *text)
{
    uint64_t h = 0;

    if (quiet || (user_quiet && kind && !strcmp(kind, "note")))
        return;
    if (kind && strcmp(kind, "error")) {
        h = said_hash(kind, text);
        if (said_before(h))
            return;
        if (nsaid < SAID_MAX)
            said[nsaid++] = h;
    }
    mp_progress_clear();
    if (kind)
        fprintf(stderr, "mcuprof: %s: %s\n", kind, text);
    else
        fprintf(stderr, "mcuprof: %s\n", text);
}

/* A message names files and quotes fields of the input: it is escaped by
 * the rule of text_safe.h (mp_esc_message: the backslashes of its own
 * text kept), so it stays on one line (scripts read stderr line by line)
 * and no byte of the input reaches the terminal raw. */
static void report(char *buf, size_t size, const char *kind, const char *file,
                   const char *fmt, va_list ap, int print)
{
    char what[384];
    char name[120];
    char raw[MSG_RAW];

    vsnprintf(what, sizeof(what), fmt, ap);
    if (file) {
        snprintf(name, sizeof(name), "%s", file);
        snprintf(raw, sizeof(raw), "%s: %s", name, what);
    } else {
        snprintf(raw, sizeof(raw), "%s", what);
    }
    mp_esc_message(buf, size, raw);
    if (print)
        emit(kind, buf);
}

int mp_error(const char *file, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    report(last_error, sizeof(last_error), "error", file, fmt, ap, 1);
    va_end(ap);
    errors++;
    return -1;
}

static int held_already(const char *kind, const char *text)
{
    unsigned i;

    for (i = 0; i < nheld; i++)
        if (held_kind[i] == kind && !strcmp(held[i], text))
            return 1;
    return 0;
}

/* A warning or a note: printed now, or held with its kind (once: a
 * copy of one held already takes no room). */
static void advise(const char *kind, const char *file, const char *fmt, va_list ap)
{
    report(last_warning, sizeof(last_warning), kind, file, fmt, ap, !holding);
    if (holding && nheld < MAX_HELD && !held_already(kind, last_warning)) {
        held_kind[nheld] = kind;
        memcpy(held[nheld++], last_warning, sizeof(last_warning));
    }
}

void mp_warn(const char *file, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    advise("warning", file, fmt, ap);
    va_end(ap);
    warnings++;
}

void mp_warn_now(const char *file, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    report(last_warning, sizeof(last_warning), "warning", file, fmt, ap, 1);
    va_end(ap);
    warnings++;
}

void mp_note(const char *file, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    advise("note", file, fmt, ap);
    va_end(ap);
}

const char *mp_last_error(void) { return last_error; }
const char *mp_last_warning(void) { return last_warning; }
unsigned mp_error_count(void) { return errors; }
unsigned mp_warning_count(void) { return warnings; }

void mp_diag_reset(void)
{
    last_error[0] = '\0';
    last_warning[0] = '\0';
    errors = 0;
    warnings = 0;
    nsaid = 0;
}

void mp_diag_hold(void)
{
    holding = 1;
    nheld = 0;
}

unsigned mp_diag_held(void) { return nheld; }

void mp_diag_drop_held(unsigned keep)
{
    if (keep < nheld)
        nheld = keep;
}

void mp_diag_release(int print)
{
    unsigned i;

    for (i = 0; print && i < nheld; i++)
        emit(held_kind[i], held[i]);
    holding = 0;
    nheld = 0;
}

void mp_diag_quiet(int q)
{
    if (q)
        quiet++;
    else if (quiet > 0)
        quiet--;
}

void mp_diag_set_quiet(int q)
{
    user_quiet = q != 0;
}

void mp_say_context(const char *context)
{
    snprintf(say_context, sizeof(say_context), "%s", context ? context : "");
}

void mp_say(const char *fmt, ...)
{
    char what[SAY_RAW], raw[SAY_RAW + sizeof(say_context) + 2], shown[SAY_SHOWN];
    va_list ap;

    if (user_quiet)
        return;
    va_start(ap, fmt);
    vsnprintf(what, sizeof(what), fmt, ap);
    va_end(ap);
    if (say_context[0])
        snprintf(raw, sizeof(raw), "%s: %s", say_context, what);
    else
        snprintf(raw, sizeof(raw), "%s", what);
    mp_esc_message(shown, sizeof(shown), raw);
    memcpy(say_last, shown, sizeof(say_last));
    if (!keeping) {
        emit(NULL, shown);
        return;
    }
    /* a new context: a new write, which the kept lines are now of */
    if (strcmp(kept_context, say_context)) {
        memcpy(kept_context, say_context, sizeof(kept_context));
        nkept = 0;
    }
    if (nkept < KEPT_MAX)
        memcpy(kept[nkept++], shown, sizeof(kept[0]));
    mp_progress_show("%s", shown);
}

void mp_say_keep(int keep)
{
    unsigned i;

    if (keep) {
        keeping = mp_progress_wanted();
        nkept = 0;
        kept_context[0] = '\0';
        return;
    }
    keeping = 0;
    for (i = 0; i < nkept; i++)
        emit(NULL, kept[i]);
    nkept = 0;
}

const char *mp_say_last(void)
{
    return say_last;
}

int mp_progress_wanted(void)
{
    return !user_quiet && !quiet && mp_term_is(stderr);
}

/* The terminal's width: a progress line longer than it would wrap, and
 * "\r" would go back to the start of its last row only. */
static size_t columns(void)
{
    size_t n = mp_term_columns(stderr);

    return n > 20 ? n : 80;
}

/* After "\r" and a line of LEN columns: erase what a longer line left on
 * its right. "ESC [ K" where the terminal acts on it; else spaces to the
 * width (less one: the last column would wrap) and "\r" again. */
static void erase_rest(size_t len)
{
    size_t n = columns() - 1;

    if (mp_term_vt(stderr)) {
        fputs("\033[K", stderr);
        return;
    }
    while (len++ < n)
        fputc(' ', stderr);
    fputc('\r', stderr);
}

/* "\r" back to the margin, the text cut to the width, then "ESC [ K"
 * erases what a longer line before it left on the right. */
void mp_progress_show(const char *fmt, ...)
{
    char raw[MSG_RAW], shown[MSG_SHOWN];
    size_t cut;
    va_list ap;

    if (!mp_progress_wanted())
        return;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof(raw), fmt, ap);
    va_end(ap);
    mp_esc_message(shown, sizeof(shown), raw);
    if (strlen(shown) > (cut = columns() - sizeof("mcuprof: "))) {
        while (cut > 0 && ((unsigned char)shown[cut] & 0xc0) == 0x80)
            cut--; /* not inside a UTF-8 character */
        shown[cut] = '\0';
    }
    fprintf(stderr, "\rmcuprof: %s", shown);
    erase_rest(sizeof("mcuprof: ") - 1 + strlen(shown));
    fflush(stderr);
    progress_on = 1;
}

void mp_progress_clear(void)
{
    if (!progress_on)
        return;
    fputc('\r', stderr);
    erase_rest(0);
    fflush(stderr);
    progress_on = 0;
}

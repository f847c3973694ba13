#include "diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "text_safe.h"

/* A message as composed (file name and text), and as stored and printed:
 * escaped, so up to four times as long. */
#define MSG_RAW 512
#define MSG_SHOWN 1024

static char last_error[MSG_SHOWN];
static char last_warning[MSG_SHOWN];
static unsigned errors;
static unsigned warnings;
static unsigned quiet; /* depth of nested mp_diag_quiet(1) */

/* Warnings held by mp_diag_hold. A conversion raises at most seven
 * different ones. */
#define MAX_HELD 8
static char held[MAX_HELD][MSG_SHOWN];
static const char *held_kind[MAX_HELD]; /* "warning" or "note" */
static unsigned nheld;
static int holding;

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
    if (print && !quiet)
        fprintf(stderr, "mcuprof: %s: %s\n", kind, buf);
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

/* A warning or a note: printed now, or held with its kind. */
static void advise(const char *kind, const char *file, const char *fmt, va_list ap)
{
    report(last_warning, sizeof(last_warning), kind, file, fmt, ap, !holding);
    if (holding && nheld < MAX_HELD) {
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

    for (i = 0; print && !quiet && i < nheld; i++)
        fprintf(stderr, "mcuprof: %s: %s\n", held_kind[i], held[i]);
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

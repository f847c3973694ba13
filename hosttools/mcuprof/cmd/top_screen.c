/*
 * top_screen.c - the screen of `mcuprof top` (top_screen.h).
 */
#include "top_screen.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text_safe.h"
#include "path_name.h"
#include "top_term.h"

#define LINE_MAX_COLS 1000u
#define REVERSE "\033[7m"
#define BOLD "\033[1m"
#define PLAIN "\033[m"

/* The screen as it is built: every line clipped, then written at once. */
struct screen {
    char *s;
    size_t len, cap;
    unsigned rows, cols, row;
};

static void put(struct screen *sc, const char *t, size_t n)
{
    if (sc->len + n < sc->cap) {
        memcpy(sc->s + sc->len, t, n);
        sc->len += n;
    }
}

/* Line TEXT, in ATTR (an SGR sequence, or ""), clipped to cols - 1
 * characters (a UTF-8 sequence counts one), the rest of the line
 * cleared. The last row ends without a newline: the screen never
 * scrolls. */
static void line(struct screen *sc, const char *attr, const char *text)
{
    size_t n = 0, chars = 0;

    if (sc->row >= sc->rows)
        return;
    while (text[n] && chars < sc->cols - 1) {
        n++;
        while (((unsigned char)text[n] & 0xC0) == 0x80)
            n++;
        chars++;
    }
    put(sc, attr, strlen(attr));
    put(sc, text, n);
    if (attr[0])
        put(sc, PLAIN, sizeof(PLAIN) - 1);
    put(sc, "\033[K", 3);
    if (++sc->row < sc->rows)
        put(sc, "\r\n", 2);
}

static void linef(struct screen *sc, const char *attr, const char *fmt, ...)
{
    char t[LINE_MAX_COLS * 4];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(t, sizeof(t), fmt, ap);
    va_end(ap);
    line(sc, attr, t);
}

/* The columns, in the order shown; a narrow screen leaves some out. */
enum col { C_SELF, C_SELF_CI, C_OTHER, C_OTHER_CI, C_RATE, C_CALLS, C_INCL, C_INCL_CI, NCOLS };
static const unsigned widths[NCOLS] = {6, 14, 6, 14, 10, 11, 6, 14};
/* Taken in this order while they fit, with the name's least room. */
static const enum col priority[NCOLS] = {C_SELF, C_RATE, C_SELF_CI, C_CALLS, C_INCL, C_OTHER, C_INCL_CI, C_OTHER_CI};
#define NAME_MIN 16u
#define GAP 2u

static void choose(const struct top_span *s, unsigned cols, int *on)
{
    unsigned used = NAME_MIN, k;

    memset(on, 0, NCOLS * sizeof(*on));
    for (k = 0; k < NCOLS; k++) {
        enum col c = priority[k];

        if ((c == C_INCL || c == C_INCL_CI) && !s->has_paths)
            continue;
        if (used + widths[c] + GAP > cols - 1)
            continue;
        on[c] = 1;
        used += widths[c] + GAP;
    }
}

static size_t cell(char *t, size_t size, const char *fmt, ...)
{
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(t, size, fmt, ap);
    va_end(ap);
    return n > 0 && (size_t)n < size ? (size_t)n : 0;
}

static void titles(struct screen *sc, const struct top_view *v, const int *on)
{
    static const char *const names[NCOLS] = {"%SELF", "95 % interval", "%RUN", "95 % interval",
                                             "CALLS/S", "CALLS", "%INCL", "95 % interval"};
    char t[LINE_MAX_COLS];
    size_t at = 0;
    unsigned c;

    for (c = 0; c < NCOLS; c++) {
        const char *name = names[c];

        if (!on[c])
            continue;
        if (c == C_OTHER)
            name = v->show_run ? "%LAST" : "%RUN";
        at += cell(t + at, sizeof(t) - at, "%*s  ", (int)widths[c], name);
    }
    cell(t + at, sizeof(t) - at, "FUNCTION");
    line(sc, REVERSE, t);
}

static size_t interval(char *t, size_t size, double lo, double hi)
{
    return cell(t, size, "%6.2f..%-6.2f  ", lo, hi);
}

static void row(struct screen *sc, const struct top_view *v, size_t i, const int *on)
{
    const struct top_span *s = top_view_span(v), *o = top_view_other(v);
    struct top_cells c;
    char t[LINE_MAX_COLS * 4];
    size_t at = 0;

    top_view_cells(s, o, i, &c);
    if (on[C_SELF])
        at += cell(t + at, sizeof(t) - at, "%6.2f  ", c.self);
    if (on[C_SELF_CI])
        at += interval(t + at, sizeof(t) - at, c.self_lo, c.self_hi);
    if (on[C_OTHER])
        at += cell(t + at, sizeof(t) - at, "%6.2f  ", c.other);
    if (on[C_OTHER_CI])
        at += interval(t + at, sizeof(t) - at, c.other_lo, c.other_hi);
    if (on[C_RATE])
        at += cell(t + at, sizeof(t) - at, c.rate < 1e9 ? "%10.1f  " : "%10.3g  ", c.rate);
    if (on[C_CALLS])
        at += cell(t + at, sizeof(t) - at, "%11" PRIu64 "  ", c.calls);
    if (on[C_INCL])
        at += cell(t + at, sizeof(t) - at, "%6.2f  ", c.incl);
    if (on[C_INCL_CI])
        at += interval(t + at, sizeof(t) - at, c.incl_lo, c.incl_hi);
    cell(t + at, sizeof(t) - at, "%s", v->names[i]);
    line(sc, "", t);
}


static void header(struct screen *sc, const struct top_view *v)
{
    const struct top_span *s = top_view_span(v);
    char when[32], losses[600];
    int lost;

    top_time(v->when, when, sizeof(when));
    /* the time of day is enough on a screen that shows now */
    if (strlen(when) == 20)
        memmove(when, when + 11, 10);
    linef(sc, v->paused ? REVERSE : BOLD, "mcuprof top%s  interval %u (every %g s)  sort: %s  rows: %s  %s  %s  %s",
          v->paused ? "  PAUSED" : "", v->number, v->interval_s, top_sort_name(v->sort),
          v->show_run ? "whole run" : "last interval", when, mp_esc(v->link), mp_esc(mp_path_base(v->elf)));
    if (v->have_last)
        linef(sc, "", "last: %" PRIu64 " samples in %.2f s (target %.2f s%s)  run: %" PRIu64
                      " samples, %u interval%s, %.1f s  calls: last %" PRIu64 ", run %" PRIu64,
              v->last.total, v->last.wall_s, top_span_seconds(&v->last),
              v->last.rate_hz ? "" : ", no sampler rate: host time", v->run.total, v->run.intervals,
              v->run.intervals == 1 ? "" : "s", v->run.wall_s, v->last.calls, v->run.calls);
    else
        linef(sc, "", "waiting for the first interval (%g s)", v->interval_s);
    lost = top_losses(s, losses, sizeof(losses));
    linef(sc, lost ? REVERSE : "", "%s: %s", lost ? "LOST" : "lost", losses);
    if (s->has_contexts) {
        char parts[600];

        top_parts_line(&s->ctx, parts, sizeof(parts));
        linef(sc, "", "contexts: %s", parts);
    }
    if (s->has_tasks) {
        char parts[600];

        top_parts_line(&s->task, parts, sizeof(parts));
        linef(sc, "", "tasks: %s", parts);
    }
    linef(sc, v->note[0] ? BOLD : "", "%s", v->note[0] ? v->note : v->event);
}

static void help_line(struct screen *sc, const struct top_view *v)
{
    while (sc->row + 1 < sc->rows)
        line(sc, "", "");
    linef(sc, REVERSE, "q quit  s self  c calls  i inclusive%s  t last/run  p pause  %s",
          top_view_span(v)->has_paths ? "" : " (no paths)",
          v->confirm_reset ? "r AGAIN: drain the target" : "r reset target");
}

void top_screen_draw(const struct top_view *v, unsigned rows, unsigned cols)
{
    struct screen sc = {NULL, 0, 0, rows, cols > LINE_MAX_COLS ? LINE_MAX_COLS : cols, 0};
    const struct top_span *s = top_view_span(v);
    size_t *order, n, k;
    int on[NCOLS];

    sc.cap = (size_t)rows * (sc.cols * 4 + 32) + 64;
    if (!(sc.s = malloc(sc.cap)) || !(order = malloc((v->nfn ? v->nfn : 1) * sizeof(*order)))) {
        free(sc.s);
        return;
    }
    put(&sc, "\033[H", 3);
    if (rows < TOP_MIN_ROWS || cols < TOP_MIN_COLS) {
        /* one line, on a screen cleared of everything else */
        sc.rows = 1;
        linef(&sc, "", "terminal %ux%u too small, needs %ux%u", cols, rows, TOP_MIN_COLS,
              TOP_MIN_ROWS);
        put(&sc, "\033[J", 3);
    } else {
        header(&sc, v);
        choose(s, sc.cols, on);
        titles(&sc, v, on);
        n = top_view_order(v, s, order);
        for (k = 0; k < n && sc.row + 2 < sc.rows; k++)
            row(&sc, v, order[k], on);
        if (s->outside > 0 && sc.row + 2 < sc.rows) {
            double lo, hi;

            linef(&sc, "", "%6.2f  (outside every function)", top_share(s->outside, s->total, s->draws, &lo, &hi));
        }
        help_line(&sc, v);
    }
    top_term_write(sc.s, sc.len);
    free(sc.s);
    free(order);
}

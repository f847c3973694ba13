/*
 * top_view.h - what `mcuprof top` shows and how: the last interval and
 * the whole run, the sort, which of the two the rows show, and the lines
 * of text both forms print (the screen, top_screen.c; the batch form,
 * top_batch.c), so that both say the same figures in the same words.
 */
#ifndef MCUPROF_TOP_VIEW_H
#define MCUPROF_TOP_VIEW_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "top_span.h"

enum top_sort { TOP_SORT_SELF, TOP_SORT_CALLS, TOP_SORT_INCL };

struct top_view {
    const char *link;          /* the endpoint, as messages name it */
    const char *elf;
    const char **names;        /* nfn function names (owned) */
    size_t nfn;
    double interval_s;         /* --interval */
    struct top_span last;      /* the last interval, when have_last */
    struct top_span run;       /* every interval so far */
    int have_last;
    unsigned number;           /* snapshots after the first: the intervals */
    time_t when;               /* of the last snapshot */
    enum top_sort sort;
    int show_run;              /* the rows show the whole run (t) */
    int paused;                /* the screen is not redrawn with new figures (p) */
    int confirm_reset;         /* r was pressed once: the second drains */
    char event[300];           /* the last thing that happened to the target */
    char note[400];             /* the answer to the last key, until the next
                                 * key or event */
};

/* V for the functions of the ELF's model M (names copied) and the run
 * empty. -1 on out of memory (reported). */
int top_view_init(struct top_view *v, const char **names, size_t nfn);
void top_view_free(struct top_view *v);

/* The span the rows show (the last interval or the run), and the other. */
const struct top_span *top_view_span(const struct top_view *v);
const struct top_span *top_view_other(const struct top_view *v);

/* "self", "calls", "inclusive". */
const char *top_sort_name(enum top_sort s);

/* ORDER (room for nfn) gets the functions with anything in span S
 * (samples, calls or inclusive samples), by the sort, most first; ties
 * by self samples, then by name. Returns how many. */
size_t top_view_order(const struct top_view *v, const struct top_span *s, size_t *order);

/* One row's figures: function I's self share in span S and in span O
 * (each with its 95 % interval), its calls and calls per second in S,
 * and its inclusive share in S when S has call paths. */
struct top_cells {
    double self, self_lo, self_hi;
    double other, other_lo, other_hi;
    double rate;               /* calls per second on the target's clock */
    uint64_t calls;
    int has_incl;
    double incl, incl_lo, incl_hi;
};
void top_view_cells(const struct top_span *s, const struct top_span *o, size_t i, struct top_cells *c);

/* The losses of S in one line of words into BUF ("none lost" when
 * there are none): samples lost by cause, calls lost by cause, missed
 * periods (or that they cannot be measured), deferred and held-off
 * samples, table losses, saturated arcs. Returns non-zero when something
 * was lost or missed. */
int top_losses(const struct top_span *s, char *buf, size_t size);

/* The parts (contexts or tasks) of S in one line, each share with its
 * 95 % interval, most first. */
void top_parts_line(const struct top_parts *ps, char *buf, size_t size);

/* "2026-12-02T06:30:01Z". */
void top_time(time_t t, char *buf, size_t size);

#endif /* MCUPROF_TOP_VIEW_H */

/*
 * top_batch.h - `mcuprof top --batch` (and top on anything but a
 * terminal): one block of lines per interval on standard output, for a
 * log or a script (docs/top.md, "Batch form", is the reference):
 *
 *   interval N time T wall_s S target_s S samples N lost_samples N
 *       lost_calls N missed_periods N|- deferred_samples N|- held_off N
 *       table_lost N run_intervals N run_samples N sort self|calls|inclusive
 *   self% self_lo self_hi run% run_lo run_hi calls/s calls run_calls
 *       incl% incl_lo incl_hi function           (the column titles)
 *   one line per function in those columns ("-" where a figure is not
 *       recorded), sorted, at most --lines of them
 *   context NAME share lo hi   /   task NAME share lo hi
 *   a blank line
 *
 * An interval the target was drained or reset in has only
 *   interval N time T restarted: WHY
 * and a blank line. The header line is one line (wrapped above).
 */
#ifndef MCUPROF_TOP_BATCH_H
#define MCUPROF_TOP_BATCH_H

#include <stdio.h>

#include "top_view.h"

/* V's last interval as one block on F, at most LINES functions (0: all). */
void top_batch_block(FILE *f, const struct top_view *v, unsigned lines);

/* An interval that starts over: "interval N time T restarted: WHY". */
void top_batch_restart(FILE *f, const struct top_view *v, const char *why);

#endif /* MCUPROF_TOP_BATCH_H */

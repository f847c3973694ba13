/*
 * top_screen.h - the screen of `mcuprof top` on a terminal: ROWS lines
 * of at most COLS - 1 characters, drawn over the last from the top left
 * corner, so the screen never scrolls and a line never wraps.
 *
 * Top to bottom: the title (the link, the firmware, the interval, the
 * time, the sort, PAUSED), the samples of the last interval and of the
 * run, the losses (shown in reverse video when there are any), the
 * contexts and the tasks when the target keeps them, the last event or
 * the answer to a key, the column titles, a row per function, and the
 * keys on the last line. The columns a narrow terminal has no room for
 * are left out, least useful first: the function's name, its share and
 * its calls per second stay. A terminal under TOP_MIN_COLS x TOP_MIN_ROWS
 * gets one line saying so.
 */
#ifndef MCUPROF_TOP_SCREEN_H
#define MCUPROF_TOP_SCREEN_H

#include "top_view.h"

#define TOP_MIN_ROWS 10u
#define TOP_MIN_COLS 50u

/* Draw V on the terminal (top_term_write), ROWS x COLS. */
void top_screen_draw(const struct top_view *v, unsigned rows, unsigned cols);

#endif /* MCUPROF_TOP_SCREEN_H */

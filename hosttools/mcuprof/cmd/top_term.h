/*
 * top_term.h - the terminal of `mcuprof top`: keys one at a time, the
 * alternate screen, its size, and the terminal given back exactly as it
 * was on every way out.
 *
 * Plain termios and ANSI sequences, no curses: top draws one screen of
 * text lines a second or so, which needs a cursor home, a line clear and
 * the alternate screen, all of which every terminal emulator in use
 * understands (ECMA-48, xterm's 1049); curses would add a library and a
 * terminfo database to the tool for no line more.
 *
 * The terminal is put back by top_term_close(), by exit() (atexit), and
 * by the handler of a signal that ends the tool at once (interrupt.h:
 * the third SIGINT, SIGTERM or SIGHUP). Ctrl-Z gives the terminal back
 * while the tool is stopped and takes it again when it continues.
 */
#ifndef MCUPROF_TOP_TERM_H
#define MCUPROF_TOP_TERM_H

#include <stddef.h>

/* Standard input and output are both terminals. */
int top_term_usable(void);

/* Keys one at a time without echo (signals still come from the keys),
 * the alternate screen, the cursor hidden. -1 when the terminal cannot be
 * set (reported). */
int top_term_open(void);

/* The terminal as it was before top_term_open(); nothing if it was not
 * opened. Async-signal-safe. */
void top_term_close(void);

/* The window's size; 24 x 80 when it cannot be read. */
void top_term_size(unsigned *rows, unsigned *cols);

/* The window changed size (SIGWINCH) or the tool came back from Ctrl-Z
 * since the last call: the screen must be measured and drawn again. */
int top_term_changed(void);

/* Wait up to MS milliseconds for a key: the key (a byte), 0 when the time
 * passed, the window changed or a signal came (mp_interrupted() says
 * which), -1 when standard input ended or failed. */
int top_term_key(unsigned ms);

/* Write LEN bytes of screen to standard output in one piece. */
void top_term_write(const char *s, size_t len);

#endif /* MCUPROF_TOP_TERM_H */

/*
 * diag.h - the one place that reports errors and warnings, and says what
 * was done.
 *
 * Every message is one line on stderr:
 *   mcuprof: error: <file>: <what>
 *   mcuprof: warning: <file>: <what>
 *   mcuprof: note: <file>: <what>
 *   mcuprof: [<context>: ]<what was done>      (mp_say: "wrote gmon.out: ...")
 * so scripts can match it and a user sees the file, field and value at
 * fault. A warning or a note whose text was printed already in this run
 * is not printed again: the same fact said twice (by every format
 * written, by every pull of a run) reads as two problems. On a terminal
 * one line may show progress (mp_progress_show); it is erased before any
 * other line is printed, so no message lands in the middle of it. The message is escaped as a whole by the rule of text_safe.h
 * (mp_esc_message: control characters and bytes that are not UTF-8 as
 * \xNN), so a file name or a field quoted from the input keeps it on one
 * line and never reaches the terminal raw. Library code reports and
 * returns -1; only main() decides the exit status.
 */
#ifndef MCUPROF_DIAG_H
#define MCUPROF_DIAG_H

/* mingw: the format attribute "printf" means Microsoft's, while the tool
 * is built with C99's (__USE_MINGW_ANSI_STDIO, hosttools/CMakeLists.txt:
 * %zu, %ju). */
#if defined(__MINGW32__)
#define MP_PRINTF(a, b) __attribute__((format(gnu_printf, a, b)))
#elif defined(__GNUC__)
#define MP_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define MP_PRINTF(a, b)
#endif

/* Report an error about FILE (NULL when no file is concerned). Always
 * returns -1 so a caller can write `return mp_error(...)`. */
int mp_error(const char *file, const char *fmt, ...) MP_PRINTF(2, 3);

/* Report a warning about FILE: the output is still written. */
void mp_warn(const char *file, const char *fmt, ...) MP_PRINTF(2, 3);

/* A warning about something done that stays done whatever follows (a
 * freeze of another host taken over): printed at once, even while
 * warnings are held, and never dropped. */
void mp_warn_now(const char *file, const char *fmt, ...) MP_PRINTF(2, 3);

/* Say something about FILE that is not wrong but easy to miss (what an
 * output cannot show, and why): "mcuprof: note: <file>: <what>", held and
 * dropped like a warning, not counted as one. */
void mp_note(const char *file, const char *fmt, ...) MP_PRINTF(2, 3);

/* The text of the last error or warning (a note counts as a warning here;
 * without the prefix), so tests can check which field a message names. */
const char *mp_last_error(void);
const char *mp_last_warning(void);

/* Number of errors and warnings reported since the last reset. */
unsigned mp_error_count(void);
unsigned mp_warning_count(void);
void mp_diag_reset(void);

/* Hold warnings back instead of printing them, until mp_diag_release():
 * a command that fails prints only its one error line, and the warnings
 * about an output that was never written are dropped. */
void mp_diag_hold(void);
/* Number of warnings held so far; mp_diag_drop_held(N) drops those held
 * after the first N (an output rewritten drops the warnings about the
 * version it replaces). */
unsigned mp_diag_held(void);
void mp_diag_drop_held(unsigned keep);
/* Print the held warnings (PRINT non-zero) or drop them; stop holding. */
void mp_diag_release(int print);

/* Non-zero: keep messages out of stderr (unit tests check them through
 * mp_last_error instead); zero: undo one such call. Calls nest, so a
 * reader that is quiet for a moment inside a quiet clean-up leaves the
 * clean-up quiet. */
void mp_diag_quiet(int quiet);

/* The user's -q / --quiet (QUIET non-zero): silences what mp_say says,
 * the progress line and the notes; never a warning or an error. */
void mp_diag_set_quiet(int quiet);

/* Say what was done, one line: "mcuprof: <what>", after the context set
 * by mp_say_context ("pull 3: wrote ..."). Printed at once, also while
 * warnings are held: it tells of something done that stays done. */
void mp_say(const char *fmt, ...) MP_PRINTF(1, 2);
/* What every mp_say line is about until the next call ("pull 3"); NULL
 * or "": nothing. The text is copied. */
void mp_say_context(const char *context);

/* KEEP non-zero, and a progress line wanted: what mp_say says is kept
 * and shown as the progress line instead of printed (a run that rewrites
 * its outputs again and again keeps one line on a terminal); KEEP zero:
 * print the lines kept of the last write (those said under one context)
 * and say lines again. Without a progress line, lines are printed. */
void mp_say_keep(int keep);
/* The last line mp_say said ("" none), without "mcuprof: ". */
const char *mp_say_last(void);

/* Whether a progress line may be shown: stderr is a terminal and the
 * output is not quiet (-q, or mp_diag_quiet). Logs and pipes never get
 * one. */
int mp_progress_wanted(void);
/* Show TEXT as the progress line, "mcuprof: <text>", replacing the one on
 * screen (nothing when !mp_progress_wanted()). */
void mp_progress_show(const char *fmt, ...) MP_PRINTF(1, 2);
/* Erase the progress line, if one is on screen. */
void mp_progress_clear(void);

#endif /* MCUPROF_DIAG_H */

/*
 * diag.h - the one place that reports errors and warnings.
 *
 * Every message is one line on stderr:
 *   mcuprof: error: <file>: <what>
 *   mcuprof: warning: <file>: <what>
 *   mcuprof: note: <file>: <what>
 * so scripts can match it and a user sees the file, field and value at
 * fault. The message is escaped as a whole by the rule of text_safe.h
 * (mp_esc_message: control characters and bytes that are not UTF-8 as
 * \xNN), so a file name or a field quoted from the input keeps it on one
 * line and never reaches the terminal raw. Library code reports and
 * returns -1; only main() decides the exit status.
 */
#ifndef MCUPROF_DIAG_H
#define MCUPROF_DIAG_H

#if defined(__GNUC__)
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

#endif /* MCUPROF_DIAG_H */

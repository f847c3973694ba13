/*
 * interrupt.h - the signals that ask the tool to stop (SIGINT, SIGTERM,
 * SIGHUP), as one small shared state every long loop can look at.
 *
 * The handlers only record the signal (and wake a poll through a pipe);
 * the work in progress checks mp_interrupted() and ends cleanly, so that
 * a target is released (or the tool says how it is left) before exiting.
 * A clean-up that must still talk to the target calls mp_interrupt_defer():
 * the signals so far no longer stop anything, and a further one stops the
 * clean-up too. A third signal while the tool is still running ends it at
 * once: the handler writes the last words set by mp_interrupt_last_words()
 * (what state the target is left in) and exits with 128 + the signal.
 */
#ifndef MCUPROF_INTERRUPT_H
#define MCUPROF_INTERRUPT_H

#include <signal.h>

/* Windows has no SIGHUP: its console closing (CTRL_CLOSE_EVENT) is one. */
#ifndef SIGHUP
#define SIGHUP 1
#endif

/* Install the handlers (once; later calls do nothing) and ignore SIGPIPE
 * and SIGXFSZ, so writing to a closed pipe or socket fails with EPIPE, and
 * a file past the size limit with EFBIG, instead of killing the tool.
 * On Windows a console control handler: Ctrl-C is SIGINT, Ctrl-Break
 * SIGTERM, the console closing SIGHUP; it runs on a thread of its own. */
void mp_interrupt_catch(void);

/* The signal (SIGINT ...) asking the work in progress to stop now, or 0:
 * one arrived since the last mp_interrupt_defer(). */
int mp_interrupted(void);

/* The first signal caught, or 0; stays set after mp_interrupt_defer(). */
int mp_interrupt_signal(void);

/* "SIGINT", "SIGTERM", "SIGHUP" for SIG (another number: "a signal"). */
const char *mp_signal_name(int sig);

/* The signals caught so far are being dealt with: mp_interrupted() is 0
 * until another one arrives. */
void mp_interrupt_defer(void);

/* ON: work that must not stop half way (a drain) lets one signal by:
 * mp_interrupted() stays 0 until a second one since the last
 * mp_interrupt_defer(). Off again: it counts as usual. */
void mp_interrupt_shield(int on);

/* A file descriptor that becomes readable when a signal arrives, for a
 * poll() that must end at once; -1 before mp_interrupt_catch(). A wait
 * that finds it readable while mp_interrupted() is 0 calls
 * mp_interrupt_drain() and waits on. On Windows it is a socket (the
 * reading end of a loopback pair), for WSAPoll beside the sockets
 * waited on. */
int mp_interrupt_fd(void);
void mp_interrupt_drain(void);

/* Windows: an event (a HANDLE) set when a signal arrives, for
 * WaitForMultipleObjects beside what is not a socket (the console);
 * mp_interrupt_drain() resets it. NULL on POSIX hosts and before
 * mp_interrupt_catch(). */
void *mp_interrupt_event(void);

/* TEXT (one line, copied; NULL or "" clears it) is written to stderr if a
 * third signal ends the tool at once. */
void mp_interrupt_last_words(const char *text);

/* FN (NULL: none) is called by the handler of a third signal before it
 * writes the last words and exits: it must be async-signal-safe (write,
 * tcsetattr), as a terminal's restore is (on Windows it runs on the
 * handler's thread while the main thread runs on). */
void mp_interrupt_on_exit(void (*fn)(void));

#endif /* MCUPROF_INTERRUPT_H */

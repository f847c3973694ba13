/*
 * interrupt_os.h - what interrupt.c needs of the host: catching the
 * requests to stop, waking the waits, ending at once. interrupt_posix.c
 * (signals, a pipe), interrupt_win32.c (a console control handler, a
 * loopback socket pair and an event).
 */
#ifndef MCUPROF_INTERRUPT_OS_H
#define MCUPROF_INTERRUPT_OS_H

#include <stddef.h>

/* Set up what wakes the waits, then have HANDLER(SIGINT ...) called for
 * each request to stop; ignore SIGPIPE and SIGXFSZ where they exist.
 * Called once. HANDLER runs as a signal handler (POSIX) or on a thread of
 * its own (Windows). */
void mp_interrupt_os_catch(void (*handler)(int sig));

/* From HANDLER: make mp_interrupt_fd() readable (async-signal-safe). */
void mp_interrupt_os_wake(void);

/* From HANDLER, the last request: LEN bytes of TEXT (maybe 0) to stderr,
 * then end the process with status CODE at once. */
void mp_interrupt_os_exit(const char *text, size_t len, int code);

#endif /* MCUPROF_INTERRUPT_OS_H */

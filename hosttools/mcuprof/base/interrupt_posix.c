/*
 * interrupt_posix.c - signals, and a pipe that wakes a poll
 * (interrupt_os.h).
 */
/* sigaction, pipe and fcntl are POSIX, not C11. */
#define _POSIX_C_SOURCE 200809L

#include "interrupt.h"
#include "interrupt_os.h"

#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

static int wake[2] = {-1, -1}; /* the handler writes, a poll reads */

void mp_interrupt_os_wake(void)
{
    if (wake[1] >= 0 && write(wake[1], "", 1) < 0) {
        /* a full pipe already wakes the poll */
    }
}

void mp_interrupt_os_exit(const char *text, size_t len, int code)
{
    if (len > 0 && write(2, text, len) < 0) {
        /* nothing more to do: the tool ends either way */
    }
    _exit(code);
}

void mp_interrupt_os_catch(void (*handler)(int sig))
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    struct sigaction sa;
    size_t i;

    if (pipe(wake) == 0) {
        for (i = 0; i < 2; i++) {
            fcntl(wake[i], F_SETFL, fcntl(wake[i], F_GETFL) | O_NONBLOCK);
            fcntl(wake[i], F_SETFD, FD_CLOEXEC);
        }
    } else {
        wake[0] = wake[1] = -1;
    }
    memset(&sa, 0, sizeof(sa));
    sigemptyset(&sa.sa_mask);
    for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
        sigaddset(&sa.sa_mask, sigs[i]);
    /* No SA_RESTART: a blocking call returns EINTR and its loop looks at
     * the flag. */
    sa.sa_handler = handler;
    for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
        sigaction(sigs[i], &sa, NULL);
    sa.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &sa, NULL);
    /* A file grown past RLIMIT_FSIZE then fails with EFBIG, as on a full
     * disk, and the command cleans up instead of dying. */
    sigaction(SIGXFSZ, &sa, NULL);
}

int mp_interrupt_fd(void)
{
    return wake[0];
}

void *mp_interrupt_event(void)
{
    return NULL;
}

void mp_interrupt_drain(void)
{
    char b[64];

    while (wake[0] >= 0 && read(wake[0], b, sizeof(b)) > 0)
        ;
}

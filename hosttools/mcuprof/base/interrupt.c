/*
 * interrupt.c - signal flags for a clean stop (interrupt.h).
 */
/* sigaction, pipe and fcntl are POSIX, not C11. */
#define _POSIX_C_SOURCE 200809L

#include "interrupt.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

/* Signals that end the tool at once, past the two a clean-up honours. */
#define FORCE_AFTER 3

static volatile sig_atomic_t caught;   /* signals received */
static volatile sig_atomic_t first;    /* the first one's number */
static volatile sig_atomic_t deferred; /* `caught` at the last mp_interrupt_defer */
static volatile sig_atomic_t shielded; /* signals mp_interrupted() lets by: 0 or 1 */
static int wake[2] = {-1, -1};         /* the handler writes, a poll reads */
/* Written by the handler of the last signal only: set with `words_len`
 * 0 meanwhile so the handler never writes a half-copied text. */
static char words[1024];
static volatile sig_atomic_t words_len;
static void (*volatile at_exit)(void);

static void on_signal(int sig)
{
    int saved = errno;

    if (!first)
        first = sig;
    caught++;
    if (caught >= FORCE_AFTER) {
        if (at_exit)
            at_exit();
        if (words_len > 0 && write(2, words, (size_t)words_len) < 0) {
            /* nothing more to do: the tool ends either way */
        }
        _exit(128 + sig);
    }
    if (wake[1] >= 0 && write(wake[1], "", 1) < 0) {
        /* a full pipe already wakes the poll */
    }
    errno = saved;
}

void mp_interrupt_catch(void)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    struct sigaction sa;
    size_t i;

    if (wake[0] >= 0)
        return;
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
    sa.sa_handler = on_signal;
    for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
        sigaction(sigs[i], &sa, NULL);
    sa.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &sa, NULL);
    /* A file grown past RLIMIT_FSIZE then fails with EFBIG, as on a full
     * disk, and the command cleans up instead of dying. */
    sigaction(SIGXFSZ, &sa, NULL);
}

int mp_interrupted(void)
{
    return caught > deferred + shielded ? (int)first : 0;
}

void mp_interrupt_shield(int on)
{
    shielded = on ? 1 : 0;
}

int mp_interrupt_signal(void)
{
    return (int)first;
}

const char *mp_signal_name(int sig)
{
    switch (sig) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    case SIGHUP: return "SIGHUP";
    default: return "a signal";
    }
}

void mp_interrupt_defer(void)
{
    deferred = caught;
    mp_interrupt_drain();
}

int mp_interrupt_fd(void)
{
    return wake[0];
}

void mp_interrupt_drain(void)
{
    char b[64];

    while (wake[0] >= 0 && read(wake[0], b, sizeof(b)) > 0)
        ;
}

void mp_interrupt_last_words(const char *text)
{
    size_t n = text ? strlen(text) : 0;

    words_len = 0;
    if (n == 0)
        return;
    if (n > sizeof(words) - 1)
        n = sizeof(words) - 1;
    memcpy(words, text, n);
    if (words[n - 1] != '\n')
        words[n++] = '\n';
    words_len = (sig_atomic_t)n;
}

void mp_interrupt_on_exit(void (*fn)(void))
{
    at_exit = fn;
}

/*
 * interrupt.c - signal flags for a clean stop (interrupt.h); how the
 * host delivers them and wakes waits is interrupt_posix.c or
 * interrupt_win32.c (interrupt_os.h).
 */
#include "interrupt.h"

#include <errno.h>
#include <signal.h>
#include <string.h>

#include "interrupt_os.h"

/* Signals that end the tool at once, past the two a clean-up honours. */
#define FORCE_AFTER 3

static volatile sig_atomic_t caught;   /* signals received */
static volatile sig_atomic_t first;    /* the first one's number */
static volatile sig_atomic_t deferred; /* `caught` at the last mp_interrupt_defer */
static volatile sig_atomic_t shielded; /* signals mp_interrupted() lets by: 0 or 1 */
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
        mp_interrupt_os_exit(words, words_len > 0 ? (size_t)words_len : 0, 128 + sig);
    }
    mp_interrupt_os_wake();
    errno = saved;
}

void mp_interrupt_catch(void)
{
    static int done;

    if (done)
        return;
    done = 1;
    mp_interrupt_os_catch(on_signal);
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

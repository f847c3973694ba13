/*
 * top_term_posix.c - the terminal of `mcuprof top` on POSIX hosts
 * (top_term.h): termios, poll, SIGWINCH, SIGTSTP.
 */
/* termios, poll, sigaction, isatty: POSIX, not C11 */
#define _POSIX_C_SOURCE 200809L

#include "top_term.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "diag.h"
#include "interrupt.h"

/* The alternate screen on, the cursor hidden; and back. */
#define ENTER "\033[?1049h\033[?25l\033[H\033[2J"
#define LEAVE "\033[?25h\033[?1049l"

static struct termios saved;
static volatile sig_atomic_t is_open;  /* the terminal is ours to give back */
static volatile sig_atomic_t changed;  /* SIGWINCH, or back from Ctrl-Z */

static void put(const char *s, size_t len)
{
    while (len > 0) {
        ssize_t n = write(STDOUT_FILENO, s, len);

        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return;
        s += n;
        len -= (size_t)n;
    }
}

int top_term_usable(void)
{
    return isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
}

/* Set the terminal with SIGTTOU blocked. After Ctrl-Z the shell may
 * take the terminal back (it saw the rest of the job stop) before the
 * handler here has given back the settings: a process in the background
 * that sets them is stopped by SIGTTOU, and would stop again at its own
 * SIGTSTP once continued. Blocked, the settings are set all the same
 * (POSIX, tcsetattr). */
static int set_attr(const struct termios *t)
{
    sigset_t ttou, old;
    int r;

    sigemptyset(&ttou);
    sigaddset(&ttou, SIGTTOU);
    sigprocmask(SIG_BLOCK, &ttou, &old);
    r = tcsetattr(STDIN_FILENO, TCSANOW, t);
    sigprocmask(SIG_SETMASK, &old, NULL);
    return r;
}

/* Keys one at a time: no line editing, no echo; Ctrl-C and Ctrl-Z still
 * send their signals. Output processing stays, so '\n' starts a line. */
static int take(void)
{
    struct termios t = saved;

    t.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
    t.c_cc[VMIN] = 1;
    t.c_cc[VTIME] = 0;
    if (set_attr(&t) < 0)
        return -1;
    put(ENTER, sizeof(ENTER) - 1);
    return 0;
}

void top_term_close(void)
{
    int saved_errno = errno;

    if (is_open) {
        is_open = 0;
        put(LEAVE, sizeof(LEAVE) - 1);
        set_attr(&saved);
    }
    errno = saved_errno;
}

static void on_winch(int sig)
{
    (void)sig;
    changed = 1;
}

/* Ctrl-Z: the terminal back as it was while stopped, ours again after. */
static void on_tstp(int sig)
{
    struct sigaction sa;
    sigset_t set;
    int saved_errno = errno;

    (void)sig;
    if (is_open) {
        top_term_close();
        is_open = 2; /* taken again on the way back */
    }
    memset(&sa, 0, sizeof(sa));
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = SIG_DFL;
    sigaction(SIGTSTP, &sa, NULL);
    sigemptyset(&set);
    sigaddset(&set, SIGTSTP);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    raise(SIGTSTP);
    /* continued: in the background (bg), the screen is not ours to draw
     * on; stopped again until the shell brings top to the foreground */
    while (tcgetpgrp(STDIN_FILENO) != getpgrp())
        raise(SIGTTOU);
    sa.sa_handler = on_tstp;
    sigaction(SIGTSTP, &sa, NULL);
    if (is_open == 2 && take() == 0)
        is_open = 1;
    changed = 1;
    errno = saved_errno;
}

static void at_exit(void)
{
    top_term_close();
}

int top_term_open(void)
{
    static int registered;
    struct sigaction sa;

    if (tcgetattr(STDIN_FILENO, &saved) < 0)
        return mp_error(NULL, "top: cannot read the terminal's settings: %s", strerror(errno));
    if (!registered++) {
        atexit(at_exit);
        mp_interrupt_on_exit(at_exit);
    }
    memset(&sa, 0, sizeof(sa));
    sigemptyset(&sa.sa_mask);
    /* no SA_RESTART: a poll waiting for a key returns at once */
    sa.sa_handler = on_winch;
    sigaction(SIGWINCH, &sa, NULL);
    sa.sa_handler = on_tstp;
    sigaction(SIGTSTP, &sa, NULL);
    if (take() < 0) {
        tcsetattr(STDIN_FILENO, TCSANOW, &saved);
        return mp_error(NULL, "top: cannot set the terminal: %s", strerror(errno));
    }
    is_open = 1;
    return 0;
}

void top_term_size(unsigned *rows, unsigned *cols)
{
    struct winsize w;

    *rows = 24;
    *cols = 80;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &w) == 0 && w.ws_row > 0 && w.ws_col > 0) {
        *rows = w.ws_row;
        *cols = w.ws_col;
    }
}

int top_term_changed(void)
{
    int c = changed;

    changed = 0;
    return c;
}

int top_term_key(unsigned ms)
{
    struct pollfd p[2] = {{STDIN_FILENO, POLLIN, 0}, {mp_interrupt_fd(), POLLIN, 0}};
    unsigned char key;
    ssize_t n;
    int r;

    if (changed || mp_interrupted())
        return 0;
    r = poll(p, p[1].fd >= 0 ? 2 : 1, (int)ms);
    if (r < 0)
        return errno == EINTR ? 0 : -1;
    /* a signal let by (interrupt.h): only the next one counts */
    if (r > 0 && (p[1].revents & POLLIN) && !mp_interrupted())
        mp_interrupt_drain();
    if (r == 0 || !(p[0].revents & (POLLIN | POLLHUP | POLLERR)))
        return 0;
    n = read(STDIN_FILENO, &key, 1);
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return 0;
    return n == 1 ? key : -1;
}

void top_term_write(const char *s, size_t len)
{
    put(s, len);
}

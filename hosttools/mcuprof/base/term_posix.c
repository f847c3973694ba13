/*
 * term_posix.c - the terminal on POSIX hosts (term.h).
 */
#define _POSIX_C_SOURCE 200809L /* isatty, fileno */

#include "term.h"

#include <sys/ioctl.h>
#include <unistd.h>

int mp_term_is(FILE *f)
{
    return isatty(fileno(f));
}

size_t mp_term_columns(FILE *f)
{
    struct winsize ws;

    return ioctl(fileno(f), TIOCGWINSZ, &ws) == 0 ? ws.ws_col : 0;
}

int mp_term_vt(FILE *f)
{
    (void)f;
    return 1;
}

void mp_term_utf8(void)
{
}

void mp_term_restore(void)
{
}

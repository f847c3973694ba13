/*
 * win_cmdline.c - an argument vector as one Windows command line
 * (win_cmdline.h).
 */
#include "win_cmdline.h"

#include <string.h>

struct out {
    char *buf;
    size_t size, len;
    int full;
};

static void put(struct out *o, char c, size_t times)
{
    while (times-- > 0) {
        if (o->len + 1 >= o->size) {
            o->full = 1;
            return;
        }
        o->buf[o->len++] = c;
    }
}

/* One argument after the program's name. */
static void quote_arg(struct out *o, const char *a)
{
    if (a[0] && !a[strcspn(a, " \t\n\v\"")]) {
        for (; *a; a++)
            put(o, *a, 1);
        return;
    }
    put(o, '"', 1);
    for (;;) {
        size_t backslashes = 0;

        while (*a == '\\') {
            backslashes++;
            a++;
        }
        if (!*a) {
            /* doubled: the closing quote that follows is not escaped */
            put(o, '\\', 2 * backslashes);
            break;
        }
        if (*a == '"') {
            /* doubled, and one more to escape the quote itself */
            put(o, '\\', 2 * backslashes + 1);
            put(o, '"', 1);
        } else {
            put(o, '\\', backslashes);
            put(o, *a, 1);
        }
        a++;
    }
    put(o, '"', 1);
}

long mp_win_cmdline(char *const argv[], char *buf, size_t size)
{
    struct out o = {buf, size, 0, 0};
    const char *name = argv[0];
    int i;

    if (size == 0 || !name || strchr(name, '"'))
        return -1;
    /* the program's name: in quotes when it has a blank, as it is else */
    if (!name[0] || name[strcspn(name, " \t")]) {
        put(&o, '"', 1);
        for (; *name; name++)
            put(&o, *name, 1);
        put(&o, '"', 1);
    } else {
        for (; *name; name++)
            put(&o, *name, 1);
    }
    for (i = 1; argv[i]; i++) {
        put(&o, ' ', 1);
        quote_arg(&o, argv[i]);
    }
    if (o.full)
        return -1;
    buf[o.len] = '\0';
    return (long)o.len;
}

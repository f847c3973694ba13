/*
 * clone_names.c - GCC's clone suffixes (clone_names.h).
 */
#include "clone_names.h"

#include <ctype.h>
#include <string.h>

/* The suffix words GCC 12 writes ("cold" and "localalias" take no number;
 * the others usually do). */
static const char *const words[] = {"constprop", "isra", "part", "cold", "lto_priv", "localalias", "clone"};

/* Length of the clone suffix component at S (".word" or ".word.N"), 0 when
 * S does not start one. */
static size_t component(const char *s)
{
    size_t i, n;

    if (s[0] != '.')
        return 0;
    for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
        n = strlen(words[i]);
        if (strncmp(s + 1, words[i], n) != 0 || (s[1 + n] != '\0' && s[1 + n] != '.'))
            continue;
        n++;
        if (s[n] == '.' && isdigit((unsigned char)s[n + 1])) {
            n++;
            while (isdigit((unsigned char)s[n]))
                n++;
        }
        return n;
    }
    return 0;
}

/* Where the clone suffixes from S stop: S's end when S up to its end is
 * clone suffixes only. */
static const char *suffixes_end(const char *s)
{
    size_t n;

    while (*s && (n = component(s)) != 0)
        s += n;
    return s;
}

/* Linear in the name: a parse from a dot that stops short passes over
 * dots that start the same parse (they stop at the same place) or none
 * (the dot before a clone number), so the next dot tried is the first
 * at or after where it stopped. */
size_t mp_clone_origin_len(const char *name)
{
    const char *dot = strchr(name + (name[0] != '\0'), '.');

    while (dot) {
        const char *stop = suffixes_end(dot);

        if (!*stop)
            return (size_t)(dot - name);
        dot = strchr(stop == dot ? dot + 1 : stop, '.');
    }
    return strlen(name);
}

int mp_clone_is_piece(const char *name)
{
    size_t at = mp_clone_origin_len(name), n;
    const char *s = name + at;

    for (; *s; s += n) {
        n = component(s);
        if (strncmp(s, ".part", 5) == 0 || strncmp(s, ".cold", 5) == 0)
            return 1;
    }
    return 0;
}

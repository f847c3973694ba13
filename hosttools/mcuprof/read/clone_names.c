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

/* Non-zero when S up to its end is clone suffixes only. */
static int all_suffixes(const char *s)
{
    size_t n;

    while (*s) {
        if (!(n = component(s)))
            return 0;
        s += n;
    }
    return 1;
}

size_t mp_clone_origin_len(const char *name)
{
    const char *dot;

    /* The origin is never empty: a name starting with '.' is a label. */
    for (dot = strchr(name + (name[0] != '\0'), '.'); dot; dot = strchr(dot + 1, '.')) {
        if (all_suffixes(dot))
            return (size_t)(dot - name);
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

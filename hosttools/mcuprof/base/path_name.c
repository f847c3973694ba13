/*
 * path_name.c - a file name's last component and folder (path_name.h).
 */
#include "path_name.h"

#include <stdlib.h>
#include <string.h>

/* Windows' rule on Windows, POSIX's elsewhere (the one host test here). */
#ifdef _WIN32
#define HOST_WINDOWS 1
#else
#define HOST_WINDOWS 0
#endif

static int is_sep(int c, int windows)
{
    return c == '/' || (windows && c == '\\');
}

int mp_path_sep(int c)
{
    return is_sep(c, HOST_WINDOWS);
}

/* The length of what no folder name can go above: a drive ("C:", "C:\"),
 * a share ("\\server\share\"), "/" at the start; 0 if none. */
static size_t root_len(const char *p, int windows)
{
    size_t n;

    if (!windows)
        return p[0] == '/';
    if (((p[0] | 0x20) >= 'a' && (p[0] | 0x20) <= 'z') && p[1] == ':')
        return is_sep(p[2], 1) ? 3 : 2;
    if (is_sep(p[0], 1) && is_sep(p[1], 1) && p[2] && !is_sep(p[2], 1)) {
        /* \\server\share\ : the server, then the share (\\?\C:\ too) */
        n = 2;
        while (p[n] && !is_sep(p[n], 1))
            n++;
        if (!p[n])
            return n;
        n++;
        while (p[n] && !is_sep(p[n], 1))
            n++;
        return p[n] ? n + 1 : n;
    }
    return is_sep(p[0], 1);
}

const char *mp_path_base_in(const char *path, int windows)
{
    size_t i = strlen(path), root = root_len(path, windows);

    while (i > root && !is_sep(path[i - 1], windows))
        i--;
    return path + (i > root ? i : root);
}

const char *mp_path_base(const char *path)
{
    return mp_path_base_in(path, HOST_WINDOWS);
}

size_t mp_path_dir_len_in(const char *path, int windows)
{
    size_t root = root_len(path, windows), i = (size_t)(mp_path_base_in(path, windows) - path);

    /* drop the separator before the base, but never the root's */
    return i > root ? i - 1 : i;
}

size_t mp_path_dir_len(const char *path)
{
    return mp_path_dir_len_in(path, HOST_WINDOWS);
}

char *mp_path_dir(const char *path)
{
    size_t len = mp_path_dir_len(path);
    char *d = malloc(len ? len + 1 : 2);

    if (!d)
        return NULL;
    if (!len)
        memcpy(d, ".", 2);
    else {
        memcpy(d, path, len);
        d[len] = '\0';
    }
    return d;
}

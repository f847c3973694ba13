/*
 * host_dir_posix.c - the file system questions of host_dir.h on POSIX
 * hosts.
 */
/* readlink: POSIX, not C11 */
#define _POSIX_C_SOURCE 200809L
#include "host_dir.h"

#include <dirent.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int mp_exe_dir(char *buf, size_t size)
{
    ssize_t n = size > 1 ? readlink("/proc/self/exe", buf, size - 1) : -1;
    char *slash;

    if (n <= 0)
        return -1;
    buf[n] = '\0';
    if (!(slash = strrchr(buf, '/')))
        return -1;
    *slash = '\0';
    return 0;
}

int mp_is_dir(const char *path)
{
    struct stat st;

    return path[0] && stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int mp_exists(const char *path)
{
    struct stat st;

    return stat(path, &st) == 0;
}

int mp_is_readable(const char *path)
{
    return access(path, R_OK) == 0;
}

int mp_dir_each(const char *dir, void (*fn)(const char *name, void *ctx), void *ctx)
{
    DIR *d = opendir(dir);
    struct dirent *e;

    if (!d)
        return -1;
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            fn(e->d_name, ctx);
    closedir(d);
    return 0;
}

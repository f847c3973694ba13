/*
 * file_open_posix.c - file names as the system takes them (file_open.h).
 */
#include "file_open.h"

#include <fcntl.h>

FILE *mp_fopen(const char *path, const char *mode)
{
    return fopen(path, mode);
}

int mp_open(const char *path, int flags)
{
    return open(path, flags, 0666);
}

int mp_remove(const char *path)
{
    return remove(path);
}

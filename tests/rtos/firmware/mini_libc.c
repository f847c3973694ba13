/*
 * mini_libc.c - memset, memcpy, memcmp and strlen for the kernel (and for
 * what GCC emits for large copies), byte by byte: they run once per task
 * created, never in a measured loop. Built with
 * -fno-tree-loop-distribute-patterns, which keeps GCC from turning these
 * loops back into calls to themselves. Not profiled.
 */
#include <string.h>

void *memset(void *dst, int c, size_t n)
{
    unsigned char *d = dst;
    while (n--)
        *d++ = (unsigned char)c;
    return dst;
}

void *memcpy(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    while (n--)
        *d++ = *s++;
    return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
    const unsigned char *x = a, *y = b;
    for (; n; n--, x++, y++)
        if (*x != *y)
            return *x - *y;
    return 0;
}

size_t strlen(const char *s)
{
    size_t n = 0;
    while (s[n])
        n++;
    return n;
}

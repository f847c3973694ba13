/*
 * libc_min.c - the C library the kernel needs, for a build without one:
 * memset and memcpy (TCB set-up, struct copies GCC turns into calls).
 * Byte by byte: they run when a task is created, never in a hot loop. A
 * project with newlib or picolibc links theirs instead. Not profiled.
 */
#include <stddef.h>

void *memset(void *dst, int c, size_t n);
void *memcpy(void *dst, const void *src, size_t n);

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

/*
 * string.h - what the kernel includes from the C library, for builds
 * without one (riscv64-unknown-elf ships none); libc_min.c defines it. A
 * project with newlib or picolibc drops this directory and libc_min.c.
 */
#ifndef APP_MIN_STRING_H
#define APP_MIN_STRING_H

#include <stddef.h>

void *memset(void *dst, int c, size_t n);
void *memcpy(void *dst, const void *src, size_t n);

#endif

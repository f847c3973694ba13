/*
 * string.h - the part of the C library the FreeRTOS kernel uses, for
 * freestanding builds without one (riscv64-unknown-elf has no libc; the
 * Arm build links none either). mini_libc.c defines them.
 */
#ifndef RTOS_MINI_STRING_H
#define RTOS_MINI_STRING_H

#include <stddef.h>

void *memset(void *dst, int c, size_t n);
void *memcpy(void *dst, const void *src, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);

#endif

/*
 * stdlib.h - tasks.c includes it; with static allocation only it needs
 * nothing from it but size_t and NULL.
 */
#ifndef APP_MIN_STDLIB_H
#define APP_MIN_STDLIB_H

#include <stddef.h>

#endif

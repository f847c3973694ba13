/*
 * stdlib.h - tasks.c and list.c include it; with static allocation only
 * they use nothing from it but size_t and NULL.
 */
#ifndef RTOS_MINI_STDLIB_H
#define RTOS_MINI_STDLIB_H

#include <stddef.h>

#endif

/*
 * grow.h - room for one more item at the end of an array that doubles as
 * it fills, the one growth rule of the tool's tables.
 */
#ifndef MCUPROF_GROW_H
#define MCUPROF_GROW_H

#include <stddef.h>

/* ITEMS is the address of the array's pointer (ITEM_SIZE bytes an item,
 * room for *CAP). Doubles the room, or makes it FIRST items the first
 * time. Returns 0, or the capacity it could not allocate (the array and
 * *CAP are then as they were), for the caller's message naming what it
 * was growing. */
size_t mp_grow(void *items, size_t *cap, size_t item_size, size_t first);

#endif /* MCUPROF_GROW_H */

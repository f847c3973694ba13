/*
 * mem_link.h - a debug link to a "target" whose memory is a buffer of the
 * test at MEM_LINK_BASE, for the tests of the drain: what it writes lands
 * in the buffer, where the test reads it back.
 */
#ifndef TESTS_MEM_LINK_H
#define TESTS_MEM_LINK_H

#include <stddef.h>
#include <stdint.h>

#include "target_link.h"

#define MEM_LINK_BASE 0x20000000u

/* *L writes into the LEN bytes at MEM (and fails the test when a write
 * falls outside them); it offers no reads, no halt, no resume. */
void mem_link_open(struct mp_link *l, uint8_t *mem, size_t len);

#endif /* TESTS_MEM_LINK_H */

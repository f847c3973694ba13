/*
 * drain_ext.h - zero the extension tables' counts in a drain.
 */
#ifndef MCUPROF_DRAIN_EXT_H
#define MCUPROF_DRAIN_EXT_H

#include <stdint.h>

#include "image_read.h"
#include "target_link.h"

/* Write back every known extension table of IMG (read from the target at
 * ADDR) with its counts zeroed. Reports and returns -1 on a link error. */
int mp_drain_ext(struct mp_link *l, uint64_t addr, const struct mp_image *img);

#endif /* MCUPROF_DRAIN_EXT_H */

/* gmon_internal.h - the per-format pieces behind gmon_write.h. */
#ifndef MCUPROF_GMON_INTERNAL_H
#define MCUPROF_GMON_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "bytes.h"
#include "gmon_write.h"

/* The bins of prepared histogram H divided by DIV (rounded to the
 * nearest; 1: as they are), less FLOOR, each at most 65535, as 16-bit
 * counters in the output's byte order. */
void mp_put_hist16(struct mp_out *o, const struct mp_profile *p, size_t h, uint32_t floor, uint32_t div);

/* The largest bin of every prepared histogram (clamped as written). */
uint32_t mp_hist_max(const struct mp_profile *p);

/* The rate divided by the bins' factor K, to the nearest, at least 1. */
uint32_t mp_scaled_rate(const struct mp_profile *p, uint32_t k);

uint64_t mp_gnu_size(const struct mp_profile *p);
/* The factor the GNU writer divides every bin and the rate by, so that no
 * range takes more than MP_GNU_HIST_RECORDS_MAX records: 1 when none does. */
uint32_t mp_gnu_scale(const struct mp_profile *p);
void mp_gnu_write(struct mp_out *o, const struct mp_profile *p);

/* Reports the error when P does not fit the BSD format (several ranges),
 * and warns about bins that will saturate. */
int mp_bsd_check(const struct mp_profile *p);
uint64_t mp_bsd_size(const struct mp_profile *p);
/* The factor the BSD writer divides every bin and the rate by, so that
 * the largest bin fits 16 bits: 1 when it already does. */
uint32_t mp_bsd_scale(const struct mp_profile *p);
void mp_bsd_write(struct mp_out *o, const struct mp_profile *p);

#endif /* MCUPROF_GMON_INTERNAL_H */

/*
 * count_text.h - a count as a person reads it: "10,249", digits grouped
 * by three with commas whatever the locale, so a line on stderr reads
 * the same in every log and a test can match it.
 */
#ifndef MCUPROF_COUNT_TEXT_H
#define MCUPROF_COUNT_TEXT_H

#include <stdint.h>

/* Room for the largest uint64_t grouped (26 characters) and its NUL. */
#define MP_COUNT_TEXT_MAX 32

/* N grouped into BUF; returns BUF, for a print call's argument. */
const char *mp_count_text(char buf[MP_COUNT_TEXT_MAX], uint64_t n);

#endif /* MCUPROF_COUNT_TEXT_H */

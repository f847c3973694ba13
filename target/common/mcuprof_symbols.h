/*
 * mcuprof_symbols.h - symbols defined by the linker fragment
 * (linker/mcuprof.ld). Their addresses are the values: text ranges rounded
 * out to whole bins, where each range's bins start, and the bin size.
 */
#ifndef MCUPROF_SYMBOLS_H
#define MCUPROF_SYMBOLS_H

#include <stdint.h>

extern char __mcuprof_start[];     /* first byte of the image */
extern char __mcuprof_end[];       /* one past its last byte */
extern char __mcuprof_bin_shift[]; /* absolute: log2 of the bin size */
extern char __mcuprof_text0_start[], __mcuprof_text0_end[]; /* the code of range 0, unrounded */
extern char __mcuprof_range0_low[], __mcuprof_range0_high[], __mcuprof_hist0[];
extern char __mcuprof_range1_low[], __mcuprof_range1_high[], __mcuprof_hist1[];
extern char __mcuprof_range0_size[], __mcuprof_range1_size[]; /* high - low */
/* The firmware's GNU build-id note, where the board's linker script puts it;
 * weak because a user's script may not. */
extern const uint8_t __mcuprof_build_id_note[] __attribute__((weak));

#define MCUPROF_SYM(s) ((uintptr_t)(s))

#endif /* MCUPROF_SYMBOLS_H */

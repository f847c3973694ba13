/*
 * board_find.h - which QEMU board a firmware ELF is built for, from the
 * ELF alone: its machine and class, on ARM its build attributes (the
 * CPU architecture, whether it uses an FPU) and the float ABI of its
 * e_flags, and where its loadable segments lie against each board's
 * memory map (memory.ld). A board fits when its core runs the code and
 * every segment lies in its memory; among those that fit, one whose core
 * is exactly the ELF's (architecture, FPU) is preferred. Two boards left
 * equal are never chosen between: the caller is told.
 */
#ifndef MCUPROF_BOARD_FIND_H
#define MCUPROF_BOARD_FIND_H

#include <stddef.h>

/* The board for ELF into NAME (SIZE bytes) and what told it into WHY
 * ("ARMv6-M, no FPU, in its memory"): 0. None fits, or several fit
 * equally: one error line listing the boards (the fitting ones when
 * several), -2. The ELF cannot be read: -1 (reported). */
int mp_board_find(const char *elf, char *name, size_t size, char *why, size_t why_size);

/* Board NAME, named by the user, against ELF: 0 it fits; 1 it does not
 * (one warning saying what the ELF is; the run goes on); -1 the ELF or
 * the boards cannot be read (reported). */
int mp_board_check(const char *name, const char *elf);

#endif /* MCUPROF_BOARD_FIND_H */

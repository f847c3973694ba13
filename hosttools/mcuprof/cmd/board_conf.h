/*
 * board_conf.h - the QEMU boards for `record`, read from their manifests
 * as boards/boards.sh reads them for the scripts: a board is a directory
 * BOARDS/NAME with a qemu.conf (KEY=VALUE lines, read over the
 * architecture's common/ARCH/arch.conf), its cpu.flags and the MEMORY
 * block of its memory.ld. Read in C: no shell is run.
 *
 * BOARDS is, first found: $MCUPROF_BOARDS_DIR; ../share/mcuprof/boards
 * beside the running executable (an installed tool); the source tree's
 * boards/ (the build tree's tool, MCUPROF_SOURCE_BOARDS_DIR).
 */
#ifndef MCUPROF_BOARD_CONF_H
#define MCUPROF_BOARD_CONF_H

#include <stddef.h>
#include <stdint.h>

#define MP_BOARD_TEXT 256
#define MP_BOARD_REGIONS 8
#define MP_BOARDS_MAX 64

struct mp_board_region {
    char name[32];
    uint64_t origin, length;
};

struct mp_board {
    char name[64];
    char dir[4096];
    char arch[32];                    /* BOARD_ARCH: cortex-m, riscv */
    char core[MP_BOARD_TEXT];         /* BOARD_CORE, for people */
    char qemu_bin[MP_BOARD_TEXT];     /* QEMU_BIN */
    char qemu_package[MP_BOARD_TEXT]; /* QEMU_PACKAGE: the Debian package of QEMU_BIN */
    char qemu_machine[MP_BOARD_TEXT], qemu_cpu[MP_BOARD_TEXT], qemu_extra[MP_BOARD_TEXT];
    unsigned icount_shift;            /* QEMU_ICOUNT_SHIFT */
    char cpu_flags[MP_BOARD_TEXT];    /* cpu.flags, one line */
    struct mp_board_region region[MP_BOARD_REGIONS];
    unsigned nregions;                /* from memory.ld's MEMORY block */
};

/* The boards directory (see above), or NULL when none is found (reported). */
const char *mp_boards_dir(void);

/* The board names, sorted, into NAMES (up to MP_BOARDS_MAX); the count,
 * or -1 (reported). */
int mp_board_names(char names[][64], unsigned max);

/* "microbit, mps2-an385, ..." into BUF. */
void mp_board_list(char *buf, size_t size);

/* Read board NAME. An unknown name: one error line listing the boards,
 * -2; a manifest that cannot be read: one error line naming the file and
 * line, -1. */
int mp_board_load(struct mp_board *b, const char *name);

#endif /* MCUPROF_BOARD_CONF_H */

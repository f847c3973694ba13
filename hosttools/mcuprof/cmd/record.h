/*
 * record.h - the parts of `mcuprof record` (cmd_record.c): its options,
 * what a run tells the summary line, the QEMU run (record_qemu.c), the
 * pull and the outputs both ways of running share.
 */
#ifndef MCUPROF_RECORD_H
#define MCUPROF_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "output.h"
#include "target_open.h"

struct record_args {
    struct mp_target_args target; /* the link options; target.elf is ELF */
    const char *elf;
    const char *board;            /* --board, NULL: recognised from the ELF */
    const char *console;          /* --console FILE, NULL: the terminal */
    double duration;              /* --duration, 0: none */
    struct mp_outputs outs;
    const char *image;            /* --image FILE: the raw image too */
    uint64_t top;                 /* lines of the flat profile printed */
    int on_target;                /* a link option was given: no QEMU */
    int halt, quiet;
    int reset;                    /* --reset: the target's core, before its run */
    int print_command;            /* --print-command: QEMU's command line only */
    const char *qemu_dir;         /* QEMU's working directory while it runs, else NULL */
};

/* For the summary line. */
struct record_run {
    char where[320];  /* "mps2-an385 under QEMU", "gdb 127.0.0.1:3333" */
    char ended[128];  /* "firmware exited 0", "pulled after --duration" */
    double seconds;   /* the run, host time */
};

/* Run the ELF under QEMU and take its image (record_qemu.c): 0, -1 a
 * failure, -2 a usage error (no board fits, an unknown one); reported. */
int mp_record_qemu(struct record_args *a, struct record_run *run);

/* Connect, freeze (or halt), read the image at T (found from ELF), let
 * the core run on, then mp_record_finish. Reports and returns -1. */
int mp_record_pull(struct record_args *a, const struct mp_elf_info *elf, struct mp_target_image *t,
                   const struct record_run *run);

/* The profile of the image DATA (LEN bytes, named NAME) with the ELF:
 * every output, all or nothing; then the summary line and the top of
 * the flat profile unless --quiet. Reports and returns -1. */
int mp_record_finish(const struct record_args *a, const struct record_run *run, const char *name,
                     const uint8_t *data, size_t len);

#endif /* MCUPROF_RECORD_H */

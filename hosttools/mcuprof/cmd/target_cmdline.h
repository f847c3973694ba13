/*
 * target_cmdline.h - the option loop of a command that talks to a running
 * target (pull, sample, ctl): the link options of target_open.h, and for a
 * command that writes a profile -o/--output, -f/--format, --no-demangle,
 * --group-clones and -q/--quiet, taken here; the command's own options
 * come back to its switch, in the order getopt finds them.
 *
 *     mp_target_cmdline_init(&cl, &a->target, &a->outs, own, n, "i:", 0);
 *     while ((c = mp_target_cmdline_next(&cl, argc, argv)) != -1)
 *         switch (c) { case 'i': ...; case 'h': help; default: return -1; }
 *     if (mp_target_cmdline_end(&cl) < 0) ...
 */
#ifndef MCUPROF_TARGET_CMDLINE_H
#define MCUPROF_TARGET_CMDLINE_H

#include <getopt.h>
#include <stddef.h>

#include "output.h"
#include "target_open.h"

/* Room for a command's own long options, and for its positional ones. */
#define MP_CMDLINE_OWN_MAX 16
#define MP_CMDLINE_POS_MAX 2

struct mp_target_cmdline {
    struct mp_target_args *target;
    struct mp_outputs *outs;   /* NULL: a command that writes no profile */
    /* -o, -f, the command's own, --no-demangle, --group-clones, --quiet,
     * --help, then the link options */
    struct option longopts[2 + MP_CMDLINE_OWN_MAX + 4 + MP_TARGET_NOPTS + 1];
    char shortopts[48];
    char *pos[MP_CMDLINE_POS_MAX + 1];
    int npos, maxpos;
};

/* The long options OWN (NOWN of them) and the short ones OWN_SHORT
 * ("i:") are the command's; it takes MAXPOS positional arguments
 * (at most MP_CMDLINE_POS_MAX), found in CL->pos, CL->npos. */
void mp_target_cmdline_init(struct mp_target_cmdline *cl, struct mp_target_args *target, struct mp_outputs *outs,
                            const struct option *own, size_t nown, const char *own_short, int maxpos);

/* The next option for the command's switch: one of its own, 'h' for
 * --help, '?' for a usage error (reported), or -1 after the last. */
int mp_target_cmdline_next(struct mp_target_cmdline *cl, int argc, char **argv);

/* After the loop: more positional arguments than the command takes is a
 * usage error (reported, naming the first one too many): -1. */
int mp_target_cmdline_end(const struct mp_target_cmdline *cl);

#endif /* MCUPROF_TARGET_CMDLINE_H */

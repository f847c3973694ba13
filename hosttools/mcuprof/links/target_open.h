/*
 * target_open.h - what the commands that talk to a running target (pull,
 * sample, ctl) share: the transport options (one per entry of the
 * transports table), --elf, --address, --force, --timeout and --deadline
 * (cmd/target_cmdline.h runs them in a command's option loop), and the
 * way in: find where the image is (the ELF's symbols or the address),
 * connect, read and validate its header, and check that it comes from the
 * ELF's build.
 */
#ifndef MCUPROF_TARGET_OPEN_H
#define MCUPROF_TARGET_OPEN_H

#include <getopt.h>
#include <stdint.h>

#include "elf_info.h"
#include "transports.h"
#include "snapshot.h"

/* getopt codes of the transport options: MP_TARGET_LINK_OPT + index in
 * the transports table, or a transport's short option. */
#define MP_TARGET_LINK_OPT 0x1000
/* Room for the shared long options in a command's table. */
#define MP_TARGET_NOPTS (5 + 8)
/* --timeout's range: below 10 ms no debug server answers anything. */
#define MP_TIMEOUT_MIN 0.01
#define MP_TIMEOUT_MAX 3600.0
/* The default --deadline: this many --timeouts. */
#define MP_DEADLINE_TIMEOUTS 10u

struct mp_target_args {
    const char *cmd;                 /* "pull", "ctl": names the command in messages */
    const struct mp_transport *transport; /* NULL until one is named: then the first */
    const char *endpoint;            /* as given, parsed by the transport */
    const char *elf;
    uint64_t address;
    int have_address;
    int force;                       /* a build-id mismatch is a warning */
    unsigned timeout_ms;             /* default 5000 */
    double deadline_s;               /* --deadline; 0: MP_DEADLINE_TIMEOUTS * timeout */
    /* What a user types to release a freeze this command left behind:
     * "mcuprof ctl release --gdb HOST:PORT --address 0x...", set by
     * mp_target_connect. */
    char release_cmd[400];
    char link_name[272];             /* the endpoint as messages name it */
};

void mp_target_args_init(struct mp_target_args *a, const char *cmd);

/* OUT (room for NFIXED + MP_TARGET_NOPTS + 1 entries) gets FIXED, then
 * the shared long options, then the terminating zeros. */
void mp_target_longopts(struct option *out, const struct option *fixed, size_t nfixed);

/* OUT (SIZE bytes) gets getopt's FIXED short options followed by the
 * transports' ("g:"). */
void mp_target_shortopts(char *out, size_t size, const char *fixed);

/* Take option C (as getopt_long returned it) with argument ARG if it is
 * one of the shared ones: 1 taken, 0 not ours, -1 a bad value (reported). */
int mp_target_option(struct mp_target_args *a, int c, const char *arg);

/* After the options: the image must be located somehow; the link and its
 * endpoint get their defaults. Reports and returns -1. */
int mp_target_finish(struct mp_target_args *a);

/* "--OPT S": seconds from 0 to MAX. Reports (naming the command) and
 * returns -1. */
int mp_parse_seconds(const char *cmd, const char *opt, const char *s, double max, double *v);
/* The same from MIN (above 0) to MAX. */
int mp_parse_seconds_in(const char *cmd, const char *opt, const char *s, double min, double max, double *v);

/* Start the command's deadline (--deadline, mp_net_deadline) from now: a
 * pull, each pull of --interval, a ctl. */
void mp_target_start_deadline(const struct mp_target_args *a);

/* Where the image is, before connecting: T's addr and region_size, from
 * the ELF (read into ELF) and --address. */
int mp_target_find(const struct mp_target_args *a, struct mp_elf_info *elf, struct mp_target_image *t);

/* Parse the endpoint (the transport's parser) and connect, read and
 * validate the header at T->addr (mp_pull_locate), and
 * with --elf check the build (mp_build_check; --force makes a mismatch a
 * warning). Nothing is written to the target before all that passed.
 * Sets A->release_cmd and A->link_name. Returns the open link, or NULL
 * (reported, closed, T freed). */
struct mp_link *mp_target_connect(struct mp_target_args *a, const struct mp_elf_info *elf,
                                  struct mp_target_image *t);

/* Parse the endpoint and connect without reading the image's header
 * (sample without the runtime's image; the release over a new connection):
 * the byte order is BIG, as the caller knows it. EP gets the endpoint.
 * Returns the open link, or NULL (reported). */
struct mp_link *mp_target_open_bare(const struct mp_target_args *a, int big, struct mp_endpoint *ep);

/* Close the link, leaving the target unfrozen or saying how it is left.
 * If a freeze this process asked for may still be set (a failure, a
 * signal, a lost connection), release it: on the link if it still
 * answers, else over a new connection, once, within the grace the
 * deadline leaves (mp_pull_cleanup_begin); a signal during that clean-up
 * skips the rest. If the freeze stays, report (one error line) where
 * (freeze_request's address and our token) and the command that releases
 * it (A->release_cmd). Returns 0, or -1 when the target is left frozen. */
int mp_target_leave(const struct mp_target_args *a, struct mp_link *l, const struct mp_target_image *t);

/* The exit status of a command that talked to a target: after a signal
 * that ended it, 128 + the signal; else OK or FAIL as the work went. */
int mp_target_exit_status(int ok);

#endif /* MCUPROF_TARGET_OPEN_H */

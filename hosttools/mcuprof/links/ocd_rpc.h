/*
 * ocd_rpc.h - a client of OpenOCD's Tcl RPC port (tcl_port, default 6666).
 *
 * Each command is Tcl text terminated by 0x1a; the reply is the command's
 * result, also terminated by 0x1a. OpenOCD reaches a Cortex-M's memory
 * through the debug port while the core runs, so reads need no halt.
 * Memory goes through read_memory / write_memory (OpenOCD 0.12), whose
 * words are numbers: the link converts them to bytes in the target's byte
 * order, which is unknown until the image's magic is read, so the first
 * read (the header) goes byte by byte.
 */
#ifndef MCUPROF_OCD_RPC_H
#define MCUPROF_OCD_RPC_H

#include <stddef.h>

#include "net.h"
#include "target_link.h"

#define MP_OCD_DEFAULT_PORT 6666u

struct mp_ocd {
    struct mp_link link;
    struct mp_net net;
    char *reply;        /* last result, NUL-terminated (malloc'd) */
    size_t reply_len, reply_cap;
};

/* Connect, and learn whether the core runs. */
int mp_ocd_open(struct mp_ocd *o, const struct mp_endpoint *ep, unsigned timeout_ms);

/* Run one Tcl command; its result is in o->reply. */
int mp_ocd_command(struct mp_ocd *o, const char *cmd, const char *what);

#endif /* MCUPROF_OCD_RPC_H */

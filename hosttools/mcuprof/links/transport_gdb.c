/*
 * transport_gdb.c - --gdb HOST:PORT: a GDB server, through the GDB remote
 * protocol (gdb_rsp.h).
 */
#include "gdb_rsp.h"
#include "tcp_endpoint.h"
#include "transports.h"

static int parse_gdb(const char *text, struct mp_endpoint *ep)
{
    return mp_tcp_endpoint_parse(text, "localhost", MP_RSP_DEFAULT_PORT, ep);
}

static struct mp_link *open_gdb(const struct mp_endpoint *ep, unsigned timeout_ms)
{
    static struct mp_rsp rsp;

    return mp_rsp_open(&rsp, ep, timeout_ms) < 0 ? NULL : &rsp.link;
}

const struct mp_transport mp_transport_gdb = {
    .name = "gdb",
    .endpoint_form = "HOST:PORT",
    .default_endpoint = "localhost:3333",
    .help = "a GDB server: OpenOCD, pyOCD, J-Link, Black Magic Probe, QEMU's gdbstub; "
            "memory only while the core is stopped",
    .notes = "The GDB protocol reaches memory only while the core is stopped, and GDB servers stop it "
             "when a client attaches: over --gdb the core is stopped for each access (a few "
             "milliseconds) and runs in between, and mcuprof lets it run when it disconnects.",
    .short_option = 'g',
    .caps = MP_LINK_HALT,
    .rank = 10,
    .parse = parse_gdb,
    .open = open_gdb,
};

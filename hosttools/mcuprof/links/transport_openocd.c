/*
 * transport_openocd.c - --openocd HOST:PORT: OpenOCD's Tcl RPC port
 * (ocd_rpc.h). Its parse and open have the shape of transport_gdb.c's on
 * purpose: each transport is a file of its own, with its own default port
 * and connection.
 */
#include "ocd_rpc.h"
#include "tcp_endpoint.h"
#include "transports.h"

static int parse_openocd(const char *text, struct mp_endpoint *ep)
{
    return mp_tcp_endpoint_parse(text, "localhost", MP_OCD_DEFAULT_PORT, ep);
}

static struct mp_link *open_openocd(const struct mp_endpoint *ep, unsigned timeout_ms)
{
    static struct mp_ocd ocd;

    return mp_ocd_open(&ocd, ep, timeout_ms) < 0 ? NULL : &ocd.link;
}

const struct mp_transport mp_transport_openocd = {
    .name = "openocd",
    .endpoint_form = "HOST:PORT",
    .default_endpoint = "localhost:6666",
    .help = "OpenOCD's Tcl RPC port (port 6666 when none is given); reads a running Cortex-M's memory",
    .notes = "OpenOCD's Tcl port reads a running Cortex-M's memory directly; with --openocd a core "
             "that was halted stays halted.",
    .caps = MP_LINK_LIVE_MEMORY | MP_LINK_HALT,
    .rank = 20,
    .parse = parse_openocd,
    .open = open_openocd,
};

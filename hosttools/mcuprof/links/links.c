/*
 * links.c - the table of debug connections (links.h).
 */
#include "links.h"

#include <string.h>

#include "gdb_rsp.h"
#include "ocd_rpc.h"

static struct mp_link *open_gdb(const char *endpoint, unsigned timeout_ms)
{
    static struct mp_rsp rsp;

    return mp_rsp_open(&rsp, endpoint, timeout_ms) < 0 ? NULL : &rsp.link;
}

static struct mp_link *open_openocd(const char *endpoint, unsigned timeout_ms)
{
    static struct mp_ocd ocd;

    return mp_ocd_open(&ocd, endpoint, timeout_ms) < 0 ? NULL : &ocd.link;
}

static const struct mp_link_kind kinds[] = {
    {"gdb", "localhost:3333",
     "a GDB server: OpenOCD, pyOCD, J-Link, Black Magic Probe, QEMU's gdbstub; "
     "memory only while the core is stopped",
     MP_LINK_HALT, open_gdb},
    {"openocd", "localhost:6666",
     "OpenOCD's Tcl RPC port (port 6666 when none is given); reads a running Cortex-M's memory",
     MP_LINK_LIVE_MEMORY | MP_LINK_HALT, open_openocd},
};

size_t mp_link_kinds_count(void)
{
    return sizeof(kinds) / sizeof(kinds[0]);
}

const struct mp_link_kind *mp_link_kind_at(size_t i)
{
    return i < mp_link_kinds_count() ? &kinds[i] : NULL;
}

void mp_links_help(FILE *f)
{
    size_t i;

    for (i = 0; i < mp_link_kinds_count(); i++)
        fprintf(f, "      --%s HOST:PORT%*s%s%s (default %s)\n", kinds[i].option,
                (int)(11 - (int)strlen(kinds[i].option) > 1 ? 11 - (int)strlen(kinds[i].option) : 1), "",
                kinds[i].help, i == 0 ? "; the default link" : "", kinds[i].default_endpoint);
}

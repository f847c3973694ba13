/*
 * semihost_write.c - write the image to a file on the debug host.
 *
 * Portable: the architecture supplies only the trap
 * (mcuprof_port_semihost). The operations are the same on every
 * architecture (mcuprof_semihost_ops.h).
 */
#include "mcuprof.h"
#include "mcuprof_layout.h"
#include "mcuprof_port.h"
#include "mcuprof_semihost_ops.h"
#include "paths.h"

MCUPROF_NOINSTR static uintptr_t string_length(const char *s)
{
    uintptr_t n = 0;
    while (s[n] != '\0')
        n++;
    return n;
}

MCUPROF_NOINSTR int mcuprof_write_semihosting(const char *path)
{
    struct mcuprof_header *h = &mcuprof_region.header;
    uint32_t state = h->state;
    int rc = -1;

    /* Pause recording: the image is written in one piece, so it must not
     * change underneath, and the semihosting code is not worth profiling. */
    mcuprof_stop();

    /* "wb": the image is binary */
    uintptr_t open_args[3] = {(uintptr_t)path, MCUPROF_SEMIHOST_OPEN_WB, string_length(path)};
    intptr_t fd = mcuprof_port_semihost(MCUPROF_SEMIHOST_SYS_OPEN, open_args);
    if (fd == -1)
        goto out;
    uintptr_t write_args[3] = {(uintptr_t)fd, (uintptr_t)mcuprof_image(), mcuprof_image_size()};
    /* SYS_WRITE returns the number of bytes NOT written. */
    intptr_t left = mcuprof_port_semihost(MCUPROF_SEMIHOST_SYS_WRITE, write_args);
    uintptr_t close_args[1] = {(uintptr_t)fd};
    intptr_t closed = mcuprof_port_semihost(MCUPROF_SEMIHOST_SYS_CLOSE, close_args);
    if (left == 0 && closed == 0)
        rc = 0;
out:
#if MCUPROF_CFG_PATHS > 0
    /* the paths resume from the caller, not from here */
    if (state & MCUPROF_STATE_ARCS_Msk)
        mcuprof_paths_set_root((uintptr_t)__builtin_return_address(0), (uintptr_t)__builtin_dwarf_cfa());
#endif
    if (state & MCUPROF_STATE_ARCS_Msk)
        mcuprof_start();
    return rc;
}

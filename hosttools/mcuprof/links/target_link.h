/*
 * target_link.h - what the pull logic needs from a debug connection:
 * read and write target memory, stop and resume the core.
 *
 * Each transport (transports.h) opens one: the GDB remote protocol
 * (gdb_rsp.c), which reaches memory only while the core is stopped
 * (all-stop mode), and OpenOCD's Tcl RPC port (ocd_rpc.c), which reads and
 * writes memory of a running Cortex-M through the debug port without
 * stopping it. The pull logic (snapshot.c) is written once against this
 * interface.
 */
#ifndef MCUPROF_TARGET_LINK_H
#define MCUPROF_TARGET_LINK_H

#include <stddef.h>
#include <stdint.h>

struct mp_link;

struct mp_link_ops {
    /* Read or write LEN bytes at ADDR. Report and return -1 on failure. */
    int (*read)(struct mp_link *l, uint64_t addr, uint8_t *buf, size_t len);
    int (*write)(struct mp_link *l, uint64_t addr, const uint8_t *buf, size_t len);
    /* Stop the core and wait until it is stopped. */
    int (*halt)(struct mp_link *l);
    /* Let the core run. */
    int (*resume)(struct mp_link *l);
    /* Leave the core as the user wants it and close the connection. */
    void (*close)(struct mp_link *l);
    /* PC sampling from the host (pc_sample.h); NULL where the link has no
     * such way. Stop the running core, read register PC_REG (its GDB
     * number), let it run again, in as few exchanges as the link allows:
     * *PC, and *STOPPED_US the microseconds from the stop's report to the
     * resume sent (0: the link cannot tell them apart). */
    int (*sample_halt)(struct mp_link *l, unsigned pc_reg, uint64_t *pc, uint64_t *stopped_us);
    /* Read the 32-bit word at ADDR N times in one exchange while the core
     * runs (a PC sample register). */
    int (*sample_word)(struct mp_link *l, uint64_t addr, uint32_t *words, unsigned n);
    /* Reset the core through the server's own command (OpenOCD's `reset
     * halt`, over the GDB protocol its `monitor reset halt`) and leave it
     * halted at its reset vector; NULL where the link has no such way.
     * Reports (with the server's answer) and returns -1. */
    int (*reset)(struct mp_link *l);
};

struct mp_link {
    const struct mp_link_ops *ops;
    const char *name;  /* the endpoint as messages name it (struct mp_endpoint) */
    int live_access;   /* memory is reachable while the core runs */
    int running;       /* the core runs now */
    int was_running;   /* the core ran when the link was opened */
    int big;           /* target byte order, once known */
    int order_known;   /* set from the image's magic by the pull logic */
    size_t chunk;      /* bytes one request moves at best */
    /* Called after each chunk of a long read, for the progress line. */
    void (*progress)(void *ctx, size_t done, size_t total);
    void *progress_ctx;
    unsigned reg_bytes; /* a core register's width, once known (PC sampling) */
};

/* Read LEN bytes in the link's chunks, reporting progress after each. */
int mp_link_read(struct mp_link *l, uint64_t addr, uint8_t *buf, size_t len);

#endif /* MCUPROF_TARGET_LINK_H */

/*
 * gdb_rsp.h - a client of the GDB remote serial protocol, enough to read
 * and write memory and to stop and resume the core: what every GDB server
 * for a microcontroller offers (OpenOCD, pyOCD, J-Link GDB server, Black
 * Magic Probe, QEMU's gdbstub).
 *
 * Packets are "$body#cc" with a modulo-256 checksum; the server may
 * run-length encode replies ("x*N"); binary data escapes '}', '#', '$' and
 * '*' as '}' followed by the byte XOR 0x20. Acknowledgements ('+') are used
 * until the server accepts QStartNoAckMode, which saves a round trip per
 * packet on a reliable TCP link.
 */
#ifndef MCUPROF_GDB_RSP_H
#define MCUPROF_GDB_RSP_H

#include <stddef.h>
#include <stdint.h>

#include "net.h"
#include "target_link.h"

/* Default port of OpenOCD's GDB server (pyOCD's too). */
#define MP_RSP_DEFAULT_PORT 3333u
/* Largest packet accepted from a server, whatever PacketSize says: a
 * memory read reply of twice this many hex digits never needs more. */
#define MP_RSP_MAX_PACKET 65536u

struct mp_rsp {
    struct mp_link link;
    struct mp_net net;
    int ack_mode;        /* acknowledgements still in use */
    int vcont;           /* vCont;c understood */
    int binary_write;    /* X packets understood (probed) */
    int no_p;            /* 'p' not answered (QEMU answers it only to a client
                          * that read its target description): 'g' instead */
    size_t packet_size;  /* largest packet body the server accepts */
    int in_packet;       /* a packet's '$' came, its checksum not yet */
    char packet_first;   /* the first byte of its body (0: none yet) */
    int ack_owed;        /* a request without reply went out, its '+' not yet in */
    char reply[MP_RSP_MAX_PACKET + 1]; /* last reply, decoded, NUL-terminated */
    size_t reply_len;
    char request[MP_RSP_MAX_PACKET + 1];
};

/* Connect to EP (a TCP endpoint), negotiate features and learn the
 * core's state. The link is then usable through r->link. */
int mp_rsp_open(struct mp_rsp *r, const struct mp_endpoint *ep, unsigned timeout_ms);

/* Send BODY (LEN bytes, escaped here) and read one reply into r->reply.
 * Console output packets ("O...") on the way are skipped. */
int mp_rsp_command(struct mp_rsp *r, const char *body, size_t len, const char *what);

/* Send BODY, a request the server answers only when the core stops again
 * ('s', 'c', 'vCont;...'), and wait for that stop reply (into r->reply);
 * with BODY NULL, only wait for a stop reply the server owes already (the
 * core ran and its socket became readable). The core is stopped after. */
int mp_rsp_until_stop(struct mp_rsp *r, const char *body, size_t len, const char *what);

/* Encode one packet body for the wire: '$', the escaped body, '#', and the
 * checksum. Returns the length written to OUT (size >= 2 * LEN + 4). */
size_t mp_rsp_frame(const char *body, size_t len, char *out);

/* Decode a received body in place: escapes and run-length encoding.
 * Returns the decoded length, or (size_t)-1 if it is malformed or would
 * exceed MAX. */
size_t mp_rsp_decode(const char *in, size_t len, char *out, size_t max);

#endif /* MCUPROF_GDB_RSP_H */

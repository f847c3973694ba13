/*
 * endpoint.h - where a transport connects to, as the transport parsed it
 * from the text the user gave (transports.h). Only the transport knows
 * the text's form: HOST:PORT for the TCP ones (tcp_endpoint.h).
 */
#ifndef MCUPROF_ENDPOINT_H
#define MCUPROF_ENDPOINT_H

struct mp_endpoint {
    char name[272];  /* how every message names it: "localhost:3333" */
    char where[256]; /* what the transport opens: a host, a probe, a file */
    unsigned number; /* a TCP port; 0 when the transport has none */
};

#endif /* MCUPROF_ENDPOINT_H */

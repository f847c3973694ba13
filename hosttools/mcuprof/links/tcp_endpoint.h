/*
 * tcp_endpoint.h - the endpoint of the transports that reach a debug
 * server over TCP: HOST:PORT.
 */
#ifndef MCUPROF_TCP_ENDPOINT_H
#define MCUPROF_TCP_ENDPOINT_H

#include "endpoint.h"

/* Parse "HOST:PORT", "HOST" or ":PORT" (DEFAULT_HOST and DEFAULT_PORT
 * fill the gap) into EP, named "host:port". Reports (naming TEXT) and
 * returns -1. */
int mp_tcp_endpoint_parse(const char *text, const char *default_host, unsigned default_port,
                          struct mp_endpoint *ep);

#endif /* MCUPROF_TCP_ENDPOINT_H */

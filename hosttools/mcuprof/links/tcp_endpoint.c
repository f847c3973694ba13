/*
 * tcp_endpoint.c - HOST:PORT (tcp_endpoint.h).
 */
#include "tcp_endpoint.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"

int mp_tcp_endpoint_parse(const char *text, const char *default_host, unsigned default_port,
                          struct mp_endpoint *ep)
{
    const char *colon = strrchr(text, ':');
    size_t hlen = colon ? (size_t)(colon - text) : strlen(text);
    const char *p = colon ? colon + 1 : "";
    char *end;
    unsigned long v;

    memset(ep, 0, sizeof(*ep));
    if (hlen >= sizeof(ep->where))
        return mp_error(text, "host name too long");
    if (hlen == 0) {
        snprintf(ep->where, sizeof(ep->where), "%s", default_host);
    } else {
        memcpy(ep->where, text, hlen);
        ep->where[hlen] = '\0';
    }
    if (*p == '\0') {
        ep->number = default_port;
    } else {
        errno = 0;
        v = strtoul(p, &end, 10);
        if (*end != '\0' || v == 0 || v > 65535 || errno)
            return mp_error(text, "port '%s' is not a number from 1 to 65535", p);
        ep->number = (unsigned)v;
    }
    snprintf(ep->name, sizeof(ep->name), "%s:%u", ep->where, ep->number);
    return 0;
}

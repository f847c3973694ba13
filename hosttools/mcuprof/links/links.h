/*
 * links.h - the debug connections `pull` (and anything else that talks to
 * a target) can use, one table entry each (links.c): the option that
 * selects it, its default endpoint, how to open it and what it can do.
 * A new transport is one file implementing target_link.h and one entry.
 */
#ifndef MCUPROF_LINKS_H
#define MCUPROF_LINKS_H

#include <stdio.h>

#include "target_link.h"

/* What a link can do. */
#define MP_LINK_LIVE_MEMORY 1u /* reads and writes memory while the core runs */
#define MP_LINK_HALT 2u        /* stops and resumes the core */

struct mp_link_kind {
    const char *option;           /* --OPTION HOST:PORT */
    const char *default_endpoint; /* when the option has no value or no link is named */
    const char *help;             /* one line for --help */
    unsigned caps;                /* MP_LINK_* */
    /* Connect to ENDPOINT; the link lives in static storage of the kind
     * (one connection per kind per process). Reports and returns NULL. */
    struct mp_link *(*open)(const char *endpoint, unsigned timeout_ms);
};

/* The table: mp_link_kind_at(0 .. mp_link_kinds_count() - 1); entry 0 is
 * the default link. */
size_t mp_link_kinds_count(void);
const struct mp_link_kind *mp_link_kind_at(size_t i);

/* The --help lines of every link. */
void mp_links_help(FILE *f);

#endif /* MCUPROF_LINKS_H */

#include "ocd_rpc.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"

#define TERMINATOR 0x1a
/* Words per read_memory / write_memory: about 11 characters each in the
 * reply, so one exchange stays near 45 KB. */
#define WORDS_PER_REQUEST 4096u
/* Largest result accepted: a reply this long is not one of ours. */
#define MAX_REPLY (1u << 20)

static const char *shown(const char *s)
{
    static char buf[64];
    size_t i, n = 0;

    for (i = 0; s[i] && n < sizeof(buf) - 4; i++)
        buf[n++] = (s[i] >= 0x20 && s[i] < 0x7f) ? s[i] : ' ';
    if (s[i]) {
        memcpy(buf + n, "...", 3);
        n += 3;
    }
    buf[n] = '\0';
    return buf;
}

int mp_ocd_command(struct mp_ocd *o, const char *cmd, const char *what)
{
    size_t len = strlen(cmd);
    char term = TERMINATOR;

    mp_net_begin(&o->net);
    /* The result of a command given up (a timeout, the deadline, a
     * signal) may still come: skip it, up to its terminator, so that it
     * is not taken for this command's. */
    if (o->net.abandoned) {
        int c;

        o->net.abandoned = 0;
        while ((c = mp_net_getc(&o->net, "the late result of an abandoned command")) != TERMINATOR)
            if (c < 0)
                return -1;
        mp_net_begin(&o->net);
    }
    if (mp_net_send(&o->net, cmd, len) < 0 || mp_net_send(&o->net, &term, 1) < 0)
        return -1;
    o->reply_len = 0;
    for (;;) {
        int c = mp_net_getc(&o->net, what);

        if (c < 0)
            return -1;
        if (c == TERMINATOR)
            break;
        if (o->reply_len + 1 >= o->reply_cap) {
            size_t cap = o->reply_cap ? o->reply_cap * 2 : 65536;
            char *p;

            if (cap > MAX_REPLY)
                return mp_error(o->link.name, "reply to %s longer than %u bytes: not OpenOCD?",
                                what, MAX_REPLY);
            p = realloc(o->reply, cap);
            if (!p)
                return mp_error(o->link.name, "out of memory");
            o->reply = p;
            o->reply_cap = cap;
        }
        o->reply[o->reply_len++] = (char)c;
    }
    if (!o->reply) {
        o->reply = malloc(1);
        if (!o->reply)
            return mp_error(o->link.name, "out of memory");
        o->reply_cap = 1;
    }
    o->reply[o->reply_len] = '\0';
    return 0;
}

/* Store V, a WIDTH-byte word, in the target's byte order. */
static void put_word(uint8_t *p, uint64_t v, unsigned width, int big)
{
    unsigned i;

    for (i = 0; i < width; i++)
        p[big ? width - 1 - i : i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_word(const uint8_t *p, unsigned width, int big)
{
    uint64_t v = 0;
    unsigned i;

    for (i = 0; i < width; i++)
        v |= (uint64_t)p[big ? width - 1 - i : i] << (8 * i);
    return v;
}

/* Widest access that fits ADDR and LEN: words only once the byte order is
 * known (the header is read byte by byte first). */
static unsigned access_width(const struct mp_link *l, uint64_t addr, size_t len)
{
    if (l->order_known && addr % 4 == 0 && len >= 4)
        return 4;
    return 1;
}

static int ocd_read(struct mp_link *l, uint64_t addr, uint8_t *buf, size_t len)
{
    struct mp_ocd *o = (struct mp_ocd *)l;

    while (len > 0) {
        unsigned width = access_width(l, addr, len);
        size_t count = len / width, i;
        char cmd[80], what[96];
        const char *p;

        if (count > WORDS_PER_REQUEST)
            count = WORDS_PER_REQUEST;
        snprintf(cmd, sizeof(cmd), "read_memory 0x%" PRIx64 " %u %zu", addr, width * 8, count);
        snprintf(what, sizeof(what), "'%s'", cmd);
        if (mp_ocd_command(o, cmd, what) < 0)
            return -1;
        p = o->reply;
        for (i = 0; i < count; i++) {
            unsigned long long v;
            char *end;

            while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
                p++;
            errno = 0;
            v = strtoull(p, &end, 0);
            if (end == p || errno || (width < 8 && v >> (8 * width)) ||
                (*end && *end != ' ' && *end != '\n' && *end != '\r' && *end != '\t'))
                return mp_error(l->name, "%s failed: \"%s\"", what, shown(o->reply));
            put_word(buf + i * width, v, width, l->big);
            p = end;
        }
        while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')
            p++;
        if (*p)
            return mp_error(l->name, "%s: more values than asked for: \"%s\"", what,
                            shown(o->reply));
        buf += count * width;
        addr += count * width;
        len -= count * width;
    }
    return 0;
}

static int ocd_write(struct mp_link *l, uint64_t addr, const uint8_t *buf, size_t len)
{
    struct mp_ocd *o = (struct mp_ocd *)l;
    char *cmd;
    int ret = 0;

    cmd = malloc(64 + (size_t)WORDS_PER_REQUEST * 12);
    if (!cmd)
        return mp_error(l->name, "out of memory");
    while (len > 0 && ret == 0) {
        unsigned width = access_width(l, addr, len);
        size_t count = len / width, i, n;
        char what[64];

        if (count > WORDS_PER_REQUEST)
            count = WORDS_PER_REQUEST;
        n = (size_t)sprintf(cmd, "write_memory 0x%" PRIx64 " %u {", addr, width * 8);
        snprintf(what, sizeof(what), "'write_memory 0x%" PRIx64 " %u' (%zu values)", addr,
                 width * 8, count);
        for (i = 0; i < count; i++)
            n += (size_t)sprintf(cmd + n, "%s0x%" PRIx64, i ? " " : "",
                                 get_word(buf + i * width, width, l->big));
        cmd[n++] = '}';
        cmd[n] = '\0';
        if (mp_ocd_command(o, cmd, what) < 0)
            ret = -1;
        else if (o->reply_len != 0)
            ret = mp_error(l->name, "%s failed: \"%s\"", what, shown(o->reply));
        buf += count * width;
        addr += count * width;
        len -= count * width;
    }
    free(cmd);
    return ret;
}

static int query_state(struct mp_ocd *o, int *running)
{
    if (mp_ocd_command(o, "[target current] curstate", "the core's state") < 0)
        return -1;
    if (strcmp(o->reply, "running") == 0)
        *running = 1;
    else if (strcmp(o->reply, "halted") == 0 || strcmp(o->reply, "debug-running") == 0)
        *running = 0;
    else if (strcmp(o->reply, "reset") == 0)
        return mp_error(o->link.name, "the core is held in reset (OpenOCD's state 'reset'): it runs no code "
                                      "and cannot be halted until the reset is released");
    else
        return mp_error(o->link.name, "the core is '%s', neither running nor halted",
                        shown(o->reply));
    return 0;
}

static int ocd_halt(struct mp_link *l)
{
    struct mp_ocd *o = (struct mp_ocd *)l;
    char cmd[32];
    int running = 0;

    if (!l->running)
        return 0;
    /* OpenOCD's `halt` waits up to 5 s for the core by default, as long
     * as the answer may take: ask it to wait half of that, so that a halt
     * that does not come is told apart from a silent server. */
    snprintf(cmd, sizeof(cmd), "halt %u", o->net.timeout_ms / 2);
    if (mp_ocd_command(o, cmd, "'halt'") < 0 || query_state(o, &running) < 0)
        return -1;
    if (running)
        return mp_error(l->name, "the core does not halt: still running %u ms after 'halt'",
                        o->net.timeout_ms / 2);
    l->running = 0;
    return 0;
}

static int ocd_resume(struct mp_link *l)
{
    struct mp_ocd *o = (struct mp_ocd *)l;

    if (l->running)
        return 0;
    if (mp_ocd_command(o, "resume", "'resume'") < 0)
        return -1;
    if (o->reply_len != 0)
        return mp_error(l->name, "'resume' failed: \"%s\"", shown(o->reply));
    l->running = 1;
    return 0;
}

static void ocd_close(struct mp_link *l)
{
    struct mp_ocd *o = (struct mp_ocd *)l;

    if (l->was_running && !l->running && o->net.fd >= 0) {
        /* an error here follows the one already reported, if any */
        mp_diag_quiet(1);
        ocd_resume(l);
        mp_diag_quiet(0);
    }
    mp_net_close(&o->net);
    free(o->reply);
    o->reply = NULL;
    o->reply_cap = 0;
}

/* Halt, read pc, resume in one exchange: the halting sampler of
 * OpenOCD's own `profile`. `reg pc` answers "pc (/32): 0x000001c4", or
 * the error's text. The core is stopped for part of the exchange, which
 * the host cannot split: *STOPPED_US is 0 and the caller states the
 * whole exchange. */
static int ocd_sample_halt(struct mp_link *l, unsigned pc_reg, uint64_t *pc, uint64_t *stopped_us)
{
    struct mp_ocd *o = (struct mp_ocd *)l;
    /* resume whatever happened: a core halted here never stays halted;
     * the halt waits half the time an answer may take, so its failure is
     * the answer */
    char cmd[128];
    const char *p;
    char *end;

    (void)pc_reg; /* OpenOCD names it */
    snprintf(cmd, sizeof(cmd), "catch {halt %u; reg pc} mcuprof_pc; catch resume; set mcuprof_pc",
             o->net.timeout_ms / 2);
    if (mp_ocd_command(o, cmd, "'halt; reg pc; resume'") < 0)
        return -1;
    if (o->reply_len == 0)
        return mp_error(l->name, "'halt; reg pc; resume': no pc: the core did not halt within %u ms (OpenOCD's "
                                 "log says why)", o->net.timeout_ms / 2);
    p = strstr(o->reply, "): ");
    errno = 0;
    *pc = p ? strtoull(p + 3, &end, 0) : 0;
    if (!p || end == p + 3 || errno || (*end && *end != ' ' && *end != '\n' && *end != '\r'))
        return mp_error(l->name, "'halt; reg pc; resume' failed: \"%s\"", shown(o->reply));
    *stopped_us = 0;
    return 0;
}

/* N reads of one word, looped by OpenOCD's Tcl interpreter: one exchange
 * for N samples of a PC sample register. */
static int ocd_sample_word(struct mp_link *l, uint64_t addr, uint32_t *words, unsigned n)
{
    struct mp_ocd *o = (struct mp_ocd *)l;
    char cmd[200], what[64];
    const char *p;
    unsigned i;

    snprintf(cmd, sizeof(cmd),
             "set mcuprof_s {}; for {set mcuprof_i 0} {$mcuprof_i < %u} {incr mcuprof_i} "
             "{lappend mcuprof_s [read_memory 0x%" PRIx64 " 32 1]}; set mcuprof_s",
             n, addr);
    snprintf(what, sizeof(what), "%u reads of 0x%" PRIx64, n, addr);
    if (mp_ocd_command(o, cmd, what) < 0)
        return -1;
    p = o->reply;
    for (i = 0; i < n; i++) {
        unsigned long long v;
        char *end;

        while (*p == ' ' || *p == '{' || *p == '}')
            p++;
        errno = 0;
        v = strtoull(p, &end, 0);
        if (end == p || errno || v > 0xffffffffu)
            return mp_error(l->name, "%s failed: \"%s\"", what, shown(o->reply));
        words[i] = (uint32_t)v;
        p = end;
    }
    while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '}')
        p++;
    if (*p)
        return mp_error(l->name, "%s: more values than asked for: \"%s\"", what, shown(o->reply));
    return 0;
}

/* OpenOCD's `reset halt`: the core stops at its reset vector. */
static int ocd_reset(struct mp_link *l)
{
    struct mp_ocd *o = (struct mp_ocd *)l;
    int running = 0;

    if (mp_ocd_command(o, "reset halt", "'reset halt'") < 0 || query_state(o, &running) < 0)
        return -1;
    if (running)
        return mp_error(l->name, "the core runs after 'reset halt'");
    l->running = 0;
    return 0;
}

static const struct mp_link_ops ocd_ops = {ocd_read,  ocd_write,       ocd_halt,       ocd_resume,
                                           ocd_close, ocd_sample_halt, ocd_sample_word, ocd_reset};

int mp_ocd_open(struct mp_ocd *o, const struct mp_endpoint *ep, unsigned timeout_ms)
{
    int running = 0;

    memset(&o->link, 0, sizeof(o->link));
    o->link.ops = &ocd_ops;
    o->reply = NULL;
    o->reply_len = o->reply_cap = 0;
    if (mp_net_connect(&o->net, ep, "OpenOCD Tcl server", timeout_ms) < 0)
        return -1;
    o->link.name = o->net.name;
    o->link.chunk = WORDS_PER_REQUEST * 4;
    if (query_state(o, &running) < 0) {
        ocd_close(&o->link);
        return -1;
    }
    o->link.live_access = 1;
    o->link.running = running;
    o->link.was_running = running;
    return 0;
}

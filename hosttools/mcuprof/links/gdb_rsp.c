#include "gdb_rsp.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "bytes.h"
#include "diag.h"

/* GDB's own default when a server states no PacketSize. */
#define DEFAULT_PACKET_SIZE 400u
/* Bytes of a server's stream that may precede a packet (stray acks, a
 * banner): more than this and it is not speaking the protocol. */
#define MAX_NOISE 256u
/* Acknowledgements ('+', '-') accepted before a packet: a server sends
 * one per packet of ours, a few more after a retransmission. */
#define MAX_ACKS 64u
/* Console output ("O" packets) accepted while waiting for a stop reply. */
#define MAX_CONSOLE_PACKETS 1000u
/* Retransmissions of a packet the other side reported as corrupt. */
#define MAX_RETRIES 3

static int is_special(unsigned char c)
{
    return c == '$' || c == '#' || c == '}' || c == '*';
}

size_t mp_rsp_frame(const char *body, size_t len, char *out)
{
    static const char hex[] = "0123456789abcdef";
    unsigned sum = 0;
    size_t i, n = 0;

    out[n++] = '$';
    for (i = 0; i < len; i++) {
        unsigned char c = (unsigned char)body[i];

        if (is_special(c)) {
            out[n++] = '}';
            sum += '}';
            c ^= 0x20;
        }
        out[n++] = (char)c;
        sum += c;
    }
    out[n++] = '#';
    out[n++] = hex[(sum >> 4) & 0xf];
    out[n++] = hex[sum & 0xf];
    return n;
}

size_t mp_rsp_decode(const char *in, size_t len, char *out, size_t max)
{
    size_t i, n = 0;

    for (i = 0; i < len; i++) {
        unsigned char c = (unsigned char)in[i];

        if (c == '}') {
            if (++i == len)
                return (size_t)-1;
            c = (unsigned char)in[i] ^ 0x20;
        } else if (c == '*') {
            /* "x*N": N - 29 more copies of the previous character. */
            unsigned count;

            if (n == 0 || ++i == len || (unsigned char)in[i] < 29 + 3)
                return (size_t)-1;
            count = (unsigned char)in[i] - 29u;
            if (n + count > max)
                return (size_t)-1;
            memset(out + n, out[n - 1], count);
            n += count;
            continue;
        }
        if (n == max)
            return (size_t)-1;
        out[n++] = (char)c;
    }
    return n;
}

/* Show the start of a reply in a message: printable, quoted, shortened. */
static const char *shown(const char *s, size_t len)
{
    static char buf[48];
    size_t i, n = 0;

    for (i = 0; i < len && n < sizeof(buf) - 4; i++)
        buf[n++] = (s[i] >= 0x20 && s[i] < 0x7f) ? s[i] : '?';
    if (i < len) {
        buf[n++] = '.';
        buf[n++] = '.';
        buf[n++] = '.';
    }
    buf[n] = '\0';
    return buf;
}

/* Send one request; REPLY: whether a reply packet will follow (a
 * continue has none until the core stops). */
static int send_frame(struct mp_rsp *r, const char *body, size_t len, int reply, const char *what)
{
    static char wire[2 * MP_RSP_MAX_PACKET + 8];
    size_t n;
    int tries, c;

    if (len > MP_RSP_MAX_PACKET)
        return mp_error(r->link.name, "request for %s too long (%zu bytes)", what, len);
    n = mp_rsp_frame(body, len, wire);
    for (tries = 0;; tries++) {
        if (mp_net_send(&r->net, wire, n) < 0)
            return -1;
        if (!r->ack_mode)
            return 0;
        c = mp_net_getc(&r->net, what);
        if (c < 0 && r->net.abandoned && !reply) {
            /* the request is the server's; only its '+' is still owed */
            r->net.abandoned = 0;
            r->ack_owed = 1;
        }
        if (c < 0)
            return -1;
        if (c == '+')
            return 0;
        if (c != '-') {
            /* A server that replies without acknowledging: keep the byte. */
            r->net.start--;
            return 0;
        }
        if (tries == MAX_RETRIES)
            return mp_error(r->link.name, "the server rejected %s %d times (bad checksum)", what,
                            MAX_RETRIES + 1);
    }
}

static int is_stop_reply(const struct mp_rsp *r)
{
    return r->reply_len >= 3 && (r->reply[0] == 'S' || r->reply[0] == 'T') &&
           mp_hex_digit(r->reply[1]) >= 0 && mp_hex_digit(r->reply[2]) >= 0;
}

/* Receive one packet into r->reply. */
static int recv_packet(struct mp_rsp *r, const char *what)
{
    static char raw[2 * MP_RSP_MAX_PACKET + 2];
    char noise[MAX_NOISE];
    size_t nnoise = 0, nacks = 0, n, decoded;
    int tries, c, hi, lo;
    unsigned sum;

    for (tries = 0;; tries++) {
        for (;;) {
            /* After noise, silence means garbage, not a slow server. */
            if (nnoise)
                mp_diag_quiet(1);
            c = mp_net_getc(&r->net, what);
            if (nnoise)
                mp_diag_quiet(0);
            /* the noise was the answer: nothing more is owed */
            if (c < 0 && nnoise)
                r->net.abandoned = 0;
            if (c < 0 && nnoise)
                return mp_error(r->link.name,
                                "garbage instead of a reply to %s: \"%s\" (not a GDB server?)",
                                what, shown(noise, nnoise));
            if (c < 0)
                return -1;
            if (c == '$')
                break;
            if ((c == '+' || c == '-') && ++nacks <= MAX_ACKS)
                continue;
            if (nacks > MAX_ACKS)
                return mp_error(r->link.name,
                                "%u acknowledgements ('+', '-') and no reply to %s (not a GDB "
                                "server?)", MAX_ACKS + 1, what);
            noise[nnoise++] = (char)c;
            if (nnoise == MAX_NOISE)
                return mp_error(r->link.name,
                                "garbage instead of a reply to %s: \"%s\" (not a GDB server?)",
                                what, shown(noise, nnoise));
        }
        n = 0;
        sum = 0;
        r->in_packet = 1;
        r->packet_first = 0;
        for (;;) {
            c = mp_net_getc(&r->net, what);
            if (c < 0)
                return -1;
            if (c == '#')
                break;
            if (c == '$' || n == sizeof(raw))
                return mp_error(r->link.name, "garbled reply to %s: \"%s\"", what, shown(raw, n));
            if (n == 0)
                r->packet_first = (char)c;
            raw[n++] = (char)c;
            sum += (unsigned char)c;
        }
        hi = mp_net_getc(&r->net, what);
        lo = hi < 0 ? -1 : mp_net_getc(&r->net, what);
        if (lo < 0)
            return -1;
        r->in_packet = 0;
        if (mp_hex_digit(hi) < 0 || mp_hex_digit(lo) < 0 ||
            (unsigned)(mp_hex_digit(hi) * 16 + mp_hex_digit(lo)) != (sum & 0xffu)) {
            if (!r->ack_mode || tries == MAX_RETRIES)
                return mp_error(r->link.name, "bad checksum in the reply to %s: \"%s\"", what,
                                shown(raw, n));
            if (mp_net_send(&r->net, "-", 1) < 0)
                return -1;
            continue;
        }
        break;
    }
    decoded = mp_rsp_decode(raw, n, r->reply, MP_RSP_MAX_PACKET);
    r->reply_len = decoded == (size_t)-1 ? 0 : decoded;
    r->reply[r->reply_len] = '\0';
    /* A stop reply says the core stopped, whatever comes next: a signal
     * that cuts the acknowledgement short must not leave the core taken
     * for running (an interrupt then gets no answer). */
    if (is_stop_reply(r))
        r->link.running = 0;
    if (r->ack_mode && mp_net_send(&r->net, "+", 1) < 0)
        return -1;
    if (decoded == (size_t)-1)
        return mp_error(r->link.name, "malformed run-length encoding in the reply to %s: \"%s\"",
                        what, shown(raw, n));
    return 0;
}


/* The answer to a request given up (net.abandoned) may still come: take
 * it off the stream, within one answer's time, so that it is not taken
 * for the next request's answer; that request then gets its own time. A
 * stop reply says the core stopped after all. */
static int resync(struct mp_rsp *r)
{
    static const char what[] = "the late answer to an abandoned request";
    int c;

    if (r->ack_owed) {
        /* a continue whose '+' a signal cut short: take the '+'; a stop
         * reply coming first is left for the next reply's reader */
        r->ack_owed = 0;
        mp_net_begin(&r->net);
        c = mp_net_getc(&r->net, "the acknowledgement of an earlier continue");
        if (c < 0)
            return -1;
        if (c == '$')
            r->net.start--;
        else if (c != '+')
            return mp_error(r->link.name, "'%c' instead of the acknowledgement of an earlier continue", c);
        mp_net_begin(&r->net);
    }
    if (!r->net.abandoned)
        return 0;
    r->net.abandoned = 0;
    if (r->in_packet) {
        /* the packet's first byte says whether it is a stop reply: a
         * signal in the wait for one must not leave the core taken for
         * running (a second interrupt would get no answer) */
        char first = r->packet_first;

        while ((c = mp_net_getc(&r->net, what)) != '#') {
            if (c < 0)
                return -1;
            if (!first)
                first = (char)c;
        }
        if (mp_net_getc(&r->net, what) < 0 || mp_net_getc(&r->net, what) < 0)
            return -1;
        r->in_packet = 0;
        if (first == 'T' || first == 'S')
            r->link.running = 0;
        if (r->ack_mode && mp_net_send(&r->net, "+", 1) < 0)
            return -1;
    } else {
        if (recv_packet(r, what) < 0)
            return -1;
        if (is_stop_reply(r))
            r->link.running = 0;
    }
    mp_net_begin(&r->net);
    return 0;
}

int mp_rsp_command(struct mp_rsp *r, const char *body, size_t len, const char *what)
{
    int skipped = 0;

    mp_net_begin(&r->net);
    if (resync(r) < 0 || send_frame(r, body, len, 1, what) < 0 || recv_packet(r, what) < 0)
        return -1;
    /* A stop reply is never the answer to anything but '?': it reports a
     * stop the server owed an earlier client that had continued the core
     * (QEMU sends one when the next client attaches). */
    while (body[0] != '?' && is_stop_reply(r) && skipped++ < 4) {
        r->link.running = 0;
        if (recv_packet(r, what) < 0)
            return -1;
    }
    /* "W" or "X" with an exit code: the program ended (QEMU sends one as
     * it quits), whatever was asked; no other reply looks like that. */
    if (body[0] != '?' && r->reply_len >= 3 && (r->reply[0] == 'W' || r->reply[0] == 'X') &&
        mp_hex_digit(r->reply[1]) >= 0 && mp_hex_digit(r->reply[2]) >= 0 &&
        (r->reply_len == 3 || r->reply[3] == ';')) {
        r->link.running = 0;
        return mp_error(r->link.name, "the program has exited (%s) while waiting for %s",
                        shown(r->reply, r->reply_len), what);
    }
    return 0;
}

static int is_error_reply(const struct mp_rsp *r)
{
    return r->reply_len == 3 && r->reply[0] == 'E' && mp_hex_digit(r->reply[1]) >= 0 &&
           mp_hex_digit(r->reply[2]) >= 0;
}

/* Wait for a stop reply, skipping console output ("O" + hex), within the
 * deadline of the request that stops the core. */
static int wait_stop(struct mp_rsp *r, const char *what)
{
    unsigned console = 0;

    for (;;) {
        if (recv_packet(r, what) < 0)
            return -1;
        /* "O" alone is console output too, of nothing (OpenOCD sends
         * one for an empty log line while the core runs); "OK" is not */
        if (r->reply[0] == 'O' && (r->reply_len == 1 || mp_hex_digit(r->reply[1]) >= 0)) {
            if (++console > MAX_CONSOLE_PACKETS)
                return mp_error(r->link.name, "%u console output packets and no stop reply: "
                                "waiting for %s", MAX_CONSOLE_PACKETS, what);
            continue;
        }
        if (r->reply[0] == 'S' || r->reply[0] == 'T')
            return 0;
        if (r->reply[0] == 'W' || r->reply[0] == 'X')
            return mp_error(r->link.name, "the program has exited (%s)",
                            shown(r->reply, r->reply_len));
        return mp_error(r->link.name, "unexpected reply to %s: \"%s\"", what,
                        shown(r->reply, r->reply_len));
    }
}

static void parse_supported(struct mp_rsp *r)
{
    char *feature = r->reply, *next;

    for (; feature && *feature; feature = next) {
        next = strchr(feature, ';');
        if (next)
            *next++ = '\0';
        if (strncmp(feature, "PacketSize=", 11) == 0) {
            unsigned long long v = 0;
            const char *p;

            for (p = feature + 11; mp_hex_digit(*p) >= 0 && v < MP_RSP_MAX_PACKET; p++)
                v = v * 16 + (unsigned)mp_hex_digit(*p);
            if (v >= 64)
                r->packet_size = v > MP_RSP_MAX_PACKET ? MP_RSP_MAX_PACKET : (size_t)v;
        } else if (strcmp(feature, "QStartNoAckMode+") == 0) {
            r->ack_mode = 2; /* offered: switched below */
        }
    }
}

static int rsp_read(struct mp_link *l, uint64_t addr, uint8_t *buf, size_t len)
{
    struct mp_rsp *r = (struct mp_rsp *)l;
    /* A reply carries two hex digits per byte. */
    size_t max = r->packet_size / 2;

    while (len > 0) {
        size_t want = len < max ? len : max, got, i;
        char what[64];
        int n;

        n = snprintf(r->request, sizeof(r->request), "m%" PRIx64 ",%zx", addr, want);
        snprintf(what, sizeof(what), "'%.40s'", r->request);
        if (mp_rsp_command(r, r->request, (size_t)n, what) < 0)
            return -1;
        if (is_error_reply(r))
            return mp_error(l->name, "error reply %s to %s: the server cannot read %zu bytes at 0x%" PRIx64,
                            r->reply, what, want, addr);
        got = r->reply_len / 2;
        if (r->reply_len == 0 || r->reply_len % 2 || got > want)
            return mp_error(l->name, "garbage reply to %s: \"%s\"", what,
                            shown(r->reply, r->reply_len));
        for (i = 0; i < got; i++) {
            int hi = mp_hex_digit(r->reply[2 * i]), lo = mp_hex_digit(r->reply[2 * i + 1]);

            if (hi < 0 || lo < 0)
                return mp_error(l->name, "garbage reply to %s: \"%s\"", what,
                                shown(r->reply, r->reply_len));
            buf[i] = (uint8_t)(hi * 16 + lo);
        }
        /* A server may return fewer bytes than asked: go on from there. */
        buf += got;
        addr += got;
        len -= got;
    }
    return 0;
}

static int expect_ok(struct mp_rsp *r, const char *what, uint64_t addr, size_t len)
{
    if (is_error_reply(r))
        return mp_error(r->link.name, "error reply %s to %s: the server cannot write %zu bytes at 0x%" PRIx64,
                        r->reply, what, len, addr);
    if (strcmp(r->reply, "OK") != 0)
        return mp_error(r->link.name, "garbage reply to %s: \"%s\"", what,
                        shown(r->reply, r->reply_len));
    return 0;
}

/* X packets carry bytes as they are (escaped), half the size of M's hex;
 * the first write asks with an empty X whether the server knows them. */
static int probe_binary(struct mp_rsp *r, uint64_t addr)
{
    int n = snprintf(r->request, sizeof(r->request), "X%" PRIx64 ",0:", addr);

    if (mp_rsp_command(r, r->request, (size_t)n, "an empty 'X' (binary write) probe") < 0)
        return -1;
    r->binary_write = strcmp(r->reply, "OK") == 0 ? 1 : -1;
    return 0;
}

static int rsp_write(struct mp_link *l, uint64_t addr, const uint8_t *buf, size_t len)
{
    static const char hex[] = "0123456789abcdef";
    struct mp_rsp *r = (struct mp_rsp *)l;

    if (r->binary_write == 0 && probe_binary(r, addr) < 0)
        return -1;
    while (len > 0) {
        /* Room for "Xaddr,len:" (at most 27 characters), then the data:
         * one byte each for X (two when escaped), two hex digits for M. */
        size_t room = r->packet_size - 32, n = 0, cost = 0, hdr, i;
        char what[48];

        while (n < len) {
            size_t c = r->binary_write > 0 ? (is_special(buf[n]) ? 2u : 1u) : 2u;

            if (cost + c > room)
                break;
            cost += c;
            n++;
        }
        hdr = (size_t)snprintf(r->request, sizeof(r->request), "%c%" PRIx64 ",%zx:",
                               r->binary_write > 0 ? 'X' : 'M', addr, n);
        snprintf(what, sizeof(what), "'%.*s' (%zu bytes)", (int)(hdr - 1), r->request, n);
        for (i = 0; i < n; i++) {
            if (r->binary_write > 0) {
                r->request[hdr + i] = (char)buf[i];
            } else {
                r->request[hdr + 2 * i] = hex[buf[i] >> 4];
                r->request[hdr + 2 * i + 1] = hex[buf[i] & 15];
            }
        }
        if (mp_rsp_command(r, r->request, hdr + (r->binary_write > 0 ? n : 2 * n), what) < 0 ||
            expect_ok(r, what, addr, n) < 0)
            return -1;
        buf += n;
        addr += n;
        len -= n;
    }
    return 0;
}

static int rsp_halt(struct mp_link *l)
{
    struct mp_rsp *r = (struct mp_rsp *)l;
    static const char interrupt = 0x03;

    if (!l->running)
        return 0;
    /* The interrupt is a bare byte, outside any packet; the stop reply
     * must follow within one answer's time. */
    mp_net_begin(&r->net);
    if (resync(r) < 0)
        return -1;
    if (!l->running)
        return 0;
    if (mp_net_send(&r->net, &interrupt, 1) < 0 ||
        wait_stop(r, "the stop reply after an interrupt (0x03)") < 0)
        return -1;
    l->running = 0;
    return 0;
}

static int rsp_resume(struct mp_link *l)
{
    struct mp_rsp *r = (struct mp_rsp *)l;

    if (l->running)
        return 0;
    /* No reply until the core stops again. */
    mp_net_begin(&r->net);
    if (resync(r) < 0)
        return -1;
    if (r->vcont ? send_frame(r, "vCont;c", 7, 0, "'vCont;c'") < 0 : send_frame(r, "c", 1, 0, "'c'") < 0) {
        /* sent, its acknowledgement cut short: the core runs */
        if (r->ack_owed)
            l->running = 1;
        return -1;
    }
    l->running = 1;
    return 0;
}

/* The value of register REG in a stop reply's "T" packet ("nn:value;"
 * pairs), or -1 when the reply does not carry it (QEMU's carry none). */
static int reg_in_stop_reply(const struct mp_rsp *r, unsigned reg, const char **value)
{
    const char *p = r->reply + 3;

    if (r->reply[0] != 'T')
        return -1;
    while (*p) {
        const char *colon = strchr(p, ':'), *semi;
        unsigned long n = 0;
        const char *q;
        int number = colon != NULL && colon > p;

        if (!colon)
            return -1;
        for (q = p; q < colon && number; q++) {
            if (mp_hex_digit(*q) < 0 || n > 0xffff)
                number = 0;
            else
                n = n * 16 + (unsigned)mp_hex_digit(*q);
        }
        if (number && n == reg) {
            *value = colon + 1;
            return 0;
        }
        semi = strchr(colon, ';');
        if (!semi)
            return -1;
        p = semi + 1;
    }
    return -1;
}

/* A register's value as the protocol sends it: its bytes in the target's
 * order, two hex digits each, up to ';' or the end. */
static int parse_reg(const struct mp_rsp *r, const char *hex, uint64_t *v, const char *what)
{
    size_t n = 0;
    unsigned i;

    while (hex[n] && hex[n] != ';')
        n++;
    if (n == 0 || n % 2 || n > 16)
        return mp_error(r->link.name, "%s: \"%s\" is not a register value", what, shown(hex, n));
    *v = 0;
    for (i = 0; i < n / 2; i++) {
        int hi = mp_hex_digit(hex[2 * i]), lo = mp_hex_digit(hex[2 * i + 1]);

        if (hi < 0 || lo < 0)
            return mp_error(r->link.name, "%s: \"%s\" is not a register value (unavailable?)", what,
                            shown(hex, n));
        if (r->link.big)
            *v = *v << 8 | (uint64_t)(hi * 16 + lo);
        else
            *v |= (uint64_t)(hi * 16 + lo) << (8 * i);
    }
    return 0;
}

/* Stop, read the pc (from the stop reply when it carries it, else 'p'),
 * continue: the halting sampler OpenOCD's `profile` uses on a core
 * without a PC sample register, over any GDB server. */
static int rsp_sample_halt(struct mp_link *l, unsigned pc_reg, uint64_t *pc, uint64_t *stopped_us)
{
    struct mp_rsp *r = (struct mp_rsp *)l;
    const char *value;
    uint64_t t_stop;
    char what[48];
    int n;

    if (l->running && rsp_halt(l) < 0)
        return -1;
    t_stop = mp_now_us();
    if (reg_in_stop_reply(r, pc_reg, &value) == 0) {
        if (parse_reg(r, value, pc, "the pc in the stop reply") < 0)
            return -1;
    } else {
        if (!r->no_p) {
            n = snprintf(r->request, sizeof(r->request), "p%x", pc_reg);
            snprintf(what, sizeof(what), "'%.16s' (the pc)", r->request);
            if (mp_rsp_command(r, r->request, (size_t)n, what) < 0)
                return -1;
            r->no_p = r->reply_len == 0;
        }
        if (r->no_p) {
            /* 'g': every register in GDB's order, the pc at its number
             * times the register width on the cores mcuprof knows */
            size_t width = 2u * (l->reg_bytes ? l->reg_bytes : 4u), at = pc_reg * width;

            snprintf(what, sizeof(what), "'g' (the registers, for the pc)");
            if (mp_rsp_command(r, "g", 1, what) < 0)
                return -1;
            if (is_error_reply(r) || r->reply_len < at + width)
                return mp_error(l->name, "the server cannot read register %u (the pc): reply \"%s\" to %s", pc_reg,
                                shown(r->reply, r->reply_len), what);
            r->reply[at + width] = '\0';
            if (parse_reg(r, r->reply + at, pc, what) < 0)
                return -1;
        } else {
            if (is_error_reply(r))
                return mp_error(l->name, "the server cannot read register %u (the pc): reply \"%s\" to %s", pc_reg,
                                shown(r->reply, r->reply_len), what);
            if (parse_reg(r, r->reply, pc, what) < 0)
                return -1;
        }
    }
    if (rsp_resume(l) < 0)
        return -1;
    *stopped_us = mp_now_us() - t_stop;
    return 0;
}

int mp_rsp_until_stop(struct mp_rsp *r, const char *body, size_t len, const char *what)
{
    mp_net_begin(&r->net);
    if (resync(r) < 0 || (body && send_frame(r, body, len, 1, what) < 0) || wait_stop(r, what) < 0)
        return -1;
    r->link.running = 0;
    return 0;
}

static void rsp_close(struct mp_link *l)
{
    struct mp_rsp *r = (struct mp_rsp *)l;

    /* Continue a core that ran before; closing the connection while it
     * runs leaves it running (the server has no client to stop for). */
    if (l->was_running && !l->running && r->net.fd >= 0) {
        /* an error here follows the one already reported, if any */
        mp_diag_quiet(1);
        rsp_resume(l);
        mp_diag_quiet(0);
    }
    mp_net_close(&r->net);
}

/* "monitor reset halt": qRcmd with the command in hex; the server's
 * console output ("O" + hex) may come before its "OK". A server without
 * monitor commands answers "" (or an error); QEMU's gdbstub passes the
 * command to its own monitor, which has no `reset` and says so in its
 * output. */
static int rsp_reset(struct mp_link *l)
{
    static const char cmd[] = "reset halt";
    struct mp_rsp *r = (struct mp_rsp *)l;
    char body[64], said[256];
    size_t i, n = (size_t)snprintf(body, sizeof(body), "qRcmd,"), nsaid = 0;
    unsigned packets = 0;

    if (rsp_halt(l) < 0)
        return -1;
    for (i = 0; cmd[i]; i++)
        n += (size_t)snprintf(body + n, sizeof(body) - n, "%02x", (unsigned char)cmd[i]);
    if (mp_rsp_command(r, body, n, "the answer to 'monitor reset halt'") < 0)
        return -1;
    while (r->reply[0] == 'O' && r->reply_len > 1 && mp_hex_digit(r->reply[1]) >= 0 && packets++ < 256) {
        for (i = 1; i + 1 < r->reply_len && nsaid + 1 < sizeof(said); i += 2) {
            int hi = mp_hex_digit(r->reply[i]), lo = mp_hex_digit(r->reply[i + 1]);

            if (hi < 0 || lo < 0)
                break;
            said[nsaid++] = (char)(hi << 4 | lo) == '\n' ? ' ' : (char)(hi << 4 | lo);
        }
        if (recv_packet(r, "the answer to 'monitor reset halt'") < 0)
            return -1;
    }
    while (nsaid && (said[nsaid - 1] == ' ' || said[nsaid - 1] == '\r'))
        nsaid--;
    said[nsaid] = '\0';
    if (r->reply_len == 0)
        return mp_error(l->name, "the GDB server has no monitor command to reset the core");
    if (strstr(said, "nknown command"))
        return mp_error(l->name, "the GDB server's monitor has no 'reset halt' (QEMU's gdbstub has no reset): it "
                                 "answered \"%s\"", said);
    if (strcmp(r->reply, "OK") != 0 || strstr(said, "rror"))
        return mp_error(l->name, "the GDB server did not reset the core: 'monitor reset halt' answered \"%s\"%s%s%s",
                        shown(r->reply, r->reply_len), nsaid ? " after \"" : "", said, nsaid ? "\"" : "");
    l->running = 0;
    return 0;
}

static const struct mp_link_ops rsp_ops = {rsp_read,  rsp_write,       rsp_halt, rsp_resume,
                                           rsp_close, rsp_sample_halt, NULL,     rsp_reset};

int mp_rsp_open(struct mp_rsp *r, const struct mp_endpoint *ep, unsigned timeout_ms)
{
    static const char supported[] = "qSupported:swbreak+;hwbreak+";

    memset(&r->link, 0, sizeof(r->link));
    r->link.ops = &rsp_ops;
    r->ack_mode = 1;
    r->vcont = 0;
    r->binary_write = 0;
    r->no_p = 0;
    r->in_packet = 0;
    r->ack_owed = 0;
    r->packet_size = DEFAULT_PACKET_SIZE;
    if (mp_net_connect(&r->net, ep, "GDB server", timeout_ms) < 0)
        return -1;
    r->link.name = r->net.name;
    /* GDB starts with an acknowledgement, which also flushes a server
     * waiting for one. */
    if (mp_net_send(&r->net, "+", 1) < 0 ||
        mp_rsp_command(r, supported, sizeof(supported) - 1, "'qSupported'") < 0)
        goto fail;
    parse_supported(r);
    if (r->ack_mode == 2) {
        r->ack_mode = 1;
        if (mp_rsp_command(r, "QStartNoAckMode", 15, "'QStartNoAckMode'") < 0)
            goto fail;
        if (strcmp(r->reply, "OK") == 0)
            r->ack_mode = 0;
    }
    if (mp_rsp_command(r, "vCont?", 6, "'vCont?'") < 0)
        goto fail;
    r->vcont = strncmp(r->reply, "vCont", 5) == 0 && strstr(r->reply, ";c") != NULL;
    if (mp_rsp_command(r, "?", 1, "'?' (why the core stopped)") < 0)
        goto fail;
    if (r->reply[0] == 'W' || r->reply[0] == 'X') {
        mp_error(r->link.name, "the program has exited (%s)", shown(r->reply, r->reply_len));
        goto fail;
    }
    if (r->reply[0] != 'S' && r->reply[0] != 'T') {
        mp_error(r->link.name, "unexpected reply to '?': \"%s\" (not a GDB server?)",
                 shown(r->reply, r->reply_len));
        goto fail;
    }
    /* In all-stop mode memory is reachable only while the core is stopped,
     * and every GDB server stops the core when a client attaches; nothing
     * tells whether it ran before, and a profiled firmware normally does:
     * the core is continued when the link closes. */
    r->link.chunk = r->packet_size / 2;
    r->link.live_access = 0;
    r->link.running = 0;
    r->link.was_running = 1;
    return 0;
fail:
    mp_net_close(&r->net);
    return -1;
}

/*
 * fuzz_seeds.c - write the seed corpus of the fuzz targets (make_corpus.sh
 * runs it):
 *
 *   fuzz_seeds CORPUS_DIR [ELF...]
 *
 * image  images with every extension table kind (contexts, tasks, call
 *        paths of both kinds, spill, late samples, blockers, held-off
 *        samples), both byte orders and address widths, a task name with
 *        terminal escapes, the sampler's timing
 * gmon   each image's model as GNU gmon.out (with a basic-block record
 *        too: every record tag) and as BSD
 * json   each image's model as a document, and each ELF's with its
 *        functions and source lines
 * rsp    a simulated GDB server's answers to every scenario of fuzz_link.c
 *        (serving the first image at FUZZ_LINK_IMAGE_ADDR): with and
 *        without acknowledgements, run-length encoded and not, binary
 *        writes and hex ones, a stale stop reply, console output, a bad
 *        checksum answered again, an error reply
 * ocd    a simulated OpenOCD Tcl server's answers to the same: hex and
 *        decimal words, a running and a halted core, a failed read
 *
 * Every seed is checked: an image and a document must be accepted, and a
 * scenario recorded from a simulated server without a fault must succeed.
 */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "elf_funcs.h"
#include "fuzz_common.h"
#include "fuzz_link.h"
#include "gdb_rsp.h"
#include "gmon_write.h"
#include "image_builder.h"
#include "mem_net.h"
#include "profile.h"

#define EM_ARM 40u
#define EM_RISCV 243u

static const char *corpus;

/* The tool's objects here are built for the mutation loop's coverage
 * (fuzz_driver.c counts it); this program counts nothing. */
void __sanitizer_cov_trace_pc(void);
void __sanitizer_cov_trace_pc(void) {}

static void put_file(const char *kind, const char *name, const void *data, size_t len)
{
    char path[4096];
    FILE *f;

    snprintf(path, sizeof(path), "%s/%s/%s", corpus, kind, name);
    f = fopen(path, "wb");
    if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0) {
        fprintf(stderr, "fuzz_seeds: cannot write %s\n", path);
        exit(1);
    }
}

static void fail(const char *what)
{
    fprintf(stderr, "fuzz_seeds: %s: %s\n", what, mp_last_error());
    exit(1);
}

/* ---- images ---- */

static const uint32_t bins0[64] = {0, 3, 9, 1, 0, 0, 40, 2, 7, 7, 7, 7, 0, 1, 0, 200};
static const uint32_t bins1[16] = {5, 0, 0, 1, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9};

/* Every table tb_build knows, at FUZZ_LINK_IMAGE_ADDR; TASK_PATHS: the
 * path table of kind 8 (with tasks and contexts), else of kind 3. */
static void describe(struct tb_image *d, int big, unsigned ptr_size, uint16_t machine, int task_paths)
{
    static const struct tb_arc arcs[3] = {
        {0x1010, 0x1041, 5}, {0x1044, 0x1081, 7000}, {0x8004, 0x1041, 0xffffffffu}};
    static const struct tb_path paths[3] = {
        {10, 2, 0, {0x1041, 0x1081}},
        {4, 3, MCUPROF_PATH_GAP, {0x1041, 0, 0x1081}},
        {2, 1, MCUPROF_PATH_CUT, {0x8001}}};
    static const uint16_t path_tasks[3] = {0, 1, MCUPROF_PATH_NO_TASK};
    static const uint32_t path_contexts[3] = {MCUPROF_CTX_THREAD, MCUPROF_CTX_ARM_EXCEPTION | 15,
                                              MCUPROF_PATH_NO_CONTEXT};
    static const char *const task_names[3] = {"idle", NULL, "net\x1b]0;x\a\x1b[31m"};
    static const struct tb_late late[2] = {{0x1044, 3, 1}, {0x8008, 1, 0}};
    static const struct tb_blocker arm_blockers[1] = {{MCUPROF_CTX_ARM_EXCEPTION | 19, 0x40, 0x80, 1}};
    static const struct tb_blocker rv_blockers[1] = {{MCUPROF_CTX_RV_INTERRUPT | 11, 1, 7, 0}};
    static const struct tb_spill spill[1] = {{0, 15, 1}};
    static const uint8_t build_id[20] = {0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4, 5, 6,
                                         7, 8, 9, 10, 11, 12, 13, 14, 15, 16};

    tb_arm(d);
    d->big = big;
    d->ptr_size = ptr_size;
    d->machine = machine;
    d->image_addr = FUZZ_LINK_IMAGE_ADDR;
    d->build_id = build_id;
    d->build_id_len = sizeof(build_id);
    d->nranges = 2;
    d->ranges[0].low = 0x1000;
    d->ranges[0].nbins = 64;
    d->ranges[0].bins = bins0;
    d->ranges[1].low = 0x8000;
    d->ranges[1].nbins = 16;
    d->ranges[1].bins = bins1;
    d->narcs = 3;
    d->arcs = arcs;
    d->lost[0] = 1;
    d->lost[3] = 2;
    d->generation = 3;
    d->samples_taken = 70000;
    d->samples_exact = 1;
    d->missed_periods = 6;
    d->timer_period = 48000;
    d->missed_source = 1;
    d->jitter_percent = 3;
    d->path_depth_max = 4;
    d->npaths = 3;
    d->paths = paths;
    d->paths_lost = 1;
    d->paths_invalid = 4;
    d->task_paths = task_paths;
    d->path_tasks = task_paths ? path_tasks : NULL;
    d->path_contexts = task_paths ? path_contexts : NULL;
    d->ntasks = 3;
    d->task_names = task_names;
    d->timing_flags = 1;
    d->deferred_samples = 2;
    d->has_late = d->has_blockers = d->has_held = 1;
    d->nlate = 2;
    d->late = late;
    d->nblockers = 1;
    d->blockers = machine == EM_RISCV ? rv_blockers : arm_blockers;
    d->late_lost = 1;
    d->held.samples = 3;
    d->held.periods = 4;
    d->held.threshold = 100;
    d->held.scans = 7;
    d->spill_capacity = 4;
    d->nspill = 1;
    d->spill = spill;
}

/* Build D into BUF and put a context table (kind 1, which tb_build does
 * not write) where its end marker was. Returns the size. */
static size_t build_with_contexts(const struct tb_image *d, uint8_t *buf, size_t cap)
{
    static const uint32_t ctx[4][2] = {{MCUPROF_CTX_THREAD, 10},
                                       {MCUPROF_CTX_IDLE, 5},
                                       {MCUPROF_CTX_ARM_EXCEPTION | 15, 3},
                                       {MCUPROF_CTX_HOOK, 1}};
    size_t len = tb_build(d, buf, cap), at, i;

    if (len == 0 || len + 24 + 32 > cap)
        fail("tb_build");
    at = len - 8; /* the end marker */
    memset(buf + at, 0, 24 + 32 + 8);
    tb_put16(buf, at + TB_EXT_KIND, MCUPROF_EXT_CONTEXTS, d->big);
    tb_put16(buf, at + TB_EXT_ENTRY_SIZE, 8, d->big);
    tb_put32(buf, at + TB_EXT_SIZE, 24 + 32, d->big);
    tb_put32(buf, at + TB_EXT_CAPACITY, 4, d->big);
    tb_put32(buf, at + TB_EXT_USED, 4, d->big);
    tb_put32(buf, at + TB_EXT_LOST, 1, d->big);
    for (i = 0; i < 4; i++) {
        tb_put32(buf, at + 24 + 8 * i, ctx[i][0], d->big);
        tb_put32(buf, at + 24 + 8 * i + 4, ctx[i][1], d->big);
    }
    len += 24 + 32;
    tb_put32(buf, TB_OFF_IMAGE_SIZE, (uint32_t)len, d->big);
    return len;
}

struct seed_image {
    const char *name;
    int big, task_paths;
    unsigned ptr_size;
    uint16_t machine;
    uint8_t data[4096];
    size_t len;
};

static struct seed_image images[] = {
    {"all-kinds-arm.image", 0, 0, 4, EM_ARM, {0}, 0},
    {"all-kinds-task-paths-arm.image", 0, 1, 4, EM_ARM, {0}, 0},
    {"all-kinds-be.image", 1, 1, 4, EM_ARM, {0}, 0},
    {"all-kinds-rv64.image", 0, 1, 8, EM_RISCV, {0}, 0},
};

#define NIMAGES (sizeof(images) / sizeof(images[0]))

/* The model of image I, checked. */
static void image_model(struct mp_model *m, const struct seed_image *s)
{
    struct mp_image img;

    if (mp_image_parse(&img, s->name, s->data, s->len) < 0 || mp_model_from_image(m, &img) < 0)
        fail(s->name);
    if (!m->has_contexts || !m->has_tasks || !m->has_paths || !m->has_late || !m->has_blockers ||
        !m->tables.has_spill) {
        fprintf(stderr, "fuzz_seeds: %s lacks a table\n", s->name);
        exit(1);
    }
}

/* ---- gmon.out and documents ---- */

static void put_gmons(const char *stem, const struct mp_model *m)
{
    static const enum mp_gmon_format formats[2] = {MP_GMON_GNU, MP_GMON_BSD};
    struct mp_profile p;
    unsigned i;

    if (mp_profile_prepare(&p, m) < 0)
        fail(stem);
    for (i = 0; i < 2; i++) {
        char *buf = NULL, name[256];
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);

        if (!f || mp_gmon_write(&p, formats[i], f) < 0 || fclose(f) != 0)
            fail(stem);
        snprintf(name, sizeof(name), "%s-%s.gmon", stem, i ? "bsd" : "gnu");
        put_file("gmon", name, buf, len);
        if (i == 0) {
            /* the basic-block record (tag 2) after the others: two pairs */
            unsigned ps = m->ptr_size, k;
            uint8_t bb[5 + 4 * 8] = {2};
            size_t n = 5;

            tb_put32(bb, 1, 2, m->big);
            for (k = 0; k < 4; k++) {
                if (ps == 8)
                    tb_put64(bb, n, k % 2 ? k : 0x1000 + 4 * k, m->big);
                else
                    tb_put32(bb, n, k % 2 ? k : 0x1000 + 4 * k, m->big);
                n += ps;
            }
            buf = realloc(buf, len + n);
            if (!buf)
                abort();
            memcpy(buf + len, bb, n);
            snprintf(name, sizeof(name), "%s-gnu-bb.gmon", stem);
            put_file("gmon", name, buf, len + n);
        }
        free(buf);
    }
    mp_profile_free(&p);
}

static void put_json(const char *stem, const struct mp_model *m)
{
    char name[256];
    size_t len;
    char *doc = fuzz_json_of(m, &len);
    struct mp_model back;

    if (!doc || mp_model_from_json(&back, stem, (const uint8_t *)doc, len) < 0)
        fail(stem);
    mp_model_free(&back);
    snprintf(name, sizeof(name), "%s.json", stem);
    put_file("json", name, doc, len);
    free(doc);
}

/* The document of ELF's model: functions and source lines. */
static void put_elf_json(const char *elf, unsigned k)
{
    static uint8_t buf[16384];
    struct mp_functab tab;
    struct mp_image img;
    struct mp_model m;
    size_t len;
    char stem[32];

    if (mp_functab_read(&tab, elf) < 0)
        fail(elf);
    len = fuzz_image_for_elf(&tab, buf, sizeof(buf));
    mp_functab_free(&tab);
    if (len == 0 || mp_image_parse(&img, elf, buf, len) < 0 || mp_model_from_image(&m, &img) < 0 ||
        mp_model_attach_elf(&m, elf) < 0 || mp_model_attach_lines(&m) < 0)
        fail(elf);
    if (m.nlines == 0) {
        fprintf(stderr, "fuzz_seeds: %s: no source lines\n", elf);
        exit(1);
    }
    snprintf(stem, sizeof(stem), "elf%u-lines", k);
    put_json(stem, &m);
    mp_model_free(&m);
}

/* ---- a simulated target: the memory both servers serve ---- */

static uint8_t mem[4096];
static size_t mem_len;

/* Store LEN bytes at ADDR; a new freeze_request is acknowledged at once,
 * as the sampler does at its next tick. */
static int mem_store(uint64_t addr, const uint8_t *b, size_t len)
{
    if (addr < FUZZ_LINK_IMAGE_ADDR || addr - FUZZ_LINK_IMAGE_ADDR > mem_len ||
        len > mem_len - (addr - FUZZ_LINK_IMAGE_ADDR))
        return -1;
    memcpy(mem + (addr - FUZZ_LINK_IMAGE_ADDR), b, len);
    memcpy(mem + TB_OFF_FREEZE_ACK, mem + TB_OFF_FREEZE_REQUEST, 4);
    return 0;
}

static const uint8_t *mem_at(uint64_t addr, size_t len)
{
    if (addr < FUZZ_LINK_IMAGE_ADDR || addr - FUZZ_LINK_IMAGE_ADDR > mem_len ||
        len > mem_len - (addr - FUZZ_LINK_IMAGE_ADDR))
        return NULL;
    return mem + (addr - FUZZ_LINK_IMAGE_ADDR);
}

/* ---- a simulated GDB server ---- */

struct gdb_variant {
    const char *name;
    int no_ack;      /* offers QStartNoAckMode */
    int rle;         /* run-length encodes its replies */
    int binary;      /* takes X packets */
    int vcont;       /* answers vCont? */
    int stale_stop;  /* a stop reply before the first answer (QEMU) */
    int console;     /* console output before a stop reply */
    int bad_sum;     /* the first memory reply with a bad checksum */
    int read_error;  /* E01 to the second memory read */
    unsigned packet_size;
};

static const struct gdb_variant gdb_variants[] = {
    {"noack-rle-binary", 1, 1, 1, 1, 0, 0, 0, 0, 0x4000},
    {"ack-hex-console", 0, 0, 0, 0, 1, 1, 1, 0, 0x100},
    {"read-error", 1, 0, 1, 1, 0, 0, 0, 1, 0x1000},
};

struct gdb_sim {
    const struct gdb_variant *v;
    int ack;
    char in[1 << 17];
    size_t nin;
    char last[2 * MP_RSP_MAX_PACKET + 8]; /* the last packet sent, for '-' */
    size_t nlast;
    unsigned reads;
    int stale_sent, bad_sent;
};

static void answer(const void *data, size_t len)
{
    if (fuzz_net_answer(data, len) < 0) {
        fprintf(stderr, "fuzz_seeds: recording full\n");
        exit(1);
    }
}

/* One run of C, N - 1 more times, as "c*X" where possible: RSP's
 * run-length encoding (never a count of '#' or '$'). */
static size_t rle_run(char *out, char c, size_t n)
{
    size_t o = 0;

    while (n > 0) {
        size_t more = n - 1 > 97 ? 97 : n - 1;

        out[o++] = c;
        if (more == 6 || more == 7)
            more = 5;
        if (more >= 3) {
            out[o++] = '*';
            out[o++] = (char)(more + 29);
            n -= more + 1;
        } else {
            n--;
        }
    }
    return o;
}

/* Send BODY as a packet: escaped, run-length encoded if the variant does,
 * checksummed (a wrong sum when BAD). */
static void gdb_send(struct gdb_sim *s, const char *body, size_t len, int bad)
{
    static const char hex[] = "0123456789abcdef";
    char *p = s->last;
    size_t i = 0, n = 0, k;
    unsigned sum = 0;

    p[n++] = '$';
    while (i < len) {
        unsigned char c = (unsigned char)body[i];

        if (c == '$' || c == '#' || c == '}' || c == '*') {
            p[n++] = '}';
            p[n++] = (char)(c ^ 0x20);
            i++;
            continue;
        }
        for (k = i; k < len && body[k] == body[i]; k++)
            ;
        if (s->v->rle && k - i >= 4) {
            n += rle_run(p + n, (char)c, k - i);
            i = k;
        } else {
            p[n++] = (char)c;
            i++;
        }
    }
    for (k = 1; k < n; k++)
        sum += (unsigned char)p[k];
    p[n++] = '#';
    p[n++] = hex[(sum >> 4) & 15];
    p[n++] = hex[sum & 15];
    s->nlast = n;
    if (bad) {
        /* a wrong last digit; the client's '-' gets the packet again */
        p[n - 1] = hex[(sum + 1) & 15];
        answer(p, n);
        p[n - 1] = hex[sum & 15];
        return;
    }
    answer(p, n);
}

static void gdb_reply(struct gdb_sim *s, const char *body)
{
    if (s->v->stale_stop && !s->stale_sent) {
        s->stale_sent = 1;
        gdb_send(s, "T05", 3, 0);
    }
    gdb_send(s, body, strlen(body), 0);
}

static void gdb_stop_reply(struct gdb_sim *s)
{
    if (s->v->console)
        gdb_send(s, "O48656c6c6f0a", 13, 0); /* "Hello\n" */
    gdb_send(s, "T02", 3, 0);
}

static void gdb_packet(struct gdb_sim *s, const char *body, size_t len)
{
    static char reply[2 * MP_RSP_MAX_PACKET + 1];
    unsigned long long addr;
    size_t n, i;
    int at;

    if (len >= 10 && memcmp(body, "qSupported", 10) == 0) {
        /* a feature the client does not know, its '#', '$', '*' and '}'
         * escaped on the wire */
        snprintf(reply, sizeof(reply), "PacketSize=%x%s;qXfer:features:read+;x-vendor=a#b$c*d}e",
                 s->v->packet_size, s->v->no_ack ? ";QStartNoAckMode+" : "");
        gdb_reply(s, reply);
    } else if (len == 15 && memcmp(body, "QStartNoAckMode", 15) == 0) {
        gdb_reply(s, "OK");
        s->ack = 0;
    } else if (len == 6 && memcmp(body, "vCont?", 6) == 0) {
        gdb_reply(s, s->v->vcont ? "vCont;c;C;s;S" : "");
    } else if (len == 1 && body[0] == '?') {
        gdb_reply(s, "T05");
    } else if (body[0] == 'c' || (len >= 7 && memcmp(body, "vCont;c", 7) == 0)) {
        /* no answer until the core stops */
    } else if (body[0] == 'm' && sscanf(body + 1, "%llx,%zx", &addr, &n) == 2) {
        const uint8_t *p = mem_at(addr, n);

        s->reads++;
        if (!p || n > MP_RSP_MAX_PACKET / 2 || (s->v->read_error && s->reads == 2)) {
            gdb_reply(s, "E01");
            return;
        }
        for (i = 0; i < n; i++)
            snprintf(reply + 2 * i, 3, "%02x", p[i]);
        if (s->v->bad_sum && !s->bad_sent && s->ack) {
            s->bad_sent = 1;
            gdb_send(s, reply, 2 * n, 1);
            return;
        }
        gdb_reply(s, reply);
    } else if ((body[0] == 'M' || body[0] == 'X') &&
               sscanf(body + 1, "%llx,%zx:%n", &addr, &n, &at) == 2) {
        uint8_t bytes[MP_RSP_MAX_PACKET];

        at++; /* from body, not body + 1 */
        if (body[0] == 'X' && !s->v->binary) {
            gdb_reply(s, "");
            return;
        }
        if (n > sizeof(bytes) || (size_t)at + (body[0] == 'X' ? n : 2 * n) > len) {
            gdb_reply(s, "E02");
            return;
        }
        for (i = 0; i < n; i++) {
            unsigned v;

            if (body[0] == 'X')
                bytes[i] = (uint8_t)body[at + i];
            else if (sscanf(body + at + 2 * i, "%2x", &v) == 1)
                bytes[i] = (uint8_t)v;
        }
        gdb_reply(s, n == 0 || mem_store(addr, bytes, n) == 0 ? "OK" : "E03");
    } else {
        gdb_reply(s, "");
    }
}

/* What the client sent: acknowledgements, the interrupt byte, packets. */
static void gdb_serve(void *ctx, const void *data, size_t len)
{
    static char body[MP_RSP_MAX_PACKET + 1];
    struct gdb_sim *s = ctx;

    if (len > sizeof(s->in) - s->nin)
        abort();
    memcpy(s->in + s->nin, data, len);
    s->nin += len;
    for (;;) {
        size_t used = 0, n;
        char *hash;

        if (s->nin == 0)
            return;
        if (s->in[0] == '+') {
            used = 1;
        } else if (s->in[0] == '-') {
            answer(s->last, s->nlast);
            used = 1;
        } else if (s->in[0] == 0x03) {
            used = 1;
            gdb_stop_reply(s);
        } else if (s->in[0] == '$') {
            hash = memchr(s->in, '#', s->nin);
            if (!hash || (size_t)(hash - s->in) + 3 > s->nin)
                return;
            used = (size_t)(hash - s->in) + 3;
            if (s->ack)
                answer("+", 1);
            n = mp_rsp_decode(s->in + 1, (size_t)(hash - s->in) - 1, body, MP_RSP_MAX_PACKET);
            if (n == (size_t)-1)
                abort();
            body[n] = '\0';
            gdb_packet(s, body, n);
        } else {
            abort();
        }
        memmove(s->in, s->in + used, s->nin - used);
        s->nin -= used;
    }
}

/* ---- a simulated OpenOCD Tcl server ---- */

struct ocd_variant {
    const char *name;
    int halted;     /* the core is halted when the client connects */
    int decimal;    /* words in decimal, one a line */
    int read_error; /* the second read_memory fails */
};

static const struct ocd_variant ocd_variants[] = {
    {"running-hex", 0, 0, 0},
    {"halted-decimal", 1, 1, 0},
    {"read-error", 0, 0, 1},
};

struct ocd_sim {
    const struct ocd_variant *v;
    int running;
    char in[1 << 17];
    size_t nin;
    unsigned reads;
};

static char *ocd_out;
static size_t ocd_nout, ocd_cap;

/* Room for N more bytes of the answer. */
static void ocd_reserve(size_t n)
{
    while (ocd_nout + n > ocd_cap) {
        ocd_cap = ocd_cap ? 2 * ocd_cap : 65536;
        ocd_out = realloc(ocd_out, ocd_cap);
        if (!ocd_out)
            abort();
    }
}

static void ocd_put(const char *fmt, unsigned long long v)
{
    char tmp[32];
    int n = snprintf(tmp, sizeof(tmp), fmt, v);

    ocd_reserve((size_t)n);
    memcpy(ocd_out + ocd_nout, tmp, (size_t)n);
    ocd_nout += (size_t)n;
}

static void ocd_command(struct ocd_sim *s, char *cmd)
{
    unsigned long long addr;
    unsigned width;
    size_t count, i;
    int at;

    ocd_nout = 0;
    ocd_reserve(64);
    if (strcmp(cmd, "[target current] curstate") == 0) {
        const char *st = s->running ? "running" : "halted";

        memcpy(ocd_out, st, strlen(st));
        ocd_nout = strlen(st);
    } else if (strcmp(cmd, "halt") == 0) {
        s->running = 0;
    } else if (strcmp(cmd, "resume") == 0) {
        s->running = 1;
    } else if (sscanf(cmd, "read_memory 0x%llx %u %zu", &addr, &width, &count) == 3) {
        const uint8_t *p = mem_at(addr, count * (width / 8));

        s->reads++;
        if (!p || (s->v->read_error && s->reads == 2)) {
            static const char e[] = "read_memory: failed to read memory";

            memcpy(ocd_out, e, sizeof(e) - 1);
            ocd_nout = sizeof(e) - 1;
        } else {
            for (i = 0; i < count; i++) {
                unsigned long long v = 0;
                unsigned b;

                for (b = 0; b < width / 8; b++)
                    v |= (unsigned long long)p[i * (width / 8) + b] << (8 * b);
                if (s->v->decimal)
                    ocd_put(i ? "\n%llu" : "%llu", v);
                else
                    ocd_put(i ? " 0x%llx" : "0x%llx", v);
            }
        }
    } else if (sscanf(cmd, "write_memory 0x%llx %u {%n", &addr, &width, &at) == 2) {
        char *p = cmd + at, *end;
        uint64_t a = addr;

        for (;;) {
            unsigned long long v = strtoull(p, &end, 0);
            uint8_t b[8];
            unsigned k;

            if (end == p)
                break;
            for (k = 0; k < width / 8; k++)
                b[k] = (uint8_t)(v >> (8 * k));
            mem_store(a, b, width / 8);
            a += width / 8;
            p = end;
        }
    } else {
        static const char e[] = "invalid command name";

        memcpy(ocd_out, e, sizeof(e) - 1);
        ocd_nout = sizeof(e) - 1;
    }
    answer(ocd_out, ocd_nout);
    answer("\x1a", 1);
}

static void ocd_serve(void *ctx, const void *data, size_t len)
{
    struct ocd_sim *s = ctx;
    char *end;

    if (len > sizeof(s->in) - s->nin - 1)
        abort();
    memcpy(s->in + s->nin, data, len);
    s->nin += len;
    while ((end = memchr(s->in, 0x1a, s->nin)) != NULL) {
        size_t used = (size_t)(end - s->in) + 1;

        *end = '\0';
        ocd_command(s, s->in);
        memmove(s->in, s->in + used, s->nin - used);
        s->nin -= used;
    }
}

/* ---- recording ---- */

static uint8_t record[1u << 22];

/* Run SCENARIO over TRANSPORT against SERVE and keep what it answered. */
static void put_recording(const char *kind, const char *transport, const char *variant,
                          unsigned scenario, fuzz_net_server *serve, void *sim, int must_pass)
{
    static uint8_t seed[sizeof(record) + 1];
    char name[128];
    size_t n;
    int rc;

    memcpy(mem, images[1].data, images[1].len);
    mem_len = images[1].len;
    fuzz_net_serve(serve, sim, record, sizeof(record));
    rc = fuzz_link_run(transport, scenario);
    n = fuzz_net_consumed();
    fuzz_net_serve(NULL, NULL, NULL, 0);
    if (must_pass && rc != 0) {
        fprintf(stderr, "fuzz_seeds: %s %s scenario %u failed (%d): %s\n", transport, variant,
                scenario, rc, mp_last_error());
        exit(1);
    }
    seed[0] = (uint8_t)scenario;
    memcpy(seed + 1, record, n);
    snprintf(name, sizeof(name), "s%u-%s", scenario, variant);
    put_file(kind, name, seed, n + 1);
}

static void put_links(void)
{
    static struct gdb_sim gs;
    static struct ocd_sim os;
    unsigned sc, v;

    for (sc = 0; sc < fuzz_link_scenarios(); sc++) {
        for (v = 0; v < sizeof(gdb_variants) / sizeof(gdb_variants[0]); v++) {
            if (gdb_variants[v].read_error && sc != 0)
                continue;
            memset(&gs, 0, sizeof(gs));
            gs.v = &gdb_variants[v];
            gs.ack = 1;
            put_recording("rsp", "gdb", gs.v->name, sc, gdb_serve, &gs, !gs.v->read_error);
        }
        for (v = 0; v < sizeof(ocd_variants) / sizeof(ocd_variants[0]); v++) {
            if (ocd_variants[v].read_error && sc != 0)
                continue;
            memset(&os, 0, sizeof(os));
            os.v = &ocd_variants[v];
            os.running = !os.v->halted;
            put_recording("ocd", "openocd", os.v->name, sc, ocd_serve, &os, !os.v->read_error);
        }
    }
}

int main(int argc, char **argv)
{
    unsigned i;
    int k;

    if (argc < 2) {
        fprintf(stderr, "usage: fuzz_seeds CORPUS_DIR [ELF...]\n");
        return 2;
    }
    corpus = argv[1];
    fuzz_begin();
    for (i = 0; i < NIMAGES; i++) {
        struct seed_image *s = &images[i];
        struct tb_image d;
        struct mp_model m;
        char stem[128];

        describe(&d, s->big, s->ptr_size, s->machine, s->task_paths);
        s->len = build_with_contexts(&d, s->data, sizeof(s->data));
        image_model(&m, s);
        put_file("image", s->name, s->data, s->len);
        snprintf(stem, sizeof(stem), "%.*s", (int)(strlen(s->name) - 6), s->name);
        put_gmons(stem, &m);
        put_json(stem, &m);
        mp_model_free(&m);
    }
    for (k = 2; k < argc; k++)
        put_elf_json(argv[k], (unsigned)k - 2);
    put_links();
    fuzz_end();
    return 0;
}

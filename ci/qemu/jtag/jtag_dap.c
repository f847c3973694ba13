/*
 * jtag_dap.c - an ARM JTAG-DP with one AHB MEM-AP, reached through
 * OpenOCD's remote_bitbang adapter, whose memory is that of firmware
 * running under QEMU (its gdbstub). It lets the real OpenOCD, the OpenOCD
 * script hosttools/openocd/mcuprof.tcl and `mcuprof pull --openocd` be
 * tested without a board. A test fixture: no product code depends on it.
 *
 *   jtag_dap --gdb HOST:PORT [--port N] [--port-file FILE] [--wait N]
 *            [--die-after N] [--fault-after N] [--verbose]
 *
 * Listens on 127.0.0.1 (port N, default 0: any free port; the port is
 * written to FILE and to stdout as "jtag_dap: listening on PORT"), serves
 * one remote_bitbang client after another until killed.
 *
 * remote_bitbang (OpenOCD 0.12, src/jtag/drivers/remote_bitbang.c): one
 * byte per request. '0'..'7' drive TCK (4), TMS (2) and TDI (1); 'R' asks
 * for TDO, answered '0' or '1'; 'r'..'u' set TRST (2) and SRST (1), TRST
 * resets the TAP; 'B'/'b' blink (ignored); 'Q' ends the connection. TDI
 * and TMS are sampled on the rising edge of TCK; OpenOCD reads TDO while
 * TCK is low, so 'R' returns bit 0 of the selected shift register.
 *
 * The TAP (IEEE 1149.1): the 16-state controller; 4-bit IR capturing
 * 0b0001; IDCODE (0xE, also selected by Test-Logic-Reset), BYPASS (0xF and
 * every unmodelled instruction), and the ADIv5 JTAG-DP chains ABORT
 * (0x8), DPACC (0xA) and APACC (0xB), 35 bits each: in, RnW (bit 0), A[3:2]
 * (bits 2:1) and 32 data bits; out, the 3-bit ACK (OK/FAULT 0b010, WAIT
 * 0b001) and the result of the previous read: the JTAG-DP is pipelined,
 * a read's value comes out in the next DPACC/APACC scan (RDBUFF's read
 * does nothing else).
 *
 * DP (ADIv5 JTAG-DP, version 1): DPIDR (0x0), CTRL/STAT (0x4: the
 * CDBGPWRUPREQ/CSYSPWRUPREQ requests are acknowledged by CDBGPWRUPACK/
 * CSYSPWRUPACK from the read after the request changed, as a power
 * controller takes time; ORUNDETECT; STICKYORUN and STICKYERR are cleared
 * by writing 1, as on a JTAG-DP), SELECT (0x8: APSEL, APBANKSEL), RDBUFF
 * (0xC). ABORT's DAPABORT ends a pending WAIT. While a sticky flag is set,
 * APACC transactions are discarded and answer OK, as ADIv5 specifies for
 * the JTAG-DP: the debugger finds out from CTRL/STAT.
 *
 * AP 0, an AHB MEM-AP: CSW (0x00: Size 8/16/32 bits, AddrInc off or single;
 * packed is not implemented and reads back as off, DeviceEn reads 1), TAR
 * (0x04), DRW (0x0C), BD0-BD3 (0x10-0x1C), CFG (0xF4, 0: little-endian,
 * 32-bit addresses), BASE (0xF8, the Cortex-M ROM table 0xE00FF003), IDR
 * (0xFC, 0x24770011: AHB-AP, ARM). TAR auto-increments within its low 10
 * bits only (a 1 KB block, as CoreSight AHB-APs do and ADIv5 permits), so a
 * debugger that forgets to reload TAR at a 1 KB boundary reads the wrong
 * memory. Bytes and halfwords travel on their byte lanes (address bits
 * 1:0). Other APs, and every register not named here (DP or AP), read 0 and
 * ignore writes.
 *
 * Memory: every DRW or BDx access is one m/M packet to QEMU's gdbstub
 * (through the product's GDB client library). QEMU serves memory only
 * while the core is stopped, so the fixture stops the core at the first
 * access of a burst and lets it run again once the JTAG link has been
 * quiet for IDLE_US; the firmware's own view of memory never changes. An
 * error reply sets STICKYERR, as a bus error on a real AHB-AP does.
 *
 * Faults, for the tests:
 *   --wait N         after every TAR write (the AP starts a new burst on
 *                    its bus) the AP answers WAIT to its next N APACC
 *                    scans and does not execute them; with ORUNDETECT the
 *                    WAIT sets STICKYORUN, and the APACC transactions after
 *                    it are discarded until the debugger clears the flag
 *                    and replays them. The DP itself never answers WAIT.
 *   --die-after N    after N memory reads the fixture closes the link and
 *                    exits, as a probe that is unplugged mid-transfer.
 *   --fault-after N  memory reads after the first N go to FAULT_ADDRESS,
 *                    unmapped on the MPS2 boards, so the error reply is
 *                    QEMU's own and the MEM-AP reports a bus error.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <unistd.h>

#include "diag.h"
#include "gdb_rsp.h"
#include "transports.h"

/* A quiet link for this long ends a burst: the core runs again. Long
 * enough that the gaps between OpenOCD's flushes inside one command do
 * not stop and start the core for every scan, short enough that a
 * debugger polling the firmware every millisecond sees it make progress. */
#define IDLE_US 400
/* Unmapped on QEMU's MPS2 boards: the gdbstub answers an error. */
#define FAULT_ADDRESS 0x50000000u
#define GDB_TIMEOUT_MS 5000u

#define IDCODE 0x4BA00477u   /* ARM JTAG-DP, as on Cortex-M3/M4 */
#define DPIDR 0x4BA01477u    /* DPv1, designer ARM */
#define AP_IDR 0x24770011u   /* AHB-AP, ARM, revision 2 */
#define AP_BASE 0xE00FF003u  /* Cortex-M ROM table, present */

enum { IR_ABORT = 0x8, IR_DPACC = 0xA, IR_APACC = 0xB, IR_IDCODE = 0xE, IR_BYPASS = 0xF };
enum { ACK_WAIT = 1, ACK_OK = 2 };

/* CTRL/STAT bits (ADIv5) */
#define ORUNDETECT (1u << 0)
#define STICKYORUN (1u << 1)
#define STICKYCMP (1u << 4)
#define STICKYERR (1u << 5)
#define CDBGRSTREQ (1u << 26)
#define CDBGRSTACK (1u << 27)
#define CDBGPWRUPREQ (1u << 28)
#define CDBGPWRUPACK (1u << 29)
#define CSYSPWRUPREQ (1u << 30)
#define CSYSPWRUPACK (1u << 31)
#define CTRL_WRITABLE (ORUNDETECT | (3u << 2) | (0xFu << 8) | (0xFFFu << 12) | CDBGRSTREQ | \
                       CDBGPWRUPREQ | CSYSPWRUPREQ)
#define STICKY (STICKYORUN | STICKYCMP | STICKYERR)

/* CSW bits */
#define CSW_SIZE_MASK 7u
#define CSW_ADDRINC_SHIFT 4
#define CSW_ADDRINC_MASK (3u << CSW_ADDRINC_SHIFT)
#define CSW_ADDRINC_SINGLE (1u << CSW_ADDRINC_SHIFT)
#define CSW_DEVICEEN (1u << 6)
#define CSW_TRINPROG (1u << 7)

enum tap_state {
    RESET, IDLE, SELECT_DR, CAPTURE_DR, SHIFT_DR, EXIT1_DR, PAUSE_DR, EXIT2_DR, UPDATE_DR,
    SELECT_IR, CAPTURE_IR, SHIFT_IR, EXIT1_IR, PAUSE_IR, EXIT2_IR, UPDATE_IR
};

/* next[state][tms], IEEE 1149.1 figure 6-1 */
static const enum tap_state next_state[16][2] = {
    [RESET] = {IDLE, RESET},           [IDLE] = {IDLE, SELECT_DR},
    [SELECT_DR] = {CAPTURE_DR, SELECT_IR}, [CAPTURE_DR] = {SHIFT_DR, EXIT1_DR},
    [SHIFT_DR] = {SHIFT_DR, EXIT1_DR}, [EXIT1_DR] = {PAUSE_DR, UPDATE_DR},
    [PAUSE_DR] = {PAUSE_DR, EXIT2_DR}, [EXIT2_DR] = {SHIFT_DR, UPDATE_DR},
    [UPDATE_DR] = {IDLE, SELECT_DR},   [SELECT_IR] = {CAPTURE_IR, RESET},
    [CAPTURE_IR] = {SHIFT_IR, EXIT1_IR}, [SHIFT_IR] = {SHIFT_IR, EXIT1_IR},
    [EXIT1_IR] = {PAUSE_IR, UPDATE_IR}, [PAUSE_IR] = {PAUSE_IR, EXIT2_IR},
    [EXIT2_IR] = {SHIFT_IR, UPDATE_IR}, [UPDATE_IR] = {IDLE, SELECT_DR},
};

struct options {
    const char *gdb;
    unsigned port;
    const char *port_file;
    unsigned long wait, die_after, fault_after;
    int fault, die, verbose;
};

static struct options opt;
static struct mp_rsp rsp; /* large: static */
static int client_fd = -1;

/* TAP */
static enum tap_state state = RESET;
static int tck;
static unsigned ir = IR_IDCODE;
static uint64_t shift;    /* the selected shift register */
static unsigned shift_len;
/* DP */
static unsigned scan_ack; /* ACK captured for the scan in progress */
static uint32_t read_buffer; /* the previous read's result */
static uint32_t ctrl, ctrl_acks, select_reg;
static unsigned busy;     /* scans the AP still answers WAIT (--wait) */
/* MEM-AP */
static uint32_t csw = CSW_DEVICEEN | CSW_ADDRINC_SINGLE | 2u, tar;
static unsigned long mem_reads;
static unsigned long scans, waits;

static void logf_(const char *fmt, ...)
{
    va_list ap;

    fputs("jtag_dap: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

static void core_run(void)
{
    if (!rsp.link.running && rsp.link.ops->resume(&rsp.link) < 0) {
        logf_("cannot resume the core: %s", mp_last_error());
        exit(1);
    }
}

static void core_stop(void)
{
    if (rsp.link.running && rsp.link.ops->halt(&rsp.link) < 0) {
        logf_("cannot stop the core: %s", mp_last_error());
        exit(1);
    }
}

static void die_now(void)
{
    logf_("--die-after %lu: closing the link mid-transfer", opt.die_after);
    core_run();
    rsp.link.ops->close(&rsp.link);
    close(client_fd);
    exit(3);
}

/* One bus access of SIZE bytes (1, 2, 4) at ADDR; the value travels on the
 * byte lanes of a 32-bit bus. Returns 0, or -1 for a bus error. */
static int bus_access(int write, uint32_t addr, unsigned size, uint32_t *lanes)
{
    unsigned shift_bits = 8u * (addr & 3u & ~(size - 1u));
    uint8_t b[4] = {0};
    uint32_t v = 0, target = addr;
    unsigned i;
    int r;

    if (!write) {
        if (opt.die && mem_reads >= opt.die_after)
            die_now();
        if (opt.fault && mem_reads >= opt.fault_after)
            target = FAULT_ADDRESS;
        mem_reads++;
    }
    core_stop();
    if (write) {
        v = *lanes >> shift_bits;
        for (i = 0; i < size; i++)
            b[i] = (uint8_t)(v >> (8 * i));
        r = rsp.link.ops->write(&rsp.link, target, b, size);
    } else {
        r = rsp.link.ops->read(&rsp.link, target, b, size);
        for (i = 0; i < size; i++)
            v |= (uint32_t)b[i] << (8 * i);
        *lanes = v << shift_bits;
    }
    if (r < 0) {
        if (opt.verbose || !opt.fault)
            logf_("bus error at 0x%08" PRIx32 ": %s", addr, mp_last_error());
        *lanes = 0;
        return -1;
    }
    return 0;
}

/* TAR advances within its 1 KB block only. */
static void tar_increment(unsigned size)
{
    if ((csw & CSW_ADDRINC_MASK) == CSW_ADDRINC_SINGLE)
        tar = (tar & ~0x3FFu) | ((tar + size) & 0x3FFu);
}

static uint32_t ap_access(int rnw, unsigned reg, uint32_t data)
{
    unsigned size = 1u << (csw & CSW_SIZE_MASK);
    uint32_t value = 0;

    if ((select_reg >> 24) != 0)
        return 0; /* no AP there */
    switch (reg) {
    case 0x00:
        if (!rnw) {
            uint32_t size_field = data & CSW_SIZE_MASK;

            if (size_field > 2)
                size_field = csw & CSW_SIZE_MASK; /* unsupported size: unchanged */
            csw = (data & ~(CSW_SIZE_MASK | CSW_ADDRINC_MASK | CSW_TRINPROG)) | size_field |
                  CSW_DEVICEEN;
            if ((data & CSW_ADDRINC_MASK) == CSW_ADDRINC_SINGLE)
                csw |= CSW_ADDRINC_SINGLE;
        }
        return csw;
    case 0x04:
        if (!rnw) {
            tar = data;
            busy = (unsigned)opt.wait;
        }
        return tar;
    case 0x0C:
        value = data;
        if (bus_access(!rnw, tar, size, &value) < 0)
            ctrl |= STICKYERR;
        tar_increment(size);
        return rnw ? value : 0;
    case 0x10: case 0x14: case 0x18: case 0x1C:
        value = data;
        if (bus_access(!rnw, (tar & ~0xFu) + (reg & 0xCu), size, &value) < 0)
            ctrl |= STICKYERR;
        return rnw ? value : 0;
    case 0xF4: return 0;
    case 0xF8: return AP_BASE;
    case 0xFC: return AP_IDR;
    default: return 0;
    }
}

static uint32_t dp_access(int rnw, unsigned a, uint32_t data)
{
    uint32_t v;

    switch (a) {
    case 0x0:
        return rnw ? DPIDR : 0;
    case 0x4:
        if (!rnw) {
            ctrl = (ctrl & ~CTRL_WRITABLE & ~(data & STICKY)) | (data & CTRL_WRITABLE);
            return 0;
        }
        v = (ctrl & ~(CDBGPWRUPACK | CSYSPWRUPACK | CDBGRSTACK)) | ctrl_acks;
        /* the power controller answers a request by the next read */
        ctrl_acks = ((ctrl & CDBGPWRUPREQ) ? CDBGPWRUPACK : 0) |
                    ((ctrl & CSYSPWRUPREQ) ? CSYSPWRUPACK : 0) |
                    ((ctrl & CDBGRSTREQ) ? CDBGRSTACK : 0);
        return v;
    case 0x8:
        if (!rnw)
            select_reg = data;
        return select_reg;
    default: /* RDBUFF: the previous read's result again, nothing else */
        return read_buffer;
    }
}

static void capture_dr(void)
{
    switch (ir) {
    case IR_IDCODE:
        shift = IDCODE;
        shift_len = 32;
        break;
    case IR_DPACC:
    case IR_APACC:
    case IR_ABORT:
        /* WAIT while the AP is busy: the AP transaction shifted in now
         * will not be executed. The DP itself is never busy. */
        scan_ack = ACK_OK;
        if (busy && ir == IR_APACC) {
            busy--;
            scan_ack = ACK_WAIT;
        }
        shift = ((uint64_t)read_buffer << 3) | scan_ack;
        shift_len = 35;
        break;
    default:
        shift = 0;
        shift_len = 1;
    }
}

static void update_dr(void)
{
    int rnw = (int)(shift & 1u);
    unsigned a = (unsigned)(shift >> 1 & 3u) << 2;
    uint32_t data = (uint32_t)(shift >> 3);

    if (ir == IR_ABORT) {
        if (data & 1u)
            busy = 0; /* DAPABORT ends the AP's transfer */
        return;
    }
    if (ir != IR_DPACC && ir != IR_APACC)
        return;
    scans++;
    if (opt.verbose)
        logf_("%s %s 0x%x 0x%08" PRIx32 " ack %u", ir == IR_DPACC ? "DP" : "AP", rnw ? "R" : "W",
              ir == IR_APACC ? (select_reg & 0xF0u) | a : a, data, scan_ack);
    if (scan_ack == ACK_WAIT) {
        waits++;
        if (ctrl & ORUNDETECT)
            ctrl |= STICKYORUN;
        return;
    }
    if (ir == IR_APACC) {
        uint32_t v;

        if (ctrl & STICKY)
            return; /* discarded: the debugger checks CTRL/STAT */
        v = ap_access(rnw, (select_reg & 0xF0u) | a, data);
        if (rnw)
            read_buffer = v;
    } else {
        uint32_t v = dp_access(rnw, a, data);

        if (rnw)
            read_buffer = v;
    }
}

/* One TCK rising edge with TMS and TDI. */
static void clock_edge(int tms, int tdi)
{
    switch (state) {
    case SHIFT_DR:
    case SHIFT_IR:
        shift = (shift >> 1) | ((uint64_t)(tdi & 1) << (shift_len - 1));
        break;
    default:
        break;
    }
    state = next_state[state][tms & 1];
    switch (state) {
    case RESET:
        ir = IR_IDCODE;
        break;
    case CAPTURE_IR:
        shift = 0x1; /* 0b0001, as IEEE 1149.1 and ADIv5 require */
        shift_len = 4;
        break;
    case UPDATE_IR:
        ir = (unsigned)(shift & 0xFu);
        break;
    case CAPTURE_DR:
        capture_dr();
        break;
    case UPDATE_DR:
        update_dr();
        break;
    default:
        break;
    }
}

static int tdo(void)
{
    return (state == SHIFT_DR || state == SHIFT_IR) ? (int)(shift & 1u) : 0;
}

static void reset_tap(void)
{
    state = RESET;
    ir = IR_IDCODE;
}

static int send_all(const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = send(client_fd, p, n, MSG_NOSIGNAL);

        if (w < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Serve one remote_bitbang client until it quits or goes away. */
static void serve(void)
{
    static char in[65536], out[65536];
    size_t out_len = 0;

    for (;;) {
        struct timeval tv = {0, IDLE_US};
        fd_set rd;
        ssize_t n, i;
        int r;

        if (out_len) {
            if (send_all(out, out_len) < 0)
                return;
            out_len = 0;
        }
        FD_ZERO(&rd);
        FD_SET(client_fd, &rd);
        r = select(client_fd + 1, &rd, NULL, NULL, rsp.link.running ? NULL : &tv);
        if (r < 0 && errno == EINTR)
            continue;
        if (r == 0) {
            core_run(); /* the burst is over */
            continue;
        }
        n = recv(client_fd, in, sizeof(in), 0);
        if (n <= 0)
            return;
        for (i = 0; i < n; i++) {
            int c = in[i];

            if (c >= '0' && c <= '7') {
                int new_tck = (c >> 2) & 1;

                if (new_tck && !tck)
                    clock_edge((c >> 1) & 1, c & 1);
                tck = new_tck;
            } else if (c == 'R') {
                out[out_len++] = tdo() ? '1' : '0';
                if (out_len == sizeof(out)) {
                    if (send_all(out, out_len) < 0)
                        return;
                    out_len = 0;
                }
            } else if (c >= 'r' && c <= 'u') {
                if ((c - 'r') & 2)
                    reset_tap(); /* TRST */
            } else if (c == 'Q') {
                if (out_len)
                    send_all(out, out_len);
                return;
            } else if (c != 'B' && c != 'b' && c != '\n' && c != '\r') {
                logf_("unknown remote_bitbang request 0x%02x ignored", c & 0xff);
            }
        }
    }
}

static int parse_count(const char *s, unsigned long *v)
{
    char *end;

    errno = 0;
    *v = strtoul(s, &end, 0);
    return (errno || end == s || *end) ? -1 : 0;
}

static void usage(void)
{
    fprintf(stderr, "usage: jtag_dap --gdb HOST:PORT [--port N] [--port-file FILE] [--wait N]\n"
                    "                [--die-after N] [--fault-after N] [--verbose]\n");
    exit(2);
}

static void parse_args(int argc, char **argv)
{
    int i;

    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        unsigned long v = 0;

        if (strcmp(a, "--verbose") == 0) {
            opt.verbose = 1;
            continue;
        }
        if (i + 1 >= argc)
            usage();
        if (strcmp(a, "--gdb") == 0) {
            opt.gdb = argv[++i];
        } else if (strcmp(a, "--port-file") == 0) {
            opt.port_file = argv[++i];
        } else if (parse_count(argv[i + 1], &v) < 0) {
            usage();
        } else if (strcmp(a, "--port") == 0 && v <= 65535) {
            opt.port = (unsigned)v;
            i++;
        } else if (strcmp(a, "--wait") == 0) {
            opt.wait = v;
            i++;
        } else if (strcmp(a, "--die-after") == 0) {
            opt.die_after = v;
            opt.die = 1;
            i++;
        } else if (strcmp(a, "--fault-after") == 0) {
            opt.fault_after = v;
            opt.fault = 1;
            i++;
        } else {
            usage();
        }
    }
    if (!opt.gdb)
        usage();
}

static int listen_on(unsigned port, unsigned *bound)
{
    struct sockaddr_in sa;
    socklen_t len = sizeof(sa);
    int one = 1, fd = socket(AF_INET, SOCK_STREAM, 0);

    if (fd < 0)
        return -1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    memset(&sa, 0, sizeof(sa));
    sa.sin_family = AF_INET;
    sa.sin_port = htons((uint16_t)port);
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 || listen(fd, 1) < 0 ||
        getsockname(fd, (struct sockaddr *)&sa, &len) < 0) {
        close(fd);
        return -1;
    }
    *bound = ntohs(sa.sin_port);
    return fd;
}

int main(int argc, char **argv)
{
    struct mp_endpoint gdb;
    unsigned port = 0;
    int lfd;

    parse_args(argc, argv);
    signal(SIGPIPE, SIG_IGN);
    /* Library messages would say "mcuprof:"; the fixture says why itself. */
    mp_diag_quiet(1);
    if (mp_transport_gdb.parse(opt.gdb, &gdb) < 0 || mp_rsp_open(&rsp, &gdb, GDB_TIMEOUT_MS) < 0) {
        logf_("cannot reach the gdbstub at %s: %s", opt.gdb, mp_last_error());
        return 1;
    }
    core_run();
    lfd = listen_on(opt.port, &port);
    if (lfd < 0) {
        logf_("cannot listen on 127.0.0.1:%u: %s", opt.port, strerror(errno));
        return 1;
    }
    if (opt.port_file) {
        /* written whole, then renamed: a reader never sees half a number */
        char tmp[4096];
        FILE *f;

        snprintf(tmp, sizeof(tmp), "%s.tmp", opt.port_file);
        f = fopen(tmp, "w");
        if (!f || fprintf(f, "%u\n", port) < 0 || fclose(f) != 0 || rename(tmp, opt.port_file) != 0) {
            logf_("cannot write %s", opt.port_file);
            return 1;
        }
    }
    printf("jtag_dap: listening on %u\n", port);
    fflush(stdout);
    for (;;) {
        int one = 1;

        client_fd = accept(lfd, NULL, NULL);
        if (client_fd < 0) {
            if (errno == EINTR)
                continue;
            logf_("accept: %s", strerror(errno));
            return 1;
        }
        /* one byte per TDO answer: never wait for Nagle */
        setsockopt(client_fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
        reset_tap();
        serve();
        close(client_fd);
        client_fd = -1;
        core_run();
        if (opt.verbose)
            logf_("client gone: %lu DP/AP scans, %lu WAIT, %lu memory reads", scans, waits,
                  mem_reads);
    }
}

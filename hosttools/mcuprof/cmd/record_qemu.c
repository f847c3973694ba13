/*
 * record_qemu.c - `mcuprof record` under QEMU (record.h): the board from
 * --board or the ELF, QEMU's command line from the board's manifest (as
 * ci/qemu/run.sh makes it), the run, and the image: the firmware's own
 * dump when it exits, else a pull through QEMU's gdbstub at --duration or
 * Ctrl-C. QEMU never outlives the command.
 */
/* strtok_r */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board_conf.h"
#include "board_find.h"
#include "diag.h"
#include "file_io.h"
#include "interrupt.h"
#include "net.h"
#include "qemu_launch.h"
#include "record.h"

#define MAX_ARGS 64
/* The name the runtime's examples dump to (mcuprof_write_semihosting). */
#define DUMP_NAME "mcuprof.img"

struct qemu_cmd {
    char *argv[MAX_ARGS + 1];
    char words[4096];   /* the words the board's QEMU_EXTRA splits into */
    char bin[4096], kernel[4096], icount[64], gdb[64];
};

/* QEMU's command line: run.sh's, plus the gdbstub on PORT. */
static int make_command(struct qemu_cmd *c, const struct mp_board *b, const char *elf, unsigned port)
{
    char *w, *save = NULL, hint[256];
    int n = 0;

    if (mp_find_program(b->qemu_bin, c->bin, sizeof(c->bin)) < 0)
        return mp_error(NULL, "%s is not installed (board %s): %s", b->qemu_bin, b->name,
                        mp_qemu_install_hint(b->qemu_package[0] ? b->qemu_package : b->qemu_bin, hint, sizeof(hint)));
    if (mp_absolute_path(elf, c->kernel, sizeof(c->kernel)) < 0)
        return mp_error(elf, "cannot make its absolute path: %s", strerror(errno));
    snprintf(c->icount, sizeof(c->icount), "shift=%u,align=off,sleep=off", b->icount_shift);
    snprintf(c->gdb, sizeof(c->gdb), "tcp:127.0.0.1:%u", port);
    snprintf(c->words, sizeof(c->words), "%s", b->qemu_extra);
#define ARG(s) (c->argv[n++] = (char *)(s))
    ARG(c->bin);
    ARG("-machine");
    ARG(b->qemu_machine);
    if (b->qemu_cpu[0]) {
        ARG("-cpu");
        ARG(b->qemu_cpu);
    }
    /* the console UART on stdout, no monitor on it, nothing else on stdio */
    ARG("-nographic");
    ARG("-monitor");
    ARG("none");
    ARG("-serial");
    ARG("stdio");
    ARG("-icount");
    ARG(c->icount);
    ARG("-semihosting-config");
    ARG("enable=on,target=native");
    for (w = strtok_r(c->words, " \t", &save); w && n < MAX_ARGS - 4; w = strtok_r(NULL, " \t", &save))
        ARG(w);
    ARG("-kernel");
    ARG(c->kernel);
    ARG("-gdb");
    ARG(c->gdb);
#undef ARG
    c->argv[n] = NULL;
    return 0;
}

static int print_command(const struct qemu_cmd *c)
{
    mp_qemu_print_command(stdout, c->argv);
    return fflush(stdout) == 0 && !ferror(stdout) ? 0 : mp_error(NULL, "record: cannot write to standard output");
}

/* The board: --board, else the one the ELF is built for (the summary
 * line says how it was recognised). */
static int choose_board(const struct record_args *a, struct mp_board *b, struct record_run *run)
{
    char name[64], why[200];
    int r;

    if (a->board) {
        if ((r = mp_board_load(b, a->board)) != 0 || (r = mp_board_check(a->board, a->elf)) < 0)
            return r < 0 ? r : -1;
        snprintf(run->where, sizeof(run->where), "%s under QEMU", b->name);
        return 0;
    }
    if ((r = mp_board_find(a->elf, name, sizeof(name), why, sizeof(why))) < 0)
        return r;
    if (mp_board_load(b, name) != 0)
        return -1;
    snprintf(run->where, sizeof(run->where), "%s under QEMU (recognised: %s)", b->name, why);
    return 0;
}

/* The image the firmware wrote into Q's directory before it ended:
 * mcuprof.img, or the only *.img, into PATH (SIZE bytes) and NAME; 0, or
 * -1 when there is none. */
static int find_dump(const struct mp_qemu *q, char *path, size_t size, char *name, size_t name_size)
{
    return mp_qemu_find_file(q, DUMP_NAME, ".img", name, name_size) == 0 &&
                   (size_t)snprintf(path, size, "%s/%s", q->dir, name) < size
               ? 0
               : -1;
}

/* QEMU ended by itself: the firmware's exit status, and the image it
 * dumped (or, when QEMU was killed, whatever it dumped before). */
static int take_dump(const struct record_args *a, struct record_run *run, const struct mp_qemu *q)
{
    char path[sizeof(q->dir) + 300], name[256];
    const char *how = q->how;
    uint8_t *data = NULL;
    size_t len;
    int ret, found = find_dump(q, path, sizeof(path), name, sizeof(name)) == 0;

    if (!found)
        return mp_error(a->elf, "QEMU %s after %.2f s before the firmware wrote %s through semihosting: nothing to "
                                "profile%s",
                        how, run->seconds, DUMP_NAME,
                        q->normal ? " (does it call mcuprof_write_semihosting at the end? else use --duration)"
                                  : "");
    if (q->normal) {
        snprintf(run->ended, sizeof(run->ended), "firmware exited %d", q->code);
        if (q->code)
            mp_warn(a->elf, "the firmware exited %d (QEMU's exit status)", q->code);
    } else {
        snprintf(run->ended, sizeof(run->ended), "QEMU %s", how);
        mp_warn(a->elf, "QEMU %s after %.2f s: the profile is the image the firmware wrote before (%s)", how,
                run->seconds, name);
    }
    if (mp_read_file(path, (size_t)UINT32_MAX, &data, &len) < 0)
        return -1;
    ret = mp_record_finish(a, run, name, data, len);
    free(data);
    return ret;
}

int mp_record_qemu(struct record_args *a, struct record_run *run)
{
    static struct mp_board b;
    static struct qemu_cmd cmd;
    static char words[sizeof(((struct mp_qemu *)0)->dir) + 128];
    struct mp_qemu q;
    struct mp_elf_info elf;
    struct mp_target_image t;
    unsigned port;
    uint64_t t0;
    int console = -1, r, ret = -1;

    memset(&q, 0, sizeof(q));
    memset(&elf, 0, sizeof(elf));
    if ((r = choose_board(a, &b, run)) != 0)
        return r == -2 ? -2 : -1;
    /* where the image is, before anything runs */
    if (mp_target_find(&a->target, &elf, &t) < 0)
        return -1;
    if (!(port = mp_free_tcp_port()))
        return mp_error(NULL, "record: no free TCP port on 127.0.0.1 for QEMU's gdbstub");
    if (make_command(&cmd, &b, a->elf, port) < 0)
        return -1;
    if (a->print_command)
        return print_command(&cmd);
    /* (a FIFO blocks here until read: a signal then ends the command) */
    if (a->console && (console = mp_qemu_console_open(a->console)) < 0)
        return errno == EINTR && mp_interrupted() ? -1
                                                  : mp_error(a->console, "cannot write the console: %s", strerror(errno));
    snprintf(a->target.link_name, sizeof(a->target.link_name), "127.0.0.1:%u", port);
    if (mp_interrupted())
        goto out;
    if (mp_qemu_start(&q, cmd.argv, console) < 0)
        goto out;
    /* A third signal ends mcuprof at once (interrupt.h): QEMU dies with
     * it (qemu_launch.h), its directory stays; the pull's own words, while
     * it holds a freeze, replace these. */
    snprintf(words, sizeof(words), "mcuprof: warning: %s: stopped at once: QEMU ends with mcuprof, its working "
             "directory is left", q.dir);
    mp_interrupt_last_words(words);
    t0 = mp_now_ms();
    while (!mp_qemu_poll(&q) && !mp_interrupted() &&
           (a->duration <= 0 || mp_now_ms() - t0 < (uint64_t)(a->duration * 1000)))
        mp_sleep_ms(10);
    run->seconds = (double)(mp_now_ms() - t0) / 1000.0;
    if (mp_qemu_poll(&q)) {
        ret = take_dump(a, run, &q);
        goto out;
    }
    /* Still running: at --duration or a signal, pull through the gdbstub
     * (a second signal stops the pull). */
    if (mp_interrupted()) {
        snprintf(run->ended, sizeof(run->ended), "pulled at %s, firmware stopped",
                 mp_signal_name(mp_interrupt_signal()));
        mp_interrupt_defer();
    } else {
        snprintf(run->ended, sizeof(run->ended), "pulled after --duration, firmware stopped");
    }
    a->qemu_dir = q.dir;
    a->target.transport = &mp_transport_gdb;
    a->target.endpoint = a->target.link_name;
    /* a run shorter than QEMU's start: its gdbstub may not listen yet */
    for (r = 0; r < 500 && !mp_tcp_listening(port) && !mp_qemu_poll(&q) && !mp_interrupted(); r++)
        mp_sleep_ms(10);
    ret = mp_record_pull(a, &elf, &t, run);
out:
    a->qemu_dir = NULL;
    mp_interrupt_last_words(NULL);
    mp_qemu_end(&q);
    mp_qemu_console_close(console);
    return ret;
}

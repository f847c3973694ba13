/*
 * qemu_launch.h - run QEMU as a child that never outlives the tool: in a
 * private temporary working directory (where semihosting opens its
 * files), in its own process group (the terminal's Ctrl-C reaches the
 * tool, which decides), with stdin from /dev/null (QEMU leaves the
 * terminal alone), killed with the tool if it dies (PR_SET_PDEATHSIG),
 * and killed, reaped and its directory removed by mp_qemu_end whatever
 * happened before.
 */
#ifndef MCUPROF_QEMU_LAUNCH_H
#define MCUPROF_QEMU_LAUNCH_H

#include <stddef.h>
#include <sys/types.h>

struct mp_qemu {
    pid_t pid;           /* the child, 0 when none runs */
    char dir[4096];     /* its working directory, "" when none */
    int exited;          /* reaped: status holds how it ended */
    int status;          /* waitpid's status */
};

/* Where NAME is on PATH, into BUF: 0, or -1 when it is not there. */
int mp_find_program(const char *name, char *buf, size_t size);

/* A TCP port on 127.0.0.1 that nobody listened on a moment ago, or 0. */
unsigned mp_free_tcp_port(void);

/* Whether something listens on TCP PORT of 127.0.0.1 (or any address),
 * from the kernel's table (/proc/net/tcp): asked without connecting, as a
 * connection to QEMU's gdbstub would attach to it. */
int mp_tcp_listening(unsigned port);

/* Make the working directory and start ARGV[0] (a path) in it, its output
 * and errors on CONSOLE_FD (-1: the tool's own). Reports and returns -1. */
int mp_qemu_start(struct mp_qemu *q, char *const argv[], int console_fd);

/* Reap the child if it ended: 1 ended (q->status), 0 still running. */
int mp_qemu_poll(struct mp_qemu *q);

/* Kill the child if it runs, reap it, remove the working directory and
 * what it holds, with SIGINT, SIGTERM and SIGHUP held until done. Safe to
 * call twice, and on a Q never started (zeroed). */
void mp_qemu_end(struct mp_qemu *q);

#endif /* MCUPROF_QEMU_LAUNCH_H */
